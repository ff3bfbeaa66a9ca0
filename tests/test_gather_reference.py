"""What a statement refers to, and what a sentence that only colours or advises is.

"I've been doing it for 3 years" says nothing of yoga unless the question before
named it; "It's a vintage guitar and I got it as a gift" is one fact, not two;
"Twist your torso" is advice to the listener; "Last week was wild" is a mood
about a week. Sessions written for these tests, in the shapes people chat in.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.antecedents import (
    Asked,
    named_person,
    named_thing,
    ordered_thing,
    with_antecedent,
    with_existing_thing,
    with_person,
    with_subject,
)
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.salience import common_words, salience

MONDAY = datetime(2029, 5, 14, 10, 0, tzinfo=UTC)


def chat(*turns: str) -> list[str]:
    """The memories gathered from a chat between Ines and Olu, one turn a line."""
    text = "\n".join([*turns, "Olu: Nice.", "Ines: Bye!", "Olu: Bye."])
    return [c.text for c in extract_candidates(text, session_id="s-1", created=MONDAY)]


# --------------------------------------------------------------- antecedents --


@pytest.mark.parametrize(
    ("question", "thing", "identity"),
    [
        ("Remember the tough engineering project?", "the tough engineering project", False),
        ("How long have you been doing that yoga routine?", "the yoga routine", False),
        ("Where did you get your necklace?", "my necklace", False),
        ("What's your favorite game?", "my favorite game", True),
        ("What was the name of the band?", "the name of the band", True),
        ("What is the title of your new book?", "the title of my new book", True),
        ("What are your cats called?", "my cats", True),
    ],
)
def test_a_question_names_a_thing_as_its_answerer_says_it(
    question: str, thing: str, identity: bool
) -> None:
    asked = named_thing(question)
    assert asked is not None and (asked.thing, asked.identity) == (thing, identity)


@pytest.mark.parametrize(
    "text",
    ["I went to the lake.", "How was the best part?", "Are you there?", "What do you think?"],
)
def test_no_thing_when_nothing_is_asked_or_named(text: str) -> None:
    assert named_thing(text) is None


@pytest.mark.parametrize(
    ("asked", "sentence", "expected"),
    [
        (
            Asked("the yoga routine"),
            "I've been doing it for 3 years now.",
            "I've been doing the yoga routine for 3 years now.",
        ),
        (
            Asked("the new neighbors"),
            "We invited them over last week.",
            "We invited the new neighbors over last week.",
        ),
        (Asked("my favorite game", True), "It's Zelda.", "My favorite game is Zelda."),
        (Asked("my cats", True), "They're Max and Luna.", "My cats are Max and Luna."),
        # number must agree: "them" is not "the necklace", "it" is not "the boots"
        (Asked("the necklace"), "I gave them away.", "I gave them away."),
        (Asked("the boots"), "I bought it online.", "I bought it online."),
        # "it" as a subject is not what was asked unless the question asked what it is
        (Asked("the new policy"), "I think it is fair.", "I think it is fair."),
        (Asked("the concert"), "It was Matt Patterson.", "It was Matt Patterson."),
        # "this" before a noun is its determiner, not the thing
        (Asked("the pic"), "I took this pic in Tokyo.", "I took this pic in Tokyo."),
        (Asked("the vase"), "I made this!", "I made the vase!"),
        # the verb the question asked about, said again with no object, takes the thing
        (
            Asked("the violin", verb="playing"),
            "I've been playing for about four months now.",
            "I've been playing the violin for about four months now.",
        ),
        (
            Asked("the violin", verb="playing"),
            "I've been playing the piano for years.",
            "I've been playing the piano for years.",
        ),
    ],
)
def test_the_pronoun_takes_the_thing_only_where_it_stands_for_it(
    asked: Asked, sentence: str, expected: str
) -> None:
    assert with_antecedent(sentence, asked) == expected


def test_a_question_remembers_the_verb_its_thing_was_the_object_of() -> None:
    assert named_thing("How long have you been playing the violin?") == Asked(
        "the violin", verb="playing"
    )


def test_an_answer_says_what_the_question_before_named() -> None:
    memories = chat(
        "Olu: How long have you been doing that yoga routine?",
        "Ines: I've been doing it sporadically for about 3 years now.",
    )
    assert "Ines has been doing the yoga routine sporadically since about 2026." in memories


def test_a_question_in_the_same_turn_names_what_the_next_sentence_means() -> None:
    memories = chat("Ines: Remember the tough engineering project? I finally wrapped that up.")
    assert memories[0] == "Ines finally wrapped the tough engineering project up."


def test_an_answer_to_what_a_thing_is_names_it() -> None:
    memories = chat("Olu: What's your favorite game?", "Ines: It's Breath of the Wild!")
    assert "Ines' favorite game is Breath of the Wild." in memories


def test_he_or_she_is_the_one_person_the_sentence_before_named() -> None:
    memories = chat("Ines: Oliver's hilarious! He hid his bone in my slipper once!")
    assert memories == ["Oliver hid his bone in Ines' slipper once."]
    memories = chat("Ines: My brother Tomas came over. He fixed my sink and repainted the hall.")
    assert "Tomas fixed Ines' sink and repainted the hall." in memories


@pytest.mark.parametrize(
    ("sentence", "person"),
    [
        ("Oliver's hilarious!", "Oliver"),
        ("My brother Tomas came over.", "Tomas"),
        ("I met Sarah and Tomas at the fair.", None),  # two: "she" could be either
        ("Olu, I met her at the fair.", None),  # the chat's own people are not "he"
        ("Music is my life.", None),  # the session writes "music" in lower case
        ("Deadline is June 15th.", None),  # a thing with a date, not a person
        ("Launch is on Friday.", None),
    ],
)
def test_the_one_person_a_sentence_names(sentence: str, person: str | None) -> None:
    assert named_person(sentence, frozenset({"music"}), ("Ines", "Olu")) == person


@pytest.mark.parametrize(
    ("question", "answer", "memory"),
    [
        (
            "Olu: Do you have any pictures of the new beds?",
            "Ines: Sure! Here's a pic of them. Super cozy and comfy.",
            "Ines says the new beds are cozy and comfy.",
        ),
        (
            "Olu: How was the concert at Hot Five?",
            "Ines: Loud, sweaty and wonderful!",
            "Ines says the concert was loud, sweaty and wonderful.",
        ),
    ],
)
def test_a_bare_description_after_a_question_describes_what_it_named(
    question: str, answer: str, memory: str
) -> None:
    """ "Super cozy and comfy." alone names nothing; after a question about the new beds
    it describes them."""
    assert memory in chat(question, answer)


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        (
            "Ines: Deadline is June 15th for the grant.",
            "Ines' deadline is 15 June 2029 for the grant.",
        ),
        ("Ines: Budget is tight this quarter.", "Ines' budget is tight this quarter."),
        ("Ines: Flight's at 6 tomorrow.", "Ines' flight's at 6 on 15 May 2029."),
    ],
)
def test_a_thing_of_ones_own_said_without_my_is_the_speakers(line: str, memory: str) -> None:
    """ "Deadline is June 15th" said of one's plans is the speaker's deadline, not a
    sentence about someone named Deadline."""
    assert chat(line) == [memory]


def test_a_bare_noun_that_is_no_thing_of_ones_own_stays_general() -> None:
    assert chat("Ines: Music is my life.") == ["Music is Ines' life."]


@pytest.mark.parametrize("answer", ["Ines: Nice.", "Ines: Sure, totally!", "Ines: Yes and no."])
def test_a_reaction_to_a_question_describes_nothing(answer: str) -> None:
    assert not [m for m in chat("Olu: How was the concert at Hot Five?", answer) if "concert" in m]


def test_only_an_opening_he_or_she_is_replaced() -> None:
    assert with_person("She's a nurse in Porto.", "Aino") == "Aino's a nurse in Porto."
    assert with_person("I told her about it.", "Aino") == "I told her about it."


# ------------------------------------------------------------ one clause, one fact --


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Ines: It's a 1971 Hofner bass and I got it as a gift from my uncle.",
            "It's a 1971 Hofner bass and Ines got it as a gift from their uncle.",
        ),
        (
            "Ines: I volunteered at the food bank, but they gave me a medal!",
            "Ines volunteered at the food bank, but they gave them a medal.",
        ),
    ],
)
def test_a_clause_about_what_the_one_before_named_stays_with_it(line: str, expected: str) -> None:
    assert chat(line)[0] == expected


def test_a_list_between_dashes_stays_in_its_sentence() -> None:
    memories = chat(
        "Ines: I'm carving out some me-time each day - running, reading, or playing my violin"
        " - which refreshes me."
    )
    assert len(memories) == 1
    assert "me-time" in memories[0] and "running, reading" in memories[0]


def test_a_dash_before_a_new_sentence_still_ends_the_first() -> None:
    assert chat("Ines: I lost my job at Lidl in March - it has been rough.") == [
        "Ines lost their job at Lidl in March."
    ]


def test_several_people_and_i_are_one_subject() -> None:
    assert chat("Ines: My girlfriend, Toby and I are going camping at Lake Bled.") == [
        "Ines' girlfriend, Toby and they are going camping at Lake Bled."
    ]


def test_someone_and_i_after_till_is_one_subject() -> None:
    assert chat("Ines: Can't wait till Toby and I move to Porto in June.") == [
        "Ines can't wait till Toby and they move to Porto in June."
    ]
    assert len(chat("Ines: I moved to Berlin and I started at Siemens.")) == 2


def test_a_closing_things_like_that_does_not_hide_the_list() -> None:
    assert chat("Ines: Changed my diet, started walking to work, things like that.") == [
        "Ines changed their diet, started walking to work."
    ]


def test_what_someone_would_do_back_then_is_a_habit_not_a_wish() -> None:
    assert chat("Ines: My gran would bake almond cakes for me when I was a kid.") == [
        "Ines' gran would bake almond cakes for them when they were a kid."
    ]
    assert chat("Ines: I would love a trip to Kyoto someday.") == [
        "Ines would love a trip to Kyoto someday."
    ]


def test_a_closing_all_of_that_does_not_hide_the_list() -> None:
    assert chat("Ines: I've got lots of kids' books - classics, atlases, all of that.") == [
        "Ines has got lots of kids' books - classics, atlases."
    ]


# ---------------------------------------------------------------- whose words --


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Ines: I highly recommend the Lisbon food tour.", "Ines highly recommends"),
        ("Ines: I even got a signed copy of Dune.", "Ines even got"),
        ("Ines: I almost forgot the Porto trip in June.", "Ines almost forgot"),
        ("Ines: Last week I retook the driving test in Braga.", "Ines retook"),
    ],
)
def test_an_adverb_before_the_verb_is_not_conjugated(line: str, expected: str) -> None:
    assert expected in chat(line)[0]


def test_once_named_the_speaker_is_their() -> None:
    memories = chat("Ines: My wife and I left for our Alaska cruise yesterday!")
    assert memories == ["Ines and their wife left for their Alaska cruise on 13 May 2029."]


def test_just_before_a_time_is_no_unsaid_subject() -> None:
    assert chat("Ines: Just last week, we found a violin concert at the Casa da Musica.") == [
        "In the week before 14 May 2029, Ines and others found a violin concert at the"
        " Casa da Musica."
    ]
    assert chat("Ines: Just got back from Rome with my sister Ana.")[0].startswith("Ines just got")


def test_once_named_we_is_they() -> None:
    assert chat("Ines: I'm glad we both love hiking in the Julian Alps.") == [
        "Ines is glad they both love hiking in the Julian Alps."
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # with an agent, "we" is the user's team at work, not their family
        ("We are on Python 3.11, not 3.12.", "The user's team is on Python 3.11, not 3.12."),
        (
            "We had our third baby, Ava, on Friday.",
            "The user and others had their third baby, Ava, on Friday (11 May 2029).",
        ),
    ],
)
def test_a_users_we_is_their_team_unless_family(line: str, expected: str) -> None:
    text = f"User: {line}\nAssistant: Noted."
    assert [c.text for c in extract_candidates(text, session_id="s-1", created=MONDAY)] == [
        expected
    ]


def test_a_name_said_in_a_turn_names_what_follows_in_it() -> None:
    text = (
        "User: Hi, I am Tiago. I am a geologist at a mining company in Evora.\nAssistant: Welcome!"
    )
    assert [c.text for c in extract_candidates(text, session_id="s-1", created=MONDAY)] == [
        "The user's name is Tiago.",
        "Tiago is a geologist at a mining company in Evora.",
    ]


def test_need_is_no_past_tense() -> None:
    assert chat("Ines: I need help planning the move to Porto.") == [
        "Ines needs help planning the move to Porto."
    ]


def test_since_we_last_spoke_is_chat_glue() -> None:
    assert chat("Ines: Since we last spoke, I started teaching bread baking at Padaria Sol.") == [
        "Ines started teaching bread baking at Padaria Sol."
    ]


def test_me_in_a_compound_word_is_not_the_speaker() -> None:
    assert "me-time" in chat("Ines: I book me-time at the Kalma spa every Friday.")[0]


@pytest.mark.parametrize(
    "line",
    [
        "Ines: Twist your torso to one side and use your hand on your knee for support.",
        "Ines: Have faith in yourself and keep writing those poems.",
        "Ines: Appreciate your kind words about the garden.",
        "Ines: Mix it up with different herbs and spices.",
        "Ines: Capture the calm that baking brings.",
    ],
)
def test_advice_to_the_listener_is_no_one_s_fact(line: str) -> None:
    assert chat(line) == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Ines: Practice is key at Padaria Sol.", "Practice is key at Padaria Sol."),
        ("Ines: Let's bake at Padaria Sol on Friday!", None),
    ],
)
def test_a_noun_that_is_also_a_verb_is_no_advice(line: str, memory: str | None) -> None:
    assert chat(line) == ([memory] if memory else [])


@pytest.mark.parametrize(
    "line",
    [
        "Ines: I couldn't agree more, Olu.",
        "Ines: 100% agree, the market was great.",
        "Ines: Care to fill me in on the Porto trip?",
        "Ines: You can always count on me for support with the move.",
        "Ines: It's been ages since we last caught up.",
    ],
)
def test_agreement_and_offers_are_chat(line: str) -> None:
    assert chat(line) == []


def test_a_bare_past_verb_with_you_is_still_the_speaker_s() -> None:
    assert chat("Ines: Finished the book you lent me about Ada Lovelace.") == [
        "Ines finished the book Olu lent them about Ada Lovelace."
    ]


@pytest.mark.parametrize(
    "line", ["Ines: I was a boy.", "Ines: Enough about me.", "Ines: I figured why not."]
)
def test_a_clause_that_says_almost_nothing_is_no_memory(line: str) -> None:
    assert chat(line) == []


# ---------------------------------------------------------------------- when --


def test_just_done_is_dated_by_the_day_it_was_said() -> None:
    assert chat("Ines: I just got accepted for a design internship at Zara!") == [
        "Ines got accepted for a design internship at Zara by 14 May 2029."
    ]


def test_just_before_a_thought_is_no_date() -> None:
    assert chat("Ines: I just wanted to tell you about my new pottery class at Atelier Nord.") == [
        "Ines wanted to tell Olu about their new pottery class at Atelier Nord."
    ]


def test_a_time_then_a_verb_gets_its_unsaid_subject() -> None:
    """ "Yesterday took my pups to the park": Ines took them, "On 13 May 2029 took …"
    would name no one."""
    assert chat("Ines: Yesterday took my two pups to the dog park in Braga!") == [
        "On 13 May 2029 Ines took their two pups to the dog park in Braga."
    ]


def test_an_emoji_before_a_capital_ends_a_sentence() -> None:
    """ "Inspiring \U0001f4aa I emailed …": two sentences, not "Inspiring Ines emailed"."""
    assert chat("Ines: Inspiring \U0001f4aa I emailed three wholesalers in Milan today!") == [
        "Ines emailed three wholesalers in Milan on 14 May 2029."
    ]


def test_just_done_is_dated_where_what_was_done_ends() -> None:
    assert chat("Ines: I just reorganized my whole bookshelf in Porto, speaking of books.") == [
        "Ines reorganized their whole bookshelf in Porto by 14 May 2029, speaking of books."
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a habit: nothing was done on the day
        (
            "Ines: I've always just stayed away from the shelters in Porto.",
            "Ines has always just stayed away from the shelters in Porto.",
        ),
        # "need" is no past tense, and "I'll" looks ahead
        (
            "Ines: I'll just need the vegan recipe from Lisbon!",
            "Ines will need the vegan recipe from Lisbon.",
        ),
    ],
)
def test_just_in_a_habit_or_a_plan_is_no_date(line: str, expected: str) -> None:
    assert chat(line) == [expected]


def test_how_a_week_went_then_what_happened_keeps_what_happened() -> None:
    assert chat("Ines: Last week was wild, I got noticed by two fashion editors.") == [
        "Ines got noticed by two fashion editors in the week before 14 May 2029."
    ]


def test_how_a_night_went_dates_what_happened_next() -> None:
    assert chat("Ines: Yesterday was crazy. I ran the Porto half marathon in 1:52.") == [
        "Ines ran the Porto half marathon in 1:52 on 13 May 2029."
    ]
    memories = chat(
        "Ines: Big news to share - last night was a blast! The band and I jammed at Hot Five."
    )
    assert memories[-1] == "The band and Ines jammed at Hot Five on the night of 13 May 2029."


def test_how_a_week_went_alone_is_no_memory() -> None:
    assert chat("Ines: Last week was eye-opening.") == []


# ------------------------------------------------------------------ salience --


def test_a_common_word_opening_a_sentence_is_not_a_name() -> None:
    clause = "Music has a way of touching our souls"
    session = "I love music. Music has a way of touching our souls."
    as_name = salience(clause, "fact", dated=False)
    as_word = salience(clause, "fact", dated=False, common=common_words(session))
    assert as_word < as_name


def test_a_name_opening_a_sentence_is_still_a_name() -> None:
    clause = "Dana handles the frontend"
    assert salience(clause, "fact", dated=False, common=common_words(clause)) > salience(
        "Someone handles the frontend", "fact", dated=False
    )


# ------------------------------------------------------------- short answers --


@pytest.mark.parametrize(
    ("question", "answer", "memory"),
    [
        (
            "Olu: How long have you been married?",
            "Ines: 5 years already! We met in Ljubljana.",
            "Ines has been married since 2024.",
        ),
        (
            "Olu: Wow. How long have you been making pottery?",
            "Ines: Since I was 17 or so.",
            "Ines has been making pottery since they were 17 or so.",
        ),
        (
            "Olu: How often do you swim with your sister?",
            "Ines: Thanks, Olu! Three times a week.",
            "Ines swims with their sister three times a week.",
        ),
    ],
)
def test_a_bare_time_answers_how_long_or_how_often(question: str, answer: str, memory: str) -> None:
    """ "How long have you been married?" — "5 years already!": the answer says what."""
    assert chat(question, answer)[0] == memory


def test_an_answer_that_says_its_own_verb_is_left_as_it_is() -> None:
    assert chat("Olu: How long have you been painting?", "Ines: I started in 2020.") == [
        "Ines started in 2020."
    ]


def test_for_that_is_no_length_of_time_answers_nothing() -> None:
    assert chat("Olu: How long have you been married?", "Ines: For sure, it was a great day.") == []


def _asked_of_agent(text: str) -> list[str]:
    """The memories gathered from one user turn to an assistant."""
    session = f"User: {text}\n\nAssistant: Understood."
    return [c.text for c in extract_candidates(session, session_id="s", created=MONDAY)]


def test_it_after_an_order_for_a_new_thing_is_that_thing() -> None:
    """ "add an export command. it should write one file per month": the command."""
    texts = _asked_of_agent(
        "add an export command, with `run` and `check` subcommands. it should write one"
        " file per ledger month."
    )
    assert "The user says the export command should write one file per ledger month." in texts


def test_it_after_a_sentence_that_ordered_nothing_stays_as_it_was() -> None:
    """The look-alike: the sentence before orders no new thing, so "it" is not replaced."""
    texts = " ".join(
        _asked_of_agent(
            "the export command has `run` and `check` subcommands. it should write one"
            " file per ledger month."
        )
    )
    assert "export command should write" not in texts


@pytest.mark.parametrize(
    ("sentence", "thing"),
    [
        ("add a backup command, with list and restore subcommands.", "the backup command"),
        ("please write an import script for the bank files.", "the import script"),
        ("have a look at the logs.", None),  # "a look" is no thing
        ("there is a bug in the parser.", None),  # no order
    ],
)
def test_ordered_thing_is_the_new_thing_an_order_makes(sentence: str, thing: str | None) -> None:
    """The object of an order, "a"/"an" and its words, as "the …"."""
    assert ordered_thing(sentence) == thing


def test_with_subject_replaces_only_an_opening_it_that_does_something() -> None:
    """ "it should …" and "It reads …" take the thing; "it is easy …" and a later "it" do not."""
    assert with_subject("it should log every run.", "the job") == "the job should log every run."
    assert with_subject("It reads the config.", "the job") == "The job reads the config."
    assert with_subject("it is easy to break.", "the job") is None
    assert with_subject("then it stops.", "the job") is None


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        (
            "there are broken builds on main, this must be fixed before any new feature",
            "the broken builds on main must be fixed before any new feature",
        ),
        (
            "skip the docs for now; there's a flaky upload test, it should be quarantined",
            "skip the docs for now; the flaky upload test should be quarantined",
        ),
        ("there are broken builds on main, this is annoying", None),
        ("there are broken builds on main, should I look?", None),
        ("I think there are two ways, this should be quick", None),
    ],
)
def test_a_rule_for_a_thing_said_to_exist_names_it(sentence: str, read: str | None) -> None:
    """ "there are X, this must …" is a rule for the X; without a rule's modal, as it was."""
    assert with_existing_thing(sentence) == (read or sentence)


def test_a_rule_said_with_this_after_there_are_is_gathered() -> None:
    """The rule in "…; there are broken builds, this must be fixed first" is kept."""
    text = "User: forget the changelog for now; there are broken builds, this must be fixed first\n"
    texts = [c.text for c in extract_candidates(text, session_id="s-1", created=MONDAY)]
    assert any(t.endswith("broken builds must be fixed first.") for t in texts), texts
