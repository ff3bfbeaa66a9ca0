"""A value said inside a request is the value now (dream/gather/updates_in_requests.py).

The clause is lifted by its structure, then read like any other statement; end to end,
through the installed command, the lifted value supersedes the older one and a value of
another thing of a similar shape leaves the older one alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.updates_in_requests import values_in_request


@pytest.mark.parametrize(
    ("sentence", "lifted"),
    [
        (
            "How can I build on the fact that I booked 4 demos to get more leads?",
            ["I booked 4 demos."],
        ),
        (
            "Can you help me plan my week now that my study time is 5 hours in total?",
            ["My study time is 5 hours in total."],
        ),
        (
            "I'm trying to tidy my essay, especially since my draft reached 3,200 words, "
            "which is more than I planned.",
            ["My draft reached 3,200 words."],
        ),
        (
            "I noticed the review moved to 12 June at 4:30 PM, can you adjust my plan?",
            ["The review moved to 12 June at 4:30 PM."],
        ),
        # "it" is the speaker's thing named just before
        (
            "I'm trying to raise my monthly savings, and I just found out it was set to 400 "
            "dollars, so how can I keep up?",
            ["My monthly savings was set to 400 dollars."],
        ),
        # a setting named as new, its value after it or before its word
        (
            "I'm trying to reshape my board to reflect the new launch deadline of June 7, "
            "2026, but I'm stuck.",
            ["The launch deadline is now June 7, 2026."],
        ),
        (
            "I'm worried I won't meet the new June 12 deadline, can you help me plan?",
            ["The deadline is now June 12."],
        ),
        (
            "Can you update the job to the new nightly quota of 2,500 rows per run?",
            ["The nightly quota is now 2,500 rows per run."],
        ),
    ],
)
def test_the_clause_that_states_a_value_is_lifted_out_of_a_request(
    sentence: str, lifted: list[str]
) -> None:
    """ "the fact that", "now that", "since", "I noticed": the clause up to the request."""
    assert values_in_request(sentence) == lifted


@pytest.mark.parametrize(
    "sentence",
    [
        # no request: the statement rules read it as it is
        "I booked 4 demos since the fair.",
        # no value in the clause
        "Can you help me now that my manager is back?",
        # no subject of its own: whom "it" means is not known here
        "Can you remind me, since it's moved to 3 PM?",
        # "since" of a time, not of a fact
        "Since 2019 I have used Vim, can you suggest plugins?",
        # new things counted, not a setting's value
        "Can you help me show off the new 3 sketches I drew?",
    ],
)
def test_nothing_is_lifted_without_a_request_a_value_and_a_subject(sentence: str) -> None:
    """A statement, a clause with no number, one said of "it", a "since" of a year, a
    count of new things."""
    assert values_in_request(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "lifted"),
    [
        # a state said with "now", of the thing "which" stands for
        (
            "I'm tuning the ledger service, which now runs on Postgres 16, can you help me "
            "size its pool?",
            ["The ledger service now runs on Postgres 16."],
        ),
        # a thing of the user's and its value, after "and", up to the request
        (
            "I'm trying to plan my month and my monthly climbing budget is 90 dollars, how "
            "should I split it?",
            ["My monthly climbing budget is 90 dollars."],
        ),
        # a change said as done, with a subject of its own
        (
            "We switched to Buildkite for the nightly builds, can you help me port the cache step?",
            ["We switched to Buildkite for the nightly builds."],
        ),
        (
            "The team offsite got pushed back to 9 October, so how do I tell the guests?",
            ["The team offsite got pushed back to 9 October."],
        ),
        # the speaker's own change, what it changed named between the verb and "to"
        (
            "I'm stuck on this drill, and I've recently raised my daily sets to 6 rounds, "
            "can you help?",
            ["I've recently raised my daily sets to 6 rounds."],
        ),
        (
            "I'm unsure, but we've moved the review from 9:00 to 9:45, so how do I tell them?",
            ["We've moved the review from 9:00 to 9:45."],
        ),
    ],
)
def test_a_clause_that_says_how_a_thing_is_now_is_lifted_out_of_a_request(
    sentence: str, lifted: list[str]
) -> None:
    """A change said as done, a state said with "now", a thing of the user's with a number."""
    assert values_in_request(sentence) == lifted


