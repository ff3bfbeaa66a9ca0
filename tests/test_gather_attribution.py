"""Whose words: pronouns rewritten for the speaker and the listener, verbs agreeing."""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.gather.extract import extract_candidates

_WHEN = datetime(2031, 6, 3, 8, 0, tzinfo=UTC)


def _texts(text: str, **kw: object) -> list[str]:
    found = extract_candidates(text, session_id="s-1", created=_WHEN, **kw)  # type: ignore[arg-type]
    return [c.text for c in found]


def test_the_agent_speaking_of_itself_is_it_never_they() -> None:
    """In an agent's own note, its later "I" and "my" are "it" and "its", the verb agreeing."""
    note = (
        "- I switched my nightly summary to plain text files in March.\n"
        "- I moved my scratch files to the second disk and I check them myself every week.\n"
    )
    assert _texts(note, author="agent") == [
        "The agent switched its nightly summary to plain text files in March.",
        "The agent moved its scratch files to the second disk and it checks them itself"
        " every week.",
    ]


def test_you_as_a_subject_becomes_the_agent_with_its_verb_agreeing() -> None:
    """ "if you see", "make sure you never run": the agent is the subject, the verb agrees."""
    said = (
        "Next time, if you see that the ticket already exists, tell me first.\n"
        "Make sure you never run the seed script twice.\n"
    )
    texts = _texts(said)
    assert any("if the agent sees that the ticket already exists" in t for t in texts), texts
    assert any("the agent never runs the seed script twice" in t for t in texts), texts


def test_a_first_word_written_in_capitals_stays_as_written_after_says() -> None:
    """ "MUST NOT …" reported as the user's is never "mUST NOT …", even where the session
    writes the word in lower case too; a common word is lowered."""
    said = _texts(
        "User: reviews must wait for approval.\n\nAssistant: ok\n\n"
        "User: MUST NOT post reviews to the tracker without approval.\n"
    )
    assert said[-1] == "The user says MUST NOT post reviews to the tracker without approval."
    assert _texts("User: The deploy runs at noon.") == ["The user says the deploy runs at noon."]
