"""What a statement needs to stand on its own, and how a run shares its gather budget.

A sentence that goes on about what the one before named ("Her name is Coco") is
joined to it rather than lost; a pronoun object followed by where and when is a
fact; a reply fragment, "did it" and an idiom's "in a day" are not. A run's
sessions share one budget, and a statement is a repeat only when memory already
says it, not when its words are spread over other facts.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from chatkit import FRIDAY, said_by_noor
from dreamgit.api import DreamEngine
from dreamgit.dream.gather.compact import compact, content_words
from dreamgit.dream.gather.dates import resolve_dates
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.extract.candidate import Candidate
from dreamgit.store.repo import MemoryRepo


def test_a_sentence_about_what_the_one_before_named_is_joined_to_it() -> None:
    memories = said_by_noor("I adopted a kitten last Tuesday! Her name is Pepper and she is tiny.")
    assert memories == [
        "Noor adopted a kitten last Tuesday (6 March 2029); her name is Pepper and she is tiny."
    ]


def test_an_evaluation_after_a_fact_is_not_joined() -> None:
    assert said_by_noor("I hiked Mount Kenya in 2019. It was so fun!")[0] == (
        "Noor hiked Mount Kenya in 2019."
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("I bought it a year ago in Lisbon.", "Noor bought it in 2028 in Lisbon."),
        ("I usually hold it for 30-60 seconds.", "Noor usually holds it for 30-60 seconds."),
    ],
)
def test_a_pronoun_object_with_where_or_how_long_is_a_fact(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "I love it so much.",
        "I prefer it over the old one.",
        "We did it yesterday.",
        "For love and to teach my kids patience.",
        "Because my brother needed help.",
        "Since I was 17 or so.",
        "When we were kids.",
        "Like 'this part adds the rows we summed above'.",
        "Had a rough commute today, it rained all day in Porto.",
        "Perfect, that's exactly what I needed.",
    ],
)
def test_what_only_makes_sense_beside_another_sentence_is_no_memory(line: str) -> None:
    assert said_by_noor(line) == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # one more thing after "and my", not a new clause
        (
            "I wanted to feel closer to a community and my faith.",
            "Noor wanted to feel closer to a community and their faith.",
        ),
        # a title's colon and quotes belong to the title
        (
            'One of my favorites was "Monster Hunter: World".',
            'One of Noor\'s favorites was "Monster Hunter: World".',
        ),
        (
            "Animal Crossing: New Horizons is my go-to game on weekends.",
            "Animal Crossing: New Horizons is Noor's go-to game on weekends.",
        ),
        # what someone did again and again back then is no wish
        (
            "I used to go horseback riding with my dad as a kid, we'd ride through the fields.",
            "Noor used to go horseback riding with their dad as a kid, they'd ride through"
            " the fields.",
        ),
    ],
)
def test_a_clause_keeps_what_belongs_to_it(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a title's or an initial's point ends no sentence
        (
            "I saw a talk by Dr. Mendes about sleep at the Lisbon library.",
            "Noor saw a talk by Dr. Mendes about sleep at the Lisbon library.",
        ),
        (
            "My advisor is Prof. Zhang from the Lisbon lab.",
            "Noor's advisor is Prof. Zhang from the Lisbon lab.",
        ),
        (
            "My favorite author is J.R.R. Tolkien, I reread his books in Porto.",
            "Noor's favorite author is J.R.R. Tolkien, they reread his books in Porto.",
        ),
        # "ever since I was a kid" says since when, it is no clause of its own
        (
            "Chess has been part of my week ever since I was a student in Braga.",
            "Chess has been part of Noor's week ever since they were a student in Braga.",
        ),
        # a participle before its noun: the sentence has its subject
        (
            "Grilled sardines are one of my favorite dinners.",
            "Grilled sardines are one of Noor's favorite dinners.",
        ),
        # "my kids and I": the speaker first, the others theirs
        (
            "My sister and I repainted the kitchen on Monday.",
            "Noor and their sister repainted the kitchen on Monday (5 March 2029).",
        ),
        (
            "My best friend from school and I opened a bakery in Porto.",
            "Noor and their best friend from school opened a bakery in Porto.",
        ),
    ],
)
def test_a_sentence_keeps_its_parts_together(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


def test_just_before_a_day_is_no_part_of_the_date() -> None:
    assert said_by_noor("Just yesterday I signed up for a pottery class in Porto.") == [
        "On 8 March 2029 Noor signed up for a pottery class in Porto."
    ]


def test_news_announced_with_whom_is_still_only_announced() -> None:
    """ "Something fun happened with my school friends" says with whom, not what: the game
    night that follows is the memory."""
    assert said_by_noor(
        "Something fun happened with my school friends - I organized a board game night in Porto."
    ) == ["Noor organized a board game night in Porto."]


def test_a_statement_opening_with_an_ing_form_is_still_going_on() -> None:
    """ "Just creating a place people love" is "Noor is just creating …", never
    "Noor just creatings …"; "being" and "seeing" are no verbs to conjugate."""
    assert said_by_noor("Just creating a bakery in Lisbon that people love to visit.") == [
        "Noor is just creating a bakery in Lisbon that people love to visit."
    ]


def test_a_remark_reported_as_said_keeps_common_words_in_lower_case() -> None:
    """ "Family is everything" is no name: "Noor says family is everything"."""
    memories = said_by_noor(
        "Family dinners in Porto are the best part of December.",
        "I spent the weekend in Porto with my family.",
    )
    assert "Noor says family dinners in Porto are the best part of December." in memories


def test_a_remark_opening_with_a_common_word_keeps_it_in_lower_case() -> None:
    assert said_by_noor("Main pain point is the cost of the Lisbon office.") == [
        "Noor says main pain point is the cost of the Lisbon office."
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Congrats on wrapping up your second screenplay!",
        "Congratulations on both the gala and the upcoming show in Lyon.",
        "Kudos for helping those kids learn to code!",
    ],
)
def test_congratulating_the_listener_is_pep_talk(line: str) -> None:
    assert said_by_noor(line) == []


@pytest.mark.parametrize(
    "line",
    [
        "I hope your knee heals soon.",
        "So sorry to hear the Lisbon job fell through.",
        "I'll keep you posted on the Porto gallery.",
        "I'll let you know if I need help with the props.",
        "I was wondering if you have any tips for the Douro trail.",
        "I'll always be here to support you and give you that boost.",
        "I'm sure the producers will love your Porto screenplay.",
        "Fill me in on the details when you have them.",
    ],
)
def test_wishes_and_promises_to_keep_the_listener_posted_are_chat(line: str) -> None:
    """What is said to keep a chat going ("I'll keep you posted", "hope your knee heals")
    is no fact about either person."""
    assert said_by_noor(line) == []


@pytest.mark.parametrize(
    "line",
    [
        "Sounds like a plan!",
        "Seems like a fun trip to Porto with your kids.",
        "Glad the physio is helping!",
        "Fingers crossed the weather holds for Porto.",
        "Glad we can be on this trip to Porto together.",
    ],
)
def test_a_reaction_to_what_was_just_said_is_no_fact(line: str) -> None:
    assert said_by_noor(line) == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "When I was a kid I rode horses in Porto.",
            "When Noor was a kid they rode horses in Porto.",
        ),
        ("After I graduated, I moved to Porto.", "After Noor graduated, they moved to Porto."),
    ],
)
def test_a_time_clause_with_its_own_clause_is_kept(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "Been swimming more since our last chat - a good way to clear my mind.",
        "Since we last talked, I've been swimming more - a good way to clear my mind.",
        "Since speaking last, I've been swimming more - a good way to clear my mind.",
        "Haven't talked in a few days, wanted to let you know I've been swimming more - a good"
        " way to clear my mind.",
        "As you know, I've been swimming more - a good way to clear my mind.",
    ],
)
def test_when_the_last_chat_was_is_no_part_of_a_fact(line: str) -> None:
    assert said_by_noor(line) == ["Noor has been swimming more - a good way to clear their mind."]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Our spring priorities are: 1) the Porto shop, 2) the new website.",
            "Noor's spring priorities are: 1) the Porto shop, 2) the new website.",
        ),
        (
            "Already sold 30 of our 50 prints at the Porto fair.",
            "Noor already sold 30 of their 50 prints at the Porto fair.",
        ),
        ("Finally finished the quilt for Rui.", "Noor finally finished the quilt for Rui."),
        (
            "Currently training for the Porto marathon.",
            "Noor is currently training for the Porto marathon as of 9 March 2029.",
        ),
        ("Mostly painted landscapes this year.", "Noor mostly painted landscapes in 2029."),
    ],
)
def test_a_list_after_a_colon_and_an_adverb_before_the_verb_stay_with_the_fact(
    line: str, expected: str
) -> None:
    assert said_by_noor(line) == [expected]


def test_a_reaction_before_a_fact_leaves_the_fact() -> None:
    assert said_by_noor("Looks amazing, I love the colors in Porto.") == [
        "Looks amazing, Noor loves the colors in Porto."
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Thankfully, my kids loved the Grand Canyon trip.",
            "Noor's kids loved the Grand Canyon trip.",
        ),
        (
            "Phew, the vet in Braga said it was nothing.",
            "Noor says the vet in Braga said it was nothing.",
        ),
        ("Moreover, Max is already 8 years old.", "Max is already 8 years old."),
        (
            "On another note, I bought a used bike from a neighbor in Porto.",
            "Noor bought a used bike from a neighbor in Porto.",
        ),
        (
            "Oh \u2014 the ferry to Porto got cancelled twice.",
            "Noor says the ferry to Porto got cancelled twice.",
        ),
        (
            "Bummer, the ferry to Porto was cancelled twice.",
            "Noor says the ferry to Porto was cancelled twice.",
        ),
    ],
)
def test_an_opening_interjection_is_no_part_of_the_fact(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


def test_so_far_is_not_an_opening_so() -> None:
    """ "So far it's been great": "so" is not dropped to leave "Far it's been …"."""
    assert not any(
        m.startswith("Far") or " Far " in m
        for m in said_by_noor(
            "I joined a choir in Oslo last month. So far it's been great with 40 singers!"
        )
    )


def test_a_fragment_with_its_own_subject_stays() -> None:
    assert said_by_noor("For my birthday I got a red bike.") == [
        "For Noor's birthday they got a red bike."
    ]


def test_a_statement_without_its_subject_gets_it_back() -> None:
    assert said_by_noor("Been reading the book you recommended.") == [
        "Noor has been reading the book Emil recommended."
    ]


@pytest.mark.parametrize(
    "text", ["Rome wasn't built in a day", "we haven't talked in a week", "I did it in a week"]
)
def test_in_a_day_as_a_length_of_time_is_no_date(text: str) -> None:
    assert resolve_dates(text, FRIDAY) == (text, False)


def test_in_two_days_ahead_is_a_date() -> None:
    assert resolve_dates("we fly out in two days", FRIDAY) == ("we fly out on 11 March 2029", True)


def _statement(text: str, salience: float = 5.0, session: str = "s-1") -> Candidate:
    return Candidate(
        text=text,
        topic="facts",
        priority="normal",
        type="user",
        tags=(),
        key=None,
        confidence=0.8,
        session_id=session,
        created=FRIDAY,
        change=None,
        pattern="statement-fact",
        kind="fact",
        salience=salience,
        speaker="user",
        subject="Noor",
    )


def test_words_spread_over_other_memories_are_still_news() -> None:
    """ "Setting up the billing service" is not said by "billing database" + "web services"."""
    known = [
        "Noor's team decided to use PostgreSQL for the billing database.",
        "Noor uses Flask for all their web services.",
    ]
    fact = _statement("Noor is setting up the new billing service.")
    assert compact([fact], 1000, known, min_novelty=0.3)[:2] == ([fact], [])


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The user wants the agent to keep explanations short.", "instruction"),
        ("The user prefers when the agent gives them numbered lists.", "preference"),
    ],
)
def test_how_the_user_wants_the_agent_to_work_is_kept_before_details(text: str, kind: str) -> None:
    detail = _statement("The user trains on 64 A100 GPUs in Lisbon every night.", salience=9.0)
    how = replace(_statement(text, salience=3.0), kind=kind)
    kept, over, _ = compact([detail, how], len(how.text), [], min_novelty=0.32)
    assert (kept, over) == ([how], [detail])


def test_a_change_is_kept_before_details_and_the_value_it_replaces_is_no_repeat() -> None:
    """ "Uses Horovod" then "is switching from Horovod to FSDP" in one run: the switch takes
    the budget before a more salient detail, and the older value is still gathered (for
    consolidation to supersede), not dropped as a repeat of the switch."""
    old = _statement("Noor's team uses Horovod with PyTorch.", salience=6.0)
    detail = _statement("Noor's team trains on 64 A100 GPUs in Lisbon.", salience=9.0)
    switch = _statement("Noor's team is switching from Horovod to FSDP.", salience=3.0)
    budget = len(old.text) + len(switch.text)
    kept, over, _ = compact([old, detail, switch], budget, [], min_novelty=0.32)
    assert (kept, over) == ([old, switch], [detail])


@pytest.mark.parametrize(("kind", "news"), [("decision", True), ("fact", False)])
def test_a_decision_shares_its_topics_words_and_is_still_news(kind: str, news: bool) -> None:
    """A decision, like a rule, repeats only what one memory says most of: "decided to name
    the build cache folder after the owner" beside "keeps the build cache in a local folder"
    shares four of its seven words, too many for a fact, not for a decision."""
    known = ["Noor keeps the build cache in a local folder beside the repository."]
    said = "Noor decided to name the build cache folder after the repository's owner."
    statement = replace(_statement(said), kind=kind)
    kept, _, repeats = compact([statement], 1000, known, min_novelty=0.32)
    assert (kept, repeats) == (([statement], []) if news else ([], [statement]))


def test_two_preferences_about_one_language_are_not_repeats() -> None:
    """ "Prefers" and "Python" are all the two share: another preference, not a repeat."""
    known = ["Noor prefers pytest over unittest for Python tests."]
    fact = _statement("Noor prefers spaces over tabs in Python code.")
    assert compact([fact], 1000, known, min_novelty=0.32)[:2] == ([fact], [])


def test_a_statement_one_memory_mostly_says_is_a_repeat() -> None:
    known = ["Noor plays the cello in a string quartet on Sundays."]
    repeat = _statement("Noor plays cello in a quartet.")
    assert compact([repeat], 1000, known, min_novelty=0.3) == ([], [], [repeat])


def test_a_count_memory_has_nowhere_is_news_though_its_words_are_known() -> None:
    """A long chat about one project knows its words; a new count of it is still news."""
    known = ["Noor keeps the thesis references in a Zotero library, sorted by chapter."]
    count = _statement("Noor has 61 references in the Zotero library for the thesis.")
    assert compact([count], 1000, known, min_novelty=0.32)[:2] == ([count], [])


def test_a_year_alone_does_not_make_a_repeat_news() -> None:
    known = ["Noor keeps the thesis references in a Zotero library, sorted by chapter."]
    repeat = _statement("Noor keeps thesis references in Zotero in 2031.")
    assert compact([repeat], 1000, known, min_novelty=0.32) == ([], [], [repeat])


@pytest.mark.parametrize(
    "newer",
    [
        "These days Noor's favorite band is Arctic Monkeys.",
        "Noor's favorite band is Arctic Monkeys now.",
    ],
)
def test_another_value_in_the_same_slot_is_news_not_a_repeat(newer: str) -> None:
    """An update shares most words with the memory it changes; its new name makes it news
    (consolidation then retires the older one)."""
    update = _statement(newer)
    assert compact([update], 1000, ["Noor's favorite band is Muse."], min_novelty=0.3) == (
        [update],
        [],
        [],
    )


def test_another_value_takes_the_place_of_its_memory_in_the_budget() -> None:
    """ "Upgraded to an iPhone 15" replaces what memory says of the phone: it is kept
    when the run's budget is spent (the memory it retires makes room)."""
    known = ["Noor's phone is an iPhone 12."]
    hike = _statement("Noor hiked the Peneda trail with Rui on Saturday.", salience=9.0)
    update = _statement("Noor upgraded to an iPhone 15.", salience=4.0)
    kept, _, _ = compact([hike, update], len(hike.text), known, min_novelty=0.3)
    assert kept == [hike, update]


