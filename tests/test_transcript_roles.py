"""Turns of a transcript: marked turns from structured sources, and speakers in plain text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.transcript import people_speaking, speaker_paragraphs
from dreamgit.store.formats.turns import Turn, render_turns

NOW = datetime(2027, 3, 1, 18, 0, tzinfo=UTC)


def _speakers(text: str) -> list[str]:
    return [speaker for speaker, _ in speaker_paragraphs(text)]


def test_inside_a_marked_turn_no_line_starts_a_speaker() -> None:
    """``Name:`` lines, ``## User`` headings and ``Assistant:`` lines stay in their turn."""
    text = render_turns(
        [
            Turn("user", "claude-code", "I pasted the log:\nAuthor: Jonas\nAuthor: Jonas\nok"),
            Turn("assistant", "claude-code", "### Rule: naming\nRule: x\n## User\nUser: not you"),
            Turn("user", "claude-code", "Gemini: I said this\nGemini: and this"),
        ]
    )
    assert _speakers(text) == ["user", "agent", "user"]
    user = speaker_paragraphs(text)[0][1]
    assert user == ["I pasted the log: Author: Jonas Author: Jonas ok"]


def test_a_marked_user_turn_loses_harness_text_left_in_it() -> None:
    """A session file written before the readers knew a shape is cleaned when read."""
    text = render_turns([Turn("user", "claude-code", "<system-reminder>x</system-reminder>Hi")])
    assert speaker_paragraphs(text) == [("user", ["Hi"])]


def test_plain_user_and_assistant_text_keeps_working() -> None:
    """Unmarked ``User:`` / ``Assistant:`` paragraphs are read as before."""
    text = "User: I moved to Ghent.\n\nAssistant: Noted.\n\nUser: I work at Acme.\n"
    assert speaker_paragraphs(text) == [
        ("user", ["I moved to Ghent."]),
        ("agent", ["Noted."]),
        ("user", ["I work at Acme."]),
    ]


def test_name_lines_inside_a_users_paragraph_are_not_speakers() -> None:
    """Git output pasted in a ``User:`` turn: ``Author:`` twice is still the user's turn."""
    text = (
        "User: here is the log\ncommit 1\nAuthor: Jo Li <jo@x.org>\nDate: today\n"
        "commit 2\nAuthor: Jo Li <jo@x.org>\n\nAssistant: Thanks.\n"
    )
    assert _speakers(text) == ["user", "agent"]


def test_a_heading_is_never_a_persons_turn() -> None:
    """ "### Rule: …" twice is a heading, in a chat between people too."""
    text = "Ana: I ride.\n### Rule: one\nBen: I swim.\n### Rule: two\nAna: Ok.\nBen: Ok.\n"
    assert "Rule" not in _speakers(text)


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("sam", "dana"), "Sam"),
        (("bob2", "Alice"), "Bob2"),
        (("Ana María", "Luis"), "Ana María"),
        (("🦊 kit", "Rowan"), "🦊 Kit"),
    ],
)
def test_speaker_names_in_any_case_with_digits_emoji_or_spaces(
    names: tuple[str, str], said: str
) -> None:
    """A chat's speakers are people whatever the case or script of their names."""
    one, two = names
    text = f"{one}: I moved to Quito.\n{two}: Nice!\n{one}: I bake bread.\n{two}: Yum.\n"
    assert _speakers(text)[0] == said
    assert len(set(_speakers(text))) == 2


def test_a_lower_case_speakers_facts_are_theirs() -> None:
    """ "sam: …" lines give Sam's memories, never the user's or the other person's."""
    text = "sam: I bake bread every Sunday.\nDana: Cool.\nsam: I keep bees.\nDana: Yum.\n"
    found = [(c.speaker, c.text) for c in extract_candidates(text, session_id="s", created=NOW)]
    assert ("Sam", "Sam bakes bread every Sunday.") in found, found
    assert ("Sam", "Sam keeps bees.") in found, found
    assert all(speaker == "Sam" and text.startswith("Sam ") for speaker, text in found), found


