"""The English rules as an :class:`~dreamgit.extract.extractor.Extractor`.

It calls :func:`~dreamgit.dream.gather.extract.extract_candidates` on the session's text:
a user's and each named person's turns, the explicit patterns and the clauses of
English sentences; text that is not English is kept as said, with its speaker and date.
The unmarked lines of a session the agent wrote (an OpenClaw daily note) stay the
agent's. Deterministic: the same session and context give the same candidates.
"""

from __future__ import annotations

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.extract.extractor import Extraction, ExtractionContext
from dreamgit.model import AGENT_WRITTEN, Session

__all__ = ["RulesExtractor"]


class RulesExtractor:
    """Today's English rules, asked through the one extractor interface."""

    name = "rules"

    def extract(self, session: Session, context: ExtractionContext) -> Extraction:
        """The statements the rules find in ``session``."""
        return Extraction(
            extract_candidates(
                session.text,
                session_id=session.id,
                created=session.created,
                user_name=context.user_name,
                author="agent" if AGENT_WRITTEN in session.tags else "user",
                language=context.language,
            )
        )