def test_a_fact_with_a_slot_is_kept_before_the_budget_goes_to_the_rest() -> None:
    """A short first session: "I'm Noor" must not lose its place to two salient details."""
    name = replace(_statement("The user's name is Noor.", salience=3.0), key="user.name")
    details = [
        _statement("Noor trained a tokenizer on 40 GB of Lisbon court rulings.", salience=9.0),
        _statement("Noor compared BERTimbau with XLM-R 560M on the Porto set.", salience=9.0),
    ]
    budget = sum(len(d.text) for d in details)
    kept, over, _ = compact([name, *details], budget, [], min_novelty=0.3)
    assert kept[0] == name and len(over) == 1


def test_a_number_said_to_hold_now_is_news_not_a_repeat() -> None:
    """ "Now covering 200 endpoints across 4 products" shares its nouns with the memory of
    150 across 3: it is the new count, kept for consolidation to retire the old one."""
    known = ["Noor owns the API docs — about 150 endpoints across 3 products."]
    now = _statement("Noor is now covering 200 endpoints across 4 products.")
    assert compact([now], 1000, known, min_novelty=0.32)[:2] == ([now], [])


def test_a_number_said_to_hold_currently_is_news_not_a_repeat() -> None:
    """ "Currently at 11 people" is written with the day it held ("as of …"): still the
    new count of the team that memory says had 9."""
    known = ["Noor's team is at 9 people after the spring hires."]
    now = _statement("Noor's team is at 11 people as of 9 March 2029.")
    assert compact([now], 1000, known, min_novelty=0.32)[:2] == ([now], [])