@pytest.mark.parametrize(
    "sentence",
    [
        # a supposition, not what is so
        "What would break if our ledger service moved to Postgres 16, can you list it?",
        "Can you tell me whether my monthly climbing budget is 90 dollars or 120?",
        # an answer of the moment, not a thing of the user's
        "Can you check my working? My answer is 42 because I doubled it.",
        # a change asked for, not said as done
        "Can you help me switch the nightly builds to Buildkite?",
        # "which" after a preposition may stand for the thing before it
        "How can I build on the lift from the retreat, which is now at 8/10, to keep going?",
        # the day of speaking, not a value of the thing named before "it"
        "I'm unsure how to pace my energy, given that it's already June 3, 2025, can you help?",
    ],
)
def test_a_supposition_an_answer_or_a_change_asked_for_is_not_lifted(sentence: str) -> None:
    """Only what the request says is so now is lifted."""
    assert values_in_request(sentence) == []


def test_a_lifted_value_becomes_the_users_statement() -> None:
    """The request itself is momentary; the value it rests on is kept, once."""
    found = extract_candidates(
        "User: How can I build on the fact that I booked 4 demos to get more leads?",
        session_id="s-1",
        created=datetime(2025, 3, 5, tzinfo=UTC),
    )
    assert [c.text for c in found] == ["The user booked 4 demos."]


CHAT = [
    "User: I have booked 3 demos with hospital buyers.\nAssistant: Good start.\n"
    "User: My reading list has 20 papers.\nAssistant: Nice.",
    "User: Can you explain what a cold lead is?\nAssistant: Someone who has not engaged yet.",
    "User: How can I build on the fact that I booked 6 demos with hospital buyers to get "
    "more referrals?\nAssistant: Ask each buyer for one name.\n"
    "User: Could you help me sort things now that my watch list has 12 films?\n"
    "Assistant: Sort by length.",
]


@pytest.mark.slow
def test_a_value_said_inside_a_request_supersedes_and_another_thing_stays(
    tmp_path: Path,
) -> None:
    """ "… the fact that I booked 6 demos …" supersedes "booked 3 demos"; "my watch list
    has 12 films" said the same way is another thing than "my reading list has 20
    papers", which stays."""
    repo = tmp_path / "mem"
    prepared(repo, "2025-03-01T09:00:00Z", "init", str(repo))
    for k, session in enumerate(CHAT, start=1):
        prepared(repo, f"2025-03-{k * 5:02d}T10:00:00Z", "log", stdin=session + "\n")
    dreamgit(repo, "2025-03-16T11:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2025-03-20T09:00:00Z")]
    assert not [t for t in texts if "3 demos" in t], texts
    assert len([t for t in texts if "6 demos" in t]) == 1, texts
    assert len([t for t in texts if "20 papers" in t]) == 1, texts
    assert len([t for t in texts if "12 films" in t]) == 1, texts


def test_a_lifted_value_says_what_it_is_of_beside_the_sentence_said_of_it() -> None:
    """ "I just found out it was adjusted to 2,350 pages": the sentence as said does not
    say what "it" is, so the lifted clause that does is kept beside it."""
    found = extract_candidates(
        "User: I'm trying to raise my monthly page count, and I just found out it was "
        "adjusted to 2,350 pages, so how can I keep up?",
        session_id="s-1",
        created=datetime(2025, 3, 5, tzinfo=UTC),
    )
    assert "The user's monthly page count was adjusted to 2,350 pages." in [c.text for c in found]


def test_a_value_said_in_may_is_a_statement_not_a_maybe() -> None:
    """ "reached 3,700 words by May 13": the month, not the modal "may"."""
    found = extract_candidates(
        "User: I want to polish my thesis, especially since my draft reached 3,700 words "
        "by May 13, which is more than planned. Can you help?",
        session_id="s-1",
        created=datetime(2025, 5, 20, tzinfo=UTC),
    )
    assert [c.text for c in found if "3,700" in c.text]


