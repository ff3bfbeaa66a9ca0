"""Counts and settings hold one slot across verbs (dream/consolidate/counts.py)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.consolidate import counts
from dreamgit.dream.consolidate.counts import count_changes, quantities
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.extract.signature import signature
from test_frame_corpus import _sentences
from test_update import T0, _memories, _pairs


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("The user has 9 plugins.", "The user installed 14 plugins.", "count of plugin: 9 → 14"),
        (
            "The user runs 3 workers.",
            "The user bumped it to 5 workers.",
            "3 → 5",
        ),
        (
            "The user pushed the repository to GitHub with 150 commits.",
            "The user is tidying the history of commits on main, which has now reached 170.",
            "count of commit: 150 → 170",
        ),
        (
            "The user has solved 8 dynamic programming puzzles so far.",
            "The user is asking for harder ones, having raised the practice set to 11 dynamic "
            "programming puzzles.",
            "8 → 11",
        ),
        (
            "The request timeout is 30 seconds.",
            "The user lowered the request timeout to 20 seconds.",
            "20",
        ),
        # a newer count said as the whole, after a count said while doing something
        (
            "The user is designing the photo grid with 6 tiles.",
            "The user added two photos, so now they have a total of 8 tiles.",
            "6 → 8",
        ),
        # what holds the count is one's subject and the other's "to their …"
        (
            "The user's reading list has 30 novels.",
            "The user added 34 novels to their reading list.",
            "count of novel: 30 → 34",
        ),
        # a name said as what it is done with is no owner
        (
            "The user is designing the photo grid with 6 tiles using Gridwise.",
            "The user added two photos, so now they have a total of 8 tiles.",
            "6 → 8",
        ),
        # the user's setting, then the same setting said as "the user says the … is now"
        (
            "The user's nightly backup limit is 40 snapshots.",
            "The user says the nightly backup limit is now 60 snapshots.",
            "40 → 60",
        ),
        # a change that names the setting before its number, then the setting set anew
        (
            "The user has raised their weekly sketching goal from 20 to 30 drawings.",
            "The user's weekly sketching goal was adjusted to 25 drawings.",
            "30 → 25",
        ),
        # one bound named two ways, said number first, then as a new value with its rate
        (
            "The user keeps the exports under the 800 daily export limit.",
            "The user is adjusting the scheduler to the new daily quota of 950 exports per day.",
            "count of export: 800 → 950",
        ),
        # "only" before a verb the word lists do not know (so no past action of its own)
        (
            "The user only secured 2 panel slots for the autumn conferences.",
            "The user secured 4 panel slots.",
            "count of panel slot: 2 → 4",
        ),
        # a sentence that opens with a connective still has its subject
        (
            "However, given the 800 daily export limit, the user batches the exports.",
            "The user says the daily export quota is now 950 exports.",
            "800 → 950",
        ),
        # a change said with its month, then the next value said without one: how often
        # ("daily") is no day, so the two are not two dated events
        (
            "The user's daily reading goal went from 20 to 30 pages in May 2026.",
            "The user raised their daily reading goal to 40 pages.",
            "30 → 40",
        ),
        # a change said "went up from A to B" with no counted noun: B is the fee's value,
        # and "grew from A to B" the team's; the next value retires it
        (
            "The user's parking fee went up from $80 to $95 in January.",
            "The user's parking fee is now $110.",
            "95 → 110",
        ),
        (
            "The user's team grew from 5 to 8 in March.",
            "The user's team rose to 11.",
            "8 → 11",
        ),
        # a capital after ";" opens a clause: no name to keep the two apart
        (
            "The user — wants a check, they've fixed 6 flaky tests; This batch was slow.",
            "The user raised the tally to 9 flaky tests.",
            "6 → 9",
        ),
    ],
)
def test_a_newer_count_of_the_same_thing_supersedes_across_verbs(
    old: str, new: str, reason: str
) -> None:
    """Another verb, a change said inside a request, a bare "reached 170": one slot."""
    pairs = _pairs(old, new)
    assert len(pairs) == 1 and pairs[0][:2] == (old, new), pairs
    assert reason in pairs[0][2]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # another counted noun
        ("The user has 3 workers.", "The user has 5 servers."),
        # the same noun, of another thing
        (
            "The user has 3 workers on the billing queue.",
            "The user runs 5 workers on the mail queue.",
        ),
        (
            "The cloud budget for Heron is 900 dollars.",
            "The cloud budget for Kestrel is 400 dollars.",
        ),
        (
            "the cloud budget for heron is 900 dollars.",
            "The cloud budget for Kestrel is 400 dollars.",
        ),
        # one setting of two people
        ("Noa Berg is a parent of 2 children.", "Ivo Berg is a parent of 3 children."),
        # an addition, not the count
        ("The user has 2 cats.", "The user adopted 3 more cats."),
        # a smaller count said with no word of change: another batch, not a new total
        ("The user has completed 12 practice problems.", "The user solved 5 practice problems."),
        # two past actions, each with its own count
        ("The user ran 5 km.", "The user ran 10 km."),
        # a span of time is no count of anything
        ("The user studied for 3 hours.", "The user practised scales for 2 hours."),
        # a percentage and a plain count
        ("The user has 40 flashcards.", "The user's recall of the flashcards is 85%."),
        # another holder of the same counted noun
        (
            "The user's reading list has 30 novels.",
            "The user added 34 novels to their wish list.",
        ),
        # another setting of the user's, changed by a range: both stay
        (
            "The user has raised their daily push-up goal from 20 to 25 push-ups.",
            "The user's weekly push-up goal was lowered to 120 push-ups.",
        ),
        # two settings of other names, each said of the user
        (
            "The user's nightly backup limit is 40 snapshots.",
            "The user says the weekly backup limit is now 60 snapshots.",
        ),
        # a newer change from a value the setting never held counts what was done
        (
            "The user's weekly sketching goal was adjusted to 25 drawings.",
            "The user has raised their weekly sketching goal from 20 to 30 drawings.",
        ),
        # a bound of other things or per another time, each named as a bound
        (
            "The user stays under the 800 daily export limit.",
            "The user says the new daily import quota is 950 imports.",
        ),
        (
            "The user stays under the 800 daily export limit.",
            "The user says the weekly export quota is now 4,000 exports.",
        ),
        (
            "The user stays under the 800 daily export limit for the billing team.",
            "The user says the daily export quota for the search team is now 950 exports.",
        ),
        # a goal per another interval
        (
            "The user's daily reading goal went from 20 to 30 pages in May 2026.",
            "The user raised their weekly reading goal to 200 pages.",
        ),
        # another fee
        (
            "The user's parking fee went up from $80 to $95.",
            "The user's storage fee is now $110.",
        ),
        # the old side of a change is no new value
        ("The user has 7 plants.", "The user grew the collection from 7 plants to 7 plants."),
    ],
)
def test_counts_of_other_things_never_supersede(first: str, second: str) -> None:
    """Other counted nouns, other owners, additions, events, spans: both stay."""
    assert _pairs(first, second) == []


def test_a_count_reads_its_noun_rate_setting_and_change() -> None:
    """ "the new daily limit of 700 lookups per day": a setting, a counted noun, a rate."""
    (q,) = quantities("The user set the new daily limit of 700 lookups per day.")
    assert (q.number, q.counted, q.rate, q.changed) == ("700", ("lookup",), "day", True)
    assert q.setting == {"day", "limit"}  # a setting's name as one slot: setting_names.py
    assert quantities("The demo is on 14 March 2025 at 3 pm.") == ()


def test_a_count_said_long_before_among_many_of_its_kind_is_still_found() -> None:
    """In a chat about problems, the count of one kind of problem said long ago is found
    past the last 64 other counts of problems."""
    old = "The user has solved 8 graph colouring problems."
    new = "The user raised the practice set to 11 graph colouring problems."
    between = [f"The user wrote 4 problems for quiz round {k}." for k in range(80)]
    found = count_changes(_memories(old, *between, new))
    assert [(a.text, b.text) for a, b, _why in found] == [(old, new)]


def test_counts_said_at_one_interval_on_other_days_stay_apart() -> None:
    """ "Daily" on both sides, "in May" and "in June": two dated events, each its count."""
    found = count_changes(
        _memories(
            "The user logged 30 pages daily in May 2026.",
            "The user logged 45 pages daily in June 2026.",
        )
    )
    assert list(found) == []


def _at_once(*texts: str) -> list[tuple[str, str]]:
    """(older, newer) text pairs among memories all said at one time, in the order given."""
    memories = [replace(m, created=T0, updated=T0) for m in _memories(*texts)]
    by_id = {m.id: m.text for m in memories}
    return [(by_id[u.old], by_id[u.new]) for u in find_updates(memories)]


@pytest.mark.parametrize("order", [1, -1])
def test_said_at_one_time_a_count_said_as_a_change_is_the_count_now(order: int) -> None:
    """One turn says "raised the set to 12 puzzles" and "solved 8 puzzles": whichever
    comes first, the change is the value now and retires the other."""
    change = "The user has raised their practice set to 12 logic puzzles."
    done = "The user has solved 8 logic puzzles and got faster at them."
    assert _at_once(*[change, done][::order]) == [(done, change)]


def test_said_at_one_time_two_counts_without_a_change_both_stay() -> None:
    """No word of change, no time between them: nothing says which is now."""
    assert (
        _at_once("The user has 3 ferns on the balcony.", "The user has 4 ferns on the balcony.")
        == []
    )


def test_counts_of_two_other_subjects_stay_apart_and_the_users_setting_still_joins() -> None:
    """Two subjects, neither the user alone, keep their counts apart whatever is counted
    (decided once a pair of memories); one subject's own counts, and the user with a
    setting the user names, are still one slot."""
    assert _pairs("Ana's team has 5 engineers.", "Raj's team has now grown to 8 engineers.") == []
    one = _pairs("Ana's team has 5 engineers.", "Ana's team has now grown to 8 engineers.")
    assert len(one) == 1, one
    pairs = _pairs(
        "The request timeout is 30 seconds.", "The user lowered the request timeout to 20 seconds."
    )
    assert len(pairs) == 1, pairs


@given(
    st.text(alphabet=st.sampled_from("aAsSzZkK\u212a\u0130\u017f19,.%'-;: ()!?\u00e9"), max_size=40)
)
def test_a_sentence_is_tokenized_as_each_token_lowered(text: str) -> None:
    """The tokens of a text put in lower case whole are its tokens each put in lower case
    (the possessive "'s" dropped), whatever its letters; a token is a number exactly when
    it starts with a digit."""
    tokens = [t.lower().removesuffix("'s") for t in counts._TOKEN.findall(text)]
    assert counts._tokens(text) == tokens
    number = re.compile(r"^\d[\d,]*(?:\.\d+)?%?$")
    assert [t[:1].isdecimal() for t in tokens] == [bool(number.match(t)) for t in tokens]


def test_a_readings_dates_are_those_of_its_facts_signature() -> None:
    """The count reading takes its dates without a whole signature: over the sentences of
    a benchmark store and random ones, the dates a signature of the fact reads."""
    read = [counts.read_counts(text) for text in _sentences()]
    kept = [r for r in read if r is not None]
    assert len(kept) > 100 and any(r.dates for r in kept)
    assert all(r.dates == signature(r.fact).dates for r in kept)
