"""The memory over time: one point per dream run, read from git, for the report's charts.

Each run's figures come from its record (operations by kind, memories before and
after, health, the memory tests) and from the state right after it (its branch's
tip while it has one, else its last commit): active memories per topic, counted
from the topic folders without reading a memory file, and ``MEMORY.md``'s size in
characters and estimated tokens. Most recalled memories come from the recall
counters on main.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.history.memdiff import run_after
from dreamgit.history.runs import RunInfo
from dreamgit.report.tokens import estimate_tokens
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["RunPoint", "most_recalled", "run_points"]

#: Runs the charts show unless told otherwise.
DEFAULT_RUNS = 30


@dataclass(frozen=True)
class RunPoint:
    """One run's figures, as the charts and tables show them."""

    run_id: str
    date: str
    status: str
    memories_before: int | None
    memories_after: int | None
    counts: dict[str, int]
    topics: dict[str, int] = field(default_factory=dict)
    index_chars: int = 0
    index_tokens: int = 0
    health: float | None = None
    tests: dict[str, Any] | None = None

    @property
    def label(self) -> str:
        """A short name for a chart's axis: the run's date and time."""
        return self.date[5:16].replace("T", " ") if len(self.date) >= 16 else self.run_id[:12]

    def to_json(self) -> dict[str, Any]:
        """The point as JSON values."""
        return {
            "run_id": self.run_id,
            "date": self.date,
            "status": self.status,
            "memories_before": self.memories_before,
            "memories_after": self.memories_after,
            "counts": self.counts,
            "topics": self.topics,
            "index_chars": self.index_chars,
            "index_tokens": self.index_tokens,
            "health": self.health,
            "tests": self.tests,
        }


def run_points(
    repo: MemoryRepo, runs: list[RunInfo], *, limit: int = DEFAULT_RUNS
) -> list[RunPoint]:
    """The last ``limit`` runs of ``runs`` (newest first, as ``list_runs`` gives), oldest first."""
    index_path = repo.format.index_path
    points = []
    for run in reversed(runs[:limit]):
        after = run_after(run)
        index = repo.read_text(index_path, after) if after else None
        health = (run.record.get("health") or {}).get("score")
        tests = run.record.get("tests")
        points.append(
            RunPoint(
                run_id=run.run_id,
                date=run.date or "",
                status=run.status,
                memories_before=run.record.get("memories_before"),
                memories_after=run.record.get("memories_after"),
                counts=run.counts,
                topics=repo.store.folder_sizes(after, layout.MEMORIES.rstrip("/"), ".md")
                if after
                else {},
                index_chars=len(index or ""),
                index_tokens=estimate_tokens(index or ""),
                health=float(health) if isinstance(health, int | float) else None,
                tests=tests if isinstance(tests, dict) else None,
            )
        )
    return points


def most_recalled(
    repo: MemoryRepo, *, now: datetime, limit: int = 10
) -> list[tuple[str, str, int]]:
    """``(id, text, recalls)`` of the most recalled active memories on main, most first."""
    counters = repo.recall_counters()
    if not counters:
        return []
    top = sorted(
        ((stats.count, ident) for ident, stats in counters.items() if stats.count > 0),
        key=lambda item: (-item[0], item[1]),
    )
    if not top:
        return []
    texts = {m.id: m.text for m in repo.snapshot(now=now).memories}
    found = [(ident, texts[ident], count) for count, ident in top if ident in texts]
    return found[:limit]
