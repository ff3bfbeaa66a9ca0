"""A short chat written for the gathering tests, and the memories gathering makes of it.

Noor says the lines under test to Emil on Friday 9 March 2029; Emil's and Noor's
closing lines make it a chat between two people, so "you" is Emil and "I" is Noor.
"""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.gather.extract import extract_candidates

FRIDAY = datetime(2029, 3, 9, 18, 0, tzinfo=UTC)


def said_by_noor(*lines: str) -> list[str]:
    """The memories gathered from Noor's ``lines`` in a chat with Emil."""
    chat = [f"Noor: {line}" for line in lines]
    chat += ["Emil: Oh nice.", "Noor: See you soon.", "Emil: Bye."]
    text = "\n".join(chat)
    return [c.text for c in extract_candidates(text, session_id="s-1", created=FRIDAY)]