def test_a_length_of_time_said_with_now_is_no_change() -> None:
    """ "For 3 years now" is how long, not a new count: said again, it is a repeat."""
    known = ["Noor has been playing the cello for 3 years now."]
    again = _statement("Noor has been playing the cello for 3 years now, in Porto.")
    assert compact([again], 1000, known, min_novelty=0.32) == ([], [], [again])


def test_an_ending_takes_the_place_of_what_it_ends_in_the_budget() -> None:
    """ "Finished TAing" ends what memory says of the TA job: like a new value, it is kept
    when the run's budget is spent; "never quit" and "ended up" end nothing."""
    known = ["Noor is TAing for the intro stats class this term."]
    hike = _statement("Noor hiked the Peneda trail with Rui on Saturday.", salience=9.0)
    ended = _statement("Noor finished TAing.", salience=4.0)
    kept, _, _ = compact([hike, ended], len(hike.text), known, min_novelty=0.3)
    assert kept == [hike, ended]
    for line in ("Noor will never quit TAing.", "Noor ended up TAing."):
        kept, _, _ = compact([hike, _statement(line, 4.0)], len(hike.text), known, min_novelty=0.3)
        assert kept == [hike]


@pytest.mark.parametrize(
    "text", ["Noor decided to drop the Switch version.", "Noor is migrating fully to GCP."]
)
def test_a_decision_to_drop_or_a_whole_move_is_a_change_kept_before_details(text: str) -> None:
    detail = _statement("Noor trains on 64 A100 GPUs in Lisbon every night.", salience=9.0)
    change = _statement(text, salience=3.0)
    kept, over, _ = compact([detail, change], len(change.text), [], min_novelty=0.32)
    assert (kept, over) == ([change], [detail])


