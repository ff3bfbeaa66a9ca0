"""A new user's week of sessions and a chat between two friends, through the real dream.

Each sentence of the new-user trial of issue 11 gives the memory one expects, and
each misfire that issue lists is a case here that cannot come back. Sessions are
logged at their own times and dreamt with the bundled default rules, no LLM.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.api import DreamEngine
from dreamgit.dream import session_notes
from dreamgit.store.repo import MemoryRepo

MONDAY = datetime(2027, 1, 4, 9, 30, tzinfo=UTC)

WEEK = [
    "User: Hi! I'm Marco, backend lead at Ledgerly.\n"
    "Assistant: Nice to meet you, Marco. What are we working on?\n"
    "User: A payments reconciliation service. I'm in Berlin, so CET.\n"
    "User: Keep answers short.\n",
    "User: We're on Python 3.11, not 3.12. Dana handles the frontend.\n"
    "Assistant: Noted. I prefer long answers myself.\n"
    "User: Don't use emojis in commit messages.\n",
    "User: The beta launch is on Jan 15.\nUser: I'm grumpy today haha.\n",
    "User: Keep answers short.\nAssistant: Sure.\n",
    "User: Heads up, the beta launch moved to January 22.\n",
    "User: I'd rather keep dependencies minimal, how should I structure the CLI?\n",
]


def dream_sessions(tmp_path: Path, sessions: list[str], start: datetime) -> list[str]:
    """Log ``sessions`` a day apart, dream after every third and after the last."""
    repo = MemoryRepo.init(tmp_path / "memory")
    for k, text in enumerate(sessions, start=1):
        engine = DreamEngine(repo, now=start + timedelta(days=k - 1))
        engine.log_session(text)
        if k % 3 == 0 or k == len(sessions):
            engine.dream(force=k == len(sessions))
    # a session note holds several statements: each is read as the memory it stands for
    return sorted(s for m in engine.memories() for s in session_notes.facts(m) or [m.text])


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return dream_sessions(tmp_path_factory.mktemp("week"), WEEK, MONDAY)


@pytest.mark.parametrize(
    "expected",
    [
        "The user's name is Marco.",
        "Marco works as a backend lead at Ledgerly.",  # "works at Ledgerly" merged into it
        "Marco is in Berlin, so CET.",
        "Marco wants the agent to keep answers short.",
        "Marco's team is on Python 3.11, not 3.12.",
        "Dana handles the frontend.",
        "Marco wants the agent not to use emojis in commit messages.",
        "Marco would rather keep dependencies minimal.",
    ],
)
def test_each_sentence_of_the_trial_gives_its_memory(week: list[str], expected: str) -> None:
    """Name and role, place, instructions, versions, a teammate, a preference in a question."""
    assert expected in week


def test_the_employer_said_alone_merges_into_the_role_that_names_it(week: list[str]) -> None:
    """ "backend lead at Ledgerly" says where Marco works: one memory, not two."""
    assert [t for t in week if "Ledgerly" in t] == ["Marco works as a backend lead at Ledgerly."]


def test_an_instruction_said_twice_is_one_memory(week: list[str]) -> None:
    """ "Keep answers short" in two sessions is one memory, not two."""
    assert sum("keep answers short" in m for m in week) == 1


def test_the_moved_beta_date_supersedes_the_first(week: list[str]) -> None:
    """ "The beta launch is on Jan 15", then "moved to January 22": one active memory holds
    the new date, none the old one (it stays in history); the year a day without one means
    is written out ("Jan 15", said on 6 January 2027, is 15 January 2027)."""
    assert [m for m in week if "beta launch" in m] == [
        "Marco says the beta launch moved to 22 January 2027."
    ]


def test_a_passing_mood_is_not_a_memory(week: list[str]) -> None:
    """ "I'm grumpy today haha" says nothing durable."""
    assert not any("grumpy" in m for m in week)


def test_the_assistants_words_are_never_a_memory(week: list[str]) -> None:
    """ "I prefer long answers myself", said by the assistant, is no one's preference."""
    assert not any("long answers" in m for m in week)


FRIENDS = [
    "# Chat 1\n"
    "Priya: Hey Tomas! Good to see you! How have you been?\n"
    "Tomas: Hey Priya! Swamped, honestly. What's new with you?\n"
    "Priya: I went to a poetry reading last Fri and it was so moving.\n"
    "Tomas: [shares a photo: a lake at dawn] That's awesome! You'd be a great poet.\n"
    "Priya: Thanks! This necklace was a gift from my grandma in my home country, Norway.\n"
    "Tomas: Don't forget to prepare emotionally for the move. I'm always proud of you.\n"
    "Priya: I'm keen on counseling or working in mental health.\n"
    "Tomas: Remembering them is so important.\n",
    "# Chat 2\n"
    "Tomas: I adopted a beagle named Biscuit yesterday!\n"
    "Priya: So cute! Is he settling in?\n"
    "Tomas: He is. My sister Lena helps me walk him before work.\n",
]


@pytest.fixture(scope="module")
def friends(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    # Monday 8 May 2028: "last Fri" is 5 May 2028, "yesterday" in the next chat 8 May.
    return dream_sessions(
        tmp_path_factory.mktemp("friends"), FRIENDS, datetime(2028, 5, 8, 14, 0, tzinfo=UTC)
    )


@pytest.mark.parametrize(
    "expected",
    [
        "Priya went to a poetry reading last Fri (5 May 2028).",
        "This necklace was a gift from Priya's grandma in their home country, Norway.",
        "Priya is keen on counseling or working in mental health.",
        "Tomas adopted a beagle named Biscuit on 8 May 2028.",
        "Tomas' sister Lena helps them walk him before work.",
    ],
)
def test_a_chat_between_people_keeps_whose_fact_it_is(friends: list[str], expected: str) -> None:
    """Each person's facts are theirs, named, with relative dates made absolute."""
    assert expected in friends


def test_turns_never_run_together(friends: list[str]) -> None:
    """No memory holds a speaker label, a photo caption or two people's words."""
    for memory in friends:
        assert "Priya:" not in memory and "Tomas:" not in memory
        assert "shares a photo" not in memory


@pytest.mark.parametrize(
    "word",
    ["Switched to", "proud", "prepare emotionally", "Ing ", "Remembering", "great poet", "agent"],
)
def test_misfires_of_the_old_extractor_do_not_return(friends: list[str], word: str) -> None:
    """An outing is no tool switch; pep talk, advice and "you" are not anyone's facts."""
    assert not any(word in memory for memory in friends)