def test_lower_case_labels_in_prose_are_not_people() -> None:
    """ "fix:" and "todo:" lines in notes never make a chat: names must fill half the lines."""
    lines = [
        "I keep a log of the week.",
        "fix: the flaky test",
        "fix: the cache",
        "kiwi: ripe on Monday",
        "kiwi: gone on Friday",
        "I moved to Quito in May.",
        "Nothing else happened.",
        "The weather was fine.",
        "We met on Thursday.",
    ]
    assert people_speaking(lines) == frozenset()


def test_harness_text_in_a_plain_users_turn_is_not_their_words() -> None:
    """A pasted reminder or private note in a ``User:`` paragraph is left out there too."""
    text = (
        "User: <system-reminder>CLAUDE.md says use uv.</system-reminder> I use pip.\n"
        "<private>my PIN is 4321</private>\n\nAssistant: ok\n"
    )
    assert speaker_paragraphs(text)[0] == ("user", ["I use pip."])


def test_labels_opening_paragraphs_of_an_assistants_reply_stay_in_it() -> None:
    """ "Task:" and "Situation:" paragraphs an assistant wrote are its text, never people."""
    text = (
        "User: Give me two interview answers.\n\n"
        "Assistant: Here they are.\n\nSituation: a late release.\nTask: ship it.\n\n"
        "Situation: a flaky test.\nTask: fix it.\n\nUser: Thanks, I use the STAR method.\n"
    )
    assert _speakers(text) == ["user", "agent", "user"]


def test_someone_who_speaks_once_in_a_lower_case_chat_is_a_speaker_too() -> None:
    """ "bob: …" said once, in a chat of others, is Bob's: never run into the turn before."""
    text = (
        "sam: I moved to Quito last spring.\n"
        "lena: Nice, I work as a baker now.\n"
        "sam: I started learning the oud in May.\n"
        "bob: I have two rabbits at home.\n"
    )
    found = [(c.speaker, c.text) for c in extract_candidates(text, session_id="s", created=NOW)]
    assert ("Lena", "Lena works as a baker now.") in found, found
    assert ("Bob", "Bob has two rabbits at home.") in found, found
    assert not [text for speaker, text in found if speaker == "Sam" and "rabbits" in text]


@pytest.mark.parametrize(("one", "two"), [("sam", "lena"), ("Sam", "Lena"), ("R2D2", "ana maría")])
def test_a_two_line_chat_is_two_speakers_not_the_user(one: str, two: str) -> None:
    """Every line ``Name: prose`` with two names: each line is its speaker's, however short."""
    text = f"{one}: I moved to Quito last spring.\n{two}: I work as a baker in town.\n"
    found = [c.speaker for c in extract_candidates(text, session_id="s", created=NOW)]
    assert found and "user" not in found, found
    assert len(set(found)) == 2


def test_labels_with_short_values_never_make_a_short_chat() -> None:
    """ "Author: Sam Lee" and a git remote's lines are output, not people speaking."""
    assert people_speaking(["Author: Sam Lee", "Reviewer: Dana Ortiz"]) == frozenset()
    remote = [
        "remote: Enumerating objects: 5, done.",
        "remote: Counting objects: 100% (5/5), done.",
    ]
    assert people_speaking(remote) == frozenset()


@pytest.mark.parametrize(
    ("one", "two"), [("I have two cats.", "Lucky you."), ("I moved to Ghent.", "Nice!")]
)
def test_a_two_turn_chat_of_short_lines_is_two_speakers(one: str, two: str) -> None:
    """ "Bram: …" then "Lotte: Nice!" is a chat however short: Bram's fact is Bram's."""
    text = f"Bram: {one}\nLotte: {two}\n"
    assert _speakers(text) == ["Bram", "Lotte"]
    found = [(c.speaker, c.text) for c in extract_candidates(text, session_id="s", created=NOW)]
    assert found and all(speaker == "Bram" and "Bram" in said for speaker, said in found), found


@pytest.mark.parametrize(
    "lines",
    [
        ["Host: example.com", "Port: 5432"],
        ["Branch: main", "Message: Fix the login bug for real"],
        ["Author: Sam Lee", "Reviewer: Dana Ortiz."],
    ],
)
def test_short_label_lines_stay_one_text(lines: list[str]) -> None:
    """Labels with values (a host, a port, a branch) never make a chat of two people."""
    assert people_speaking(lines) == frozenset()
    assert _speakers("\n".join(lines)) == [""]
