"""What an LLM sees of a session and how its proposals are made to read like ours.

With a model configured, the gather prompt receives the same turns, speakers and
session date the deterministic statements come from (:func:`session_turns`), and
each proposal meets the same rules afterwards (:func:`as_statement`): relative
dates are resolved against the session's time, a memory written in the old
subjectless style names its subject, and it gets a kind the rules can read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dreamgit.dream.gather.dates import resolve_dates
from dreamgit.dream.gather.salience import kind_of
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.extract.calendar_words import day_text
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.names import possessive
from dreamgit.extract.speakers import AGENT, NOBODY, UNMARKED, USER
from dreamgit.model import Session

__all__ = ["LLM_SALIENCE", "as_statement", "session_turns"]

#: A model's proposal passed its confidence gate: it ranks with the explicit statements.
LLM_SALIENCE = 6.0
_LABELS = {USER: "User", AGENT: "Assistant", UNMARKED: "User", NOBODY: "Note"}


def session_turns(session: Session) -> dict[str, Any]:
    """``{"date", "turns": [{"speaker", "text"}]}`` of a session, for the gather prompt."""
    turns = [
        # a person's turn whole, its lines as written: a list of bullets stays a list
        {"speaker": _LABELS.get(speaker, speaker), "text": "\n".join(paragraphs)}
        for speaker, paragraphs in speaker_paragraphs(session.text)
    ]
    return {"date": day_text(session.created.date()), "turns": turns}


def as_statement(candidate: Candidate, *, created: datetime, subject: str) -> Candidate:
    """A model's candidate with absolute dates, a named subject and a kind."""
    text, _ = resolve_dates(candidate.text, created)
    for lead in ("User's ", "The user's "):
        if text.startswith(lead):
            text = possessive(subject) + " " + text[len(lead) :]
    if text.startswith(("User ", "The user ")):
        text = subject + " " + text.split(" ", 2 if text.startswith("The") else 1)[-1]
    return Candidate(
        **{
            **vars(candidate),
            "text": text,
            "kind": kind_of(text, instruction=False),
            "salience": LLM_SALIENCE,
            "subject": subject,
        }
    )
