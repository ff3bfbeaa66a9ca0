"""Transcripts become turns with a speaker: named chats, User/Assistant shapes, JSON messages."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.api import DreamEngine
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.dream.run import dream
from dreamgit.ruleset import load_ruleset
from dreamgit.store.repo import MemoryRepo

NOW = datetime(2027, 3, 1, 18, 0, tzinfo=UTC)


def memories(text: str) -> list[tuple[str, str]]:
    return [(c.speaker, c.text) for c in extract_candidates(text, session_id="s", created=NOW)]


def test_three_people_each_keep_their_own_turns() -> None:
    """ "Name: text" lines with any names give one turn per line, whoever speaks."""
    text = (
        "Ada: I bought a sailboat called Petrel.\n"
        "Bruno: I'm training for the Lisbon marathon.\n"
        "Chen: My brother Wei runs a bakery in Porto.\n"
        "Ada: Nice.\nBruno: Yes.\nChen: Sure.\n"
    )
    assert memories(text) == [
        ("Ada", "Ada bought a sailboat called Petrel."),
        ("Bruno", "Bruno is training for the Lisbon marathon."),
        ("Chen", "Chen's brother Wei runs a bakery in Porto."),
    ]


def test_a_label_used_once_is_not_a_speaker() -> None:
    """ "Note: …" is part of the text, not a person; one "Name:" line is not a chat."""
    shapes = speaker_paragraphs("Note: the wifi password changed.\nI moved to Oslo in March.")
    assert [speaker for speaker, _ in shapes] == [""]


def test_a_third_person_who_speaks_once_keeps_their_words() -> None:
    """In a chat of two people, a third who speaks once is not folded into the turn
    before (their words would be the previous speaker's); a short label is still text."""
    text = (
        "Ada: I bought a sailboat called Petrel.\n"
        "Bruno: I'm training for the Lisbon marathon.\n"
        "Ada: Nice.\nBruno: Yes.\n"
        "Chen: My brother Wei runs a bakery in Porto.\n"
        "Python: 3.11 here\n"
    )
    assert [speaker for speaker, _ in speaker_paragraphs(text)] == [
        "Ada",
        "Bruno",
        "Ada",
        "Bruno",
        "Chen",
    ]
    assert ("Chen", "Chen's brother Wei runs a bakery in Porto.") in memories(text)
    assert not any(speaker == "Bruno" and "Wei" in text for speaker, text in memories(text))


def test_one_who_replies_once_to_someone_who_speaks_twice_keeps_their_words() -> None:
    """A short chat: Tomas speaks twice, Priya once between; her reply is her turn,
    not the end of his (his memory would hold "Priya: So cute")."""
    text = (
        "Tomas: I adopted a beagle named Biscuit yesterday!\n"
        "Priya: So cute! Is he settling in?\n"
        "Tomas: He is. My sister Lena helps me walk him before work.\n"
    )
    assert [speaker for speaker, _ in speaker_paragraphs(text)] == ["Tomas", "Priya", "Tomas"]
    assert not any("Priya:" in memory for _, memory in memories(text))


def test_typographic_apostrophes_and_quotes_read_as_plain_ones() -> None:
    """ "I'm" typed with a curly apostrophe (as phones write it) is "I'm", never "Ben" + "m";
    a title in curly double quotes is a quoted title."""
    text = (
        "Ana: What\u2019s new?\n"
        "Ben: I\u2019m flying to Lisbon next week. I\u2019ve been reading \u201cDune\u201d"
        " all month.\n"
        "Ana: Nice!\nBen: Yes.\n"
    )
    kept = [memory for _, memory in memories(text)]
    assert not any("\u2019" in memory for memory in kept)
    assert any(memory.startswith("Ben is flying to Lisbon") for memory in kept)
    assert 'Ben has been reading "Dune" all month.' in kept


def test_user_and_assistant_headings_and_paragraphs() -> None:
    """Headings and bold labels mark turns; only the user's words are evidence."""
    text = (
        "## User\n\nI maintain the billing service.\n\n"
        "## Assistant\n\nI maintain nothing, I am an assistant.\n\n"
        "**User:** Our staging cluster runs in Frankfurt.\n"
    )
    assert [t for _, t in memories(text)] == [
        "The user maintains the billing service.",
        "The user's staging cluster runs in Frankfurt.",
    ]


@pytest.mark.parametrize(
    "content",
    ["I deploy on Fridays at 16:00.", [{"type": "text", "text": "I deploy on Fridays at 16:00."}]],
    ids=["string", "blocks"],
)
def test_json_list_of_role_content_messages(content: object) -> None:
    """A JSON list of {role, content} messages: user messages are the user's turns."""
    text = json.dumps(
        [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": content},
            {"role": "assistant", "content": "I deploy whenever you like."},
        ]
    )
    assert memories(text) == [("user", "The user deploys on Fridays at 16:00.")]


def test_json_that_is_not_messages_is_read_as_text() -> None:
    """A JSON list of something else is just text; nothing crashes."""
    assert speaker_paragraphs("[1, 2, 3]") == [("", ["[1, 2, 3]"])]


def test_you_is_the_listener_in_a_chat_between_people() -> None:
    """ "you" is the other person, never "the agent", and a speaker label never leaks in."""
    text = "Ines: I finally read the book your sister lent me.\nOmar: Glad!\n" * 2
    assert memories(text) == [("Ines", "Ines finally read the book Omar's sister lent them.")]


def test_rules_choose_whose_words_count(tmp_path: Path) -> None:
    """A gather rule on ``speaker`` keeps one person's facts (default: every human's)."""
    repo = MemoryRepo.init(tmp_path / "m")
    ruleset = load_ruleset(
        "extends: default\ngather:\n  - name: only-ada\n    when: \"speaker != 'Ada'\"\n"
    )
    DreamEngine(repo, now=NOW).log_session(
        "Ada: I keep bees in Lyon.\nBruno: I keep goats in Graz.\nAda: Ok.\nBruno: Ok."
    )
    record = dream(repo, now=NOW + timedelta(hours=2), force=True, ruleset=ruleset)
    texts = [m.text for m in DreamEngine(repo, now=NOW).memories()]
    assert "Ada keeps bees in Lyon." in texts
    assert not any("goats" in t for t in texts)
    assert any(d.get("reason") == "rejected by rule only-ada" for d in record["decisions"])