def test_a_switch_from_one_known_tool_to_another_is_news() -> None:
    """Both tools are in memory already; the switch between them is what is new."""
    known = ["Noor's team uses Horovod with PyTorch.", "Noor says PyTorch's FSDP has caught up."]
    switch = _statement("Noor's team is switching from Horovod to FSDP.")
    assert compact([switch], 1000, known, min_novelty=0.32)[:2] == ([switch], [])


def test_the_same_value_said_again_in_other_words_is_a_repeat() -> None:
    again = _statement("These days Noor's favorite band is still Muse.")
    assert compact([again], 1000, ["Noor's favorite band is Muse."], min_novelty=0.3) == (
        [],
        [],
        [again],
    )


def test_verbs_of_something_happening_are_no_shared_news() -> None:
    """ "went to a jazz festival" after "went to a jazz workshop": another event; "went"
    and the words around a date ("the week before") are shared by every event."""
    known = ["In the week before 7 May 2029 Noor went to a jazz workshop."]
    fact = _statement("In the week before 10 July 2029 Noor went to a jazz festival.")
    assert compact([fact], 1000, known, min_novelty=0.3)[:2] == ([fact], [])


def test_a_statement_of_nothing_but_its_subject_is_no_news() -> None:
    """ "Noor tried making one": once "tried" and "making" are no content, nothing is left."""
    empty = _statement("Noor tried making one.")
    assert compact([empty], 1000, [], min_novelty=0.3) == ([], [], [empty])


