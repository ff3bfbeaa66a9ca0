"""The Python API's front door: :class:`DreamEngine` over a :class:`MemoryRepo`.

Every method is a thin call into the module that does the work, so the
command line and library users share one implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dreamgit.clock import utcnow
from dreamgit.model import Memory, Session
from dreamgit.records import RunRecord
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

if TYPE_CHECKING:
    from dreamgit.llm.base import LLMAdapter

__all__ = ["DreamEngine"]


class DreamEngine:
    """Log sessions, add and forget memories, and dream, on one memory repository.

    ``now`` fixes the clock for every call (reproducible runs); without it the
    wall clock is read at each call. ``llm`` (an adapter, or a registered
    adapter's name) lets a model propose during dreams; without it the
    repository's config decides, and without that dreams are deterministic.
    """

    def __init__(
        self,
        repo: MemoryRepo,
        *,
        now: datetime | None = None,
        llm: LLMAdapter | str | None = None,
    ) -> None:
        self.repo = repo
        self._now = now
        self.llm = llm

    def now(self) -> datetime:
        """The time this engine treats as now."""
        return self._now or utcnow()

    def log_session(self, text: str, *, summary: str = "", tags: Sequence[str] = ()) -> Session:
        """Record a session transcript; returns it with its id."""
        return operations.log_session(self.repo, text, summary=summary, tags=tags, now=self.now())

    def add_memory(
        self,
        text: str,
        *,
        topic: str,
        priority: str = "normal",
        tags: Sequence[str] = (),
        key: str | None = None,
        type: str = "user",
    ) -> Memory:
        """Add a memory by hand; returns it with its id."""
        return operations.add_memory(
            self.repo,
            text,
            topic=topic,
            priority=priority,
            tags=tags,
            key=key,
            type=type,
            now=self.now(),
        )

    def forget(self, *ids: str) -> list[Memory]:
        """Remove memories from the active set (restorable)."""
        return operations.forget(self.repo, ids, now=self.now())

    def restore(self, memory_id: str) -> Memory:
        """Bring a memory back from history."""
        return operations.restore(self.repo, memory_id, now=self.now())

    def memories(self, topic: str | None = None) -> list[Memory]:
        """Active memories, optionally of one topic."""
        return self.repo.memories(now=self.now(), topic=topic)

    def dream(self, *, force: bool = False, merge: bool = True) -> RunRecord:
        """Run a dream cycle; returns the run record (what ``run --json`` prints)."""
        from dreamgit.dream.run import dream

        return dream(self.repo, now=self.now(), force=force, merge=merge, llm=self.llm)

    def review(self, *, force: bool = False) -> RunRecord:
        """The operations a dream would apply now, without writing anything."""
        from dreamgit.dream.run import dream

        return dream(self.repo, now=self.now(), force=force, apply=False, llm=self.llm)

    def status(self) -> dict[str, Any]:
        """The status report (as ``status --json``)."""
        from dreamgit.dream.status import repo_status

        return repo_status(self.repo, now=self.now())
