"""The one interface every extractor meets: a session's turns and context in, candidates out.

Gathering asks each extractor it picked (``dream/gather/choice.py``) about each new
session, oldest first: the English rules (``dream/gather/rules_extractor.py``) and, with a
model configured, the model under the pydantic contract (``LLMExtractor`` in
``dream/llm_phase.py``). An
extractor returns candidate statements; whether they become memories (gather rules,
budget, duplicates, injection checks) is decided by gathering, the same for every
extractor. An extractor that could not ask (over the run's model budget) says so, and
its session stays pending for the next run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dreamgit.extract.candidate import Candidate
from dreamgit.model import Memory, Session

__all__ = ["Extraction", "ExtractionContext", "Extractor"]


@dataclass(frozen=True)
class ExtractionContext:
    """What an extractor knows besides the session.

    ``user_name`` is whom "the user" names once memory knows it; ``known`` the memories
    memory holds (the model is shown them so it does not repeat them); ``max_adds`` how
    many statements the run may still add; ``language`` the repository's ``language:``
    (a session's language when the detectors are unsure of it; "" when not set).
    """

    user_name: str | None = None
    known: Sequence[Memory] = ()
    max_adds: int = 0
    language: str = ""


@dataclass
class Extraction:
    """The candidates an extractor found in one session, or that it could not ask."""

    candidates: list[Candidate] = field(default_factory=list)
    deferred: bool = False


class Extractor(Protocol):
    """Turns a session's turns into candidate statements."""

    @property
    def name(self) -> str:
        """``rules`` or ``llm``: the run record's ``pattern``/source of what it found."""
        ...

    def extract(self, session: Session, context: ExtractionContext) -> Extraction:
        """The candidates of ``session``; never raises on any session text."""
        ...