def test_joining_words_are_no_news() -> None:
    """ "Prefers tabs over spaces" shares only "prefers" with "prefers pytest over unittest"."""
    known = ["Prefers pytest over unittest"]
    fact = _statement("Noor prefers tabs over spaces.")
    assert compact([fact], 1000, known, min_novelty=0.3)[:2] == ([fact], [])


def test_a_run_shares_its_budget_between_its_sessions(tmp_path: Path) -> None:
    """Small talk leaves its share of the budget to the session full of facts."""
    small_talk = "\n".join(
        "Noor: Haha yes, that sounds fun!\nEmil: Totally, so true." for _ in range(40)
    )
    facts = "\n".join(
        [
            "Noor: I moved to Tallinn in 2024 for a job at Skype.",
            "Noor: My sister Aino teaches chemistry at a school in Tartu.",
            "Noor: I ran the Riga marathon in 3 hours 41 minutes in 2027.",
            "Noor: My cat Mochi is 12 years old and hates the vet.",
            "Noor: I'm learning Estonian with a tutor named Kadri twice a week.",
            "Noor: I bought a 1987 Volvo 240 from my uncle Jaan.",
            "Noor: My brother Mikk builds violins in Viljandi.",
            "Noor: I play bass in a jazz trio called Blue Birch.",
            "Noor: My grandmother Helmi was born in Narva in 1941.",
            "Noor: I volunteer at the Kadriorg animal shelter on Sundays.",
            "Noor: I studied geology at the University of Helsinki.",
            "Noor: My partner Oskar is a nurse at the Tallinn children's hospital.",
            "Emil: Wow.",
            "Emil: Cool.",
        ]
    )
    budget_of_facts = 0.14 * len(facts)
    repo = MemoryRepo.init(tmp_path / "memory")
    engine = DreamEngine(repo, now=FRIDAY)
    engine.log_session(small_talk)
    engine.log_session(facts)
    engine.dream(force=True)
    kept = [m.text for m in engine.memories()]
    assert sum(len(text) for text in kept) > max(budget_of_facts, 200) + 100
    assert not any("sounds fun" in text for text in kept)


