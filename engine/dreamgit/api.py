"""The Python API's front door: :class:`DreamEngine` over a :class:`MemoryRepo`.

Every method is a thin call into the module that does the work, so the
command line and library users share one implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamgit.clock import utcnow
from dreamgit.dream.reindex import renderer
from dreamgit.model import Memory, Session
from dreamgit.records import DreamResult
from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo

if TYPE_CHECKING:
    from dreamgit.llm.base import LLMAdapter
    from dreamgit.recall.promotion import Explained
    from dreamgit.recall.query import RecallQuery
    from dreamgit.recall.search import RecallResult

__all__ = ["DreamEngine", "DreamResult"]


class DreamEngine:
    """Log sessions, add and forget memories, and dream, on one memory repository.

    ``now`` fixes the clock for every call (reproducible runs); without it the
    wall clock is read at each call. ``repo`` is a :class:`MemoryRepo` or the path of
    one (``DreamEngine("./agent-memory")``). ``llm`` (an adapter, or a registered
    adapter's name) lets a model propose during dreams; without it the
    repository's config decides, and without that dreams are deterministic.
    """

    def __init__(
        self,
        repo: MemoryRepo | str | Path,
        *,
        now: datetime | None = None,
        llm: LLMAdapter | str | None = None,
    ) -> None:
        self._now = now
        # MEMORY.md follows add, forget and restore in the same commit.
        if isinstance(repo, MemoryRepo):
            repo.render_index_with(renderer(self.now))
        else:
            repo = MemoryRepo.open(repo, index=renderer(self.now))
            repo.require_initialised()
        self.repo = repo
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
        topic: str,
        *,
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

    def restore(
        self, memory_id: str, *, version: int | None = None, commit: str | None = None
    ) -> Memory:
        """Bring a memory back from history: the latest removed version, version N
        (1 = the oldest removal), or the one commit ``commit`` holds."""
        return restoring.restore(
            self.repo, memory_id, now=self.now(), version=version, commit=commit
        )

    def memories(self, topic: str | None = None) -> list[Memory]:
        """Active memories, optionally of one topic."""
        return self.repo.memories(now=self.now(), topic=topic)

    def dream(self, *, force: bool = False, merge: bool = True) -> DreamResult:
        """Run a dream cycle; returns the run record (what ``run --json`` prints).

        A dream the gate skips is not an error: check ``result.skipped`` and
        ``result.reason`` (or pass ``force=True`` to dream anyway). A dream that breaks
        a memory test that passes on main is left for review: ``result["tests"]["held"]``.
        """
        from dreamgit.dream.run import dream
        from dreamgit.report.gate import memory_gate

        record = dream(
            self.repo, now=self.now(), force=force, merge=merge, llm=self.llm, check=memory_gate
        )
        return DreamResult.from_record(record)

    def review(self, *, force: bool = False) -> DreamResult:
        """The operations a dream would apply now, without writing anything."""
        from dreamgit.dream.run import dream

        record = dream(self.repo, now=self.now(), force=force, apply=False, llm=self.llm)
        return DreamResult.from_record(record)

    def status(self) -> dict[str, Any]:
        """The status report (as ``status --json``)."""
        from dreamgit.dream.status import repo_status

        return repo_status(self.repo, now=self.now())

    def recall(self, query: str | RecallQuery, **options: Any) -> RecallResult:
        """Active memories that answer ``query``, weighted by the rules, grouped and cut to
        ``top_k`` items or ``chars`` characters; leaves a recall signal unless ``record``
        is False (or the rules say ``recall: {record: false}``). ``options`` are
        :class:`~dreamgit.recall.query.RecallQuery`'s (``top_k``, ``chars``, ``topic``,
        ``type``, ``scope``, ``record``), for a query given as text."""
        from dreamgit.recall.query import RecallQuery
        from dreamgit.recall.search import recall

        if isinstance(query, str):
            query = RecallQuery(query, **options)
        elif options:
            raise TypeError("give recall's options in the RecallQuery, not beside it")
        return recall(self.repo, query, now=self.now())

    def forget_matching(
        self,
        *,
        match: str | None = None,
        regex: bool = False,
        older_than: str | None = None,
        topic: str | None = None,
        session: str | None = None,
        dry_run: bool = False,
    ) -> tuple[list[Memory], list[Memory]]:
        """Forget every memory the pattern picks out, in one commit: (forgotten, protected)."""
        from dreamgit.recall.forgetting import ForgetFilter, forget_matching

        spec = ForgetFilter.written(
            match=match, regex=regex, older_than=older_than, topic=topic, session=session
        )
        return forget_matching(self.repo, spec, now=self.now(), dry_run=dry_run)

    def promote(self, *, apply: bool = False, limit: int | None = None) -> list[Explained]:
        """The promotions the rules make now; with ``apply``, made (one commit each)."""
        from dreamgit.recall import promotion

        if apply:
            done = promotion.apply_promotions(self.repo, now=self.now(), limit=limit)
            return [item for item, _commit in done]
        return promotion.plan_promotions(self.repo, now=self.now(), limit=limit)