SETTINGS_CHAT = [
    "User: The launch deadline is June 2, 2026.\nAssistant: Noted.\n"
    "User: My page count target is 1,800 pages a month.\nAssistant: Noted.",
    "User: I'm trying to rework my board to reflect the new launch deadline of June 9, "
    "2026, but I'm stuck.\nAssistant: Move the polish tasks.\n"
    "User: I'm trying to keep up, and I just found out my page count target was adjusted "
    "to 2,100 pages, so how can I plan my weeks?\nAssistant: About 500 pages a week.\n"
    "User: Can you help me show off the new 4 sketches I drew for the gallery?\n"
    "Assistant: Put them first.",
]


@pytest.mark.slow
def test_a_new_setting_named_inside_a_request_supersedes_the_older_value(
    tmp_path: Path,
) -> None:
    """ "to reflect the new launch deadline of June 9" retires "the launch deadline is
    June 2"; "found out my page count target was adjusted to 2,100" retires 1,800; new
    sketches counted inside a request are no deadline and no target."""
    repo = tmp_path / "mem"
    prepared(repo, "2026-03-01T09:00:00Z", "init", str(repo))
    for k, session in enumerate(SETTINGS_CHAT, start=1):
        prepared(repo, f"2026-03-{k * 5:02d}T10:00:00Z", "log", stdin=session + "\n")
    dreamgit(repo, "2026-03-16T11:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2026-03-20T09:00:00Z")]
    assert not [t for t in texts if "2 June" in t or "June 2," in t], texts
    assert [t for t in texts if "9 June" in t or "June 9" in t], texts
    assert not [t for t in texts if "1,800" in t], texts
    assert [t for t in texts if "2,100" in t], texts


NOW_CHAT = [
    "User: Our ledger service runs on Postgres 14.\nAssistant: Noted.\n"
    "User: My monthly climbing budget is 60 dollars.\nAssistant: Good.\n"
    "User: My weekly reading goal is 40 pages.\nAssistant: Nice.",
    "User: I'm tuning the ledger service, which now runs on Postgres 16, can you help me "
    "size its connection pool?\nAssistant: Start with twenty.\n"
    "User: I'm trying to plan my month and my monthly climbing budget is 90 dollars, how "
    "should I split it between gym fees and shoes?\nAssistant: Two thirds for fees.",
    "User: What would break if our ledger service moved to Postgres 17, can you list it?\n"
    "Assistant: Extensions, mostly.\n"
    "User: I'm trying to plan my evenings for the whole term and my weekly writing goal is "
    "15 pages, how should I split it?\nAssistant: Three pages a night.",
]


@pytest.mark.slow
def test_a_value_a_request_carries_supersedes_and_a_look_alike_does_not(
    tmp_path: Path,
) -> None:
    """ "…, which now runs on Postgres 16, can you …" and "… and my monthly climbing budget
    is 90 dollars, how …" retire the older values; the request itself is not kept; a
    supposition ("what would break if … moved to Postgres 17") and a goal of another thing
    said the same way leave the older memories alone."""
    repo = tmp_path / "mem"
    prepared(repo, "2025-03-01T09:00:00Z", "init", str(repo))
    for k, session in enumerate(NOW_CHAT, start=1):
        prepared(repo, f"2025-03-{k * 5:02d}T10:00:00Z", "log", stdin=session + "\n")
    dreamgit(repo, "2025-03-16T11:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2025-03-20T09:00:00Z")]
    assert not [t for t in texts if "Postgres 14" in t or "60 dollars" in t], texts
    assert len([t for t in texts if "Postgres 16" in t]) == 1, texts
    assert not [t for t in texts if "Postgres 17" in t], texts
    budget = "The user's monthly climbing budget is 90 dollars."
    assert [t for t in texts if "90 dollars" in t] == [budget], texts
    assert len([t for t in texts if "40 pages" in t]) == 1, texts
    assert not [t for t in texts if "is trying to plan their month" in t], texts