def test_an_answer_to_the_question_just_asked_is_more_salient() -> None:
    """ "What do you do on weekends?" "I bake bread": what someone wanted to know."""
    answer = "Noor: I usually bake rye bread with my neighbour."

    def gathered(before: str) -> Candidate:
        text = f"{before}\n{answer}\nEmil: Nice.\nNoor: Bye."
        found = extract_candidates(text, session_id="s-1", created=FRIDAY)
        (nooras,) = [c for c in found if c.speaker == "Noor"]
        return nooras

    asked = gathered("Emil: What do you do on weekends?")
    told = gathered("Emil: I went hiking.")
    assert asked.text == told.text == "Noor usually bakes rye bread with their neighbour."
    assert asked.salience == told.salience + 1


def test_a_date_is_one_word_and_short_nouns_count() -> None:
    words = content_words("Noor baked a pie with her cat on 14 May 2029.")
    assert {"pie", "cat", "14-may-2029", "baked"} <= words
    assert not {"may", "14", "her", "with"} & words


@pytest.mark.parametrize(
    "said",
    [
        "Noor baked a pie last Monday (14 May 2029).",
        "Noor baked a pie on Monday next week (14 May 2029).",
        "Noor baked a pie this past Mon (14 May 2029).",
    ],
)
def test_a_weekday_beside_its_date_is_no_word_of_its_own(said: str) -> None:
    """ "last Monday (14 May 2029)" has the words of "on 14 May 2029": the date says it."""
    assert content_words(said) == content_words("Noor baked a pie on 14 May 2029.")


