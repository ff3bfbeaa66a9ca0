"""Which extractor reads which session: by the session's language and the ``extract:`` key.

``extract: both`` (the default) asks the English rules about every session and, with a
model configured, the model too. ``extract: by-language`` asks the rules about the
sessions in English and, when a model is configured, the model alone about the others:
the rules would only keep their sentences as said, the model understands them. Without
a model every session goes to the rules, whatever the key says (text that is not
English is then kept as said, with its speaker and date). A session's language is that
of the words its people wrote (not the assistant's, not the harness's), detected as
:mod:`.language` detects it (a short one weighed by langid.py); a session it is unsure
of counts as English, as always.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dreamgit.dream.gather.language import ENGLISH, UNKNOWN, session_language
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.extract.speakers import by_people
from dreamgit.model import Session

__all__ = ["pick_extractors"]


def _people_text(session: Session) -> str:
    return "\n".join(
        "\n".join(paragraphs)
        for speaker, paragraphs in speaker_paragraphs(session.text)
        if by_people(speaker)
    )


def pick_extractors(
    sessions: Sequence[Session], mode: Any, *, model: bool, language: str = UNKNOWN
) -> tuple[list[Session], list[Session]]:
    """The sessions the rules read and those the model reads; ``mode`` is the config's
    ``extract:`` value (checked by ``rules check``: both or by-language), ``language``
    its ``language:``, a session's language when the detectors are unsure of it."""
    if not model:
        return list(sessions), []
    if mode != "by-language":
        return list(sessions), list(sessions)
    rules: list[Session] = []
    other: list[Session] = []
    for session in sessions:
        english = (session_language(_people_text(session)) or language) in (ENGLISH, UNKNOWN)
        (rules if english else other).append(session)
    return rules, other