def test_a_weekday_without_a_date_beside_it_is_a_word() -> None:
    """A name that is a weekday, or a weekday with a note in brackets, stays a word."""
    assert "friday" in content_words("Noor's cousin Friday (the painter) baked a pie.")
    assert "monday" in content_words("Noor bakes a pie every Monday.")


def test_the_same_event_said_with_its_weekday_is_a_repeat() -> None:
    """ "last Wednesday (2 May 2029)" repeats "on 2 May 2029": the weekday is no news."""
    known = ["Noor went to a pottery class at Atelier Nord on 2 May 2029."]
    again = _statement("Noor went to a pottery class last Wednesday (2 May 2029).")
    assert compact([again], 1000, known, min_novelty=0.3) == ([], [], [again])


def test_a_weekday_beside_its_date_costs_the_budget_what_the_date_alone_would() -> None:
    """Two statements that fit the budget with "on <day>" still fit with the weekday kept."""
    dated = [
        _statement("Noor planted tulips in the allotment on 2 May 2029."),
        _statement("Noor repaired the old garden shed on 4 May 2029."),
    ]
    budget = sum(len(c.text) for c in dated)
    said = [
        _statement("Noor planted tulips in the allotment last Wednesday (2 May 2029)."),
        _statement("Noor repaired the old garden shed last Friday (4 May 2029)."),
    ]
    assert compact(said, budget, [])[0] == said
    third = _statement(
        "Noor sang with the harbour choir at the old chapel by the ferry pier last Sunday "
        "(6 May 2029)."
    )
    assert compact([*said, third], budget, [])[0] == said  # the budget still binds


def test_the_same_event_on_the_same_day_is_a_repeat() -> None:
    known = ["Noor went to a pottery class at Atelier Nord on 2 May 2029."]
    again = _statement("Noor went to a pottery class on 2 May 2029.")
    assert compact([again], 1000, known, min_novelty=0.3) == ([], [], [again])


def test_a_new_short_noun_is_news() -> None:
    known = ["Noor has a dog named Rex and a parrot."]
    fact = _statement("Noor has a cat named Tom.")
    assert compact([fact], 1000, known, min_novelty=0.3)[:2] == ([fact], [])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("I repainted the Porto studio, speaking of.", "Noor repainted the Porto studio."),
        ("I loved Braga, if you know what I mean.", "Noor loved Braga."),
        ("We stayed in Nuuk a week, if you know.", "Noor and others stayed in Nuuk a week."),
    ],
)
def test_a_closing_aside_is_no_part_of_the_fact(line: str, expected: str) -> None:
    """ "…, speaking of", "…, if you know": asides that close a sentence, never its end."""
    assert said_by_noor(line) == [expected]


def test_after_change_of_plans_a_suggestion_is_what_was_decided() -> None:
    """ "Change of plans — Prof. Mendes thinks we should pivot …": the speaker tells what
    was decided; without the announcement the same sentence is only someone's opinion."""
    decided = said_by_noor(
        "Change of plans — Prof. Mendes thinks we should pivot from ACL to EMNLP instead."
    )
    assert decided == ["Noor and others are going to pivot from ACL to EMNLP instead."]
    assert said_by_noor("Prof. Mendes thinks we should pivot from ACL to EMNLP instead.") == []


def test_another_count_of_a_counted_thing_is_news_not_a_repeat() -> None:
    """ "Installed 14 plugins" after "the editor has 9 plugins": the count is new, said
    with another verb; the same count again, or a count of something else, is not."""
    known = ["Noor's editor has 9 plugins, mostly for Rust."]
    grown = _statement("Noor has installed 14 plugins in the editor.")
    assert compact([grown], 1000, known, min_novelty=0.32)[:2] == ([grown], [])
    again = _statement("Noor has 9 plugins in the editor.")
    assert compact([again], 1000, known, min_novelty=0.32)[0] == []
