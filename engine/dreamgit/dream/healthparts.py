"""The health figures' parts that need no git: what each part computes from what was read.

:mod:`dreamgit.dream.health` reads a commit (its memories, the sessions dreams read,
``MEMORY.md``, the recall counters) and :mod:`dreamgit.dream.leanstatus` reads the same
values kept for a commit; both turn them into the report here, so the two cannot word or
round a part differently. Nothing here imports git or the rule loader: the lean status
runs without either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from dreamgit.model import Memory
from dreamgit.ruleset.context import LazyMemoryEnv, concept_words

__all__ = [
    "MOVING_NAMES",
    "RECENT_SESSIONS",
    "Figures",
    "Judged",
    "is_stale",
    "recent_read",
    "report_from",
    "words_key",
]

#: How many of the latest read sessions the yield looks at.
RECENT_SESSIONS = 20

#: Names whose value changes with the time of asking or with the recall counters, not
#: with the memory's file alone: a prune verdict that read none of them holds for good.
MOVING_NAMES = frozenset({"age", "idle", "valid_from", "since_day", "recall", "recalls"})


class Judged(Protocol):
    """A prune rule as health asks it: its condition (a ``Rule`` is one)."""

    @property
    def when(self) -> Any:
        """The compiled condition (``evaluate(env)`` → bool)."""


@dataclass(frozen=True)
class Figures:
    """What health reads of the active memories: how many, the sessions they name as
    sources, how many repeat another's content words, how many unprotected ones there
    are and how many of those a prune rule would retire now."""

    count: int
    sourced: set[str]
    duplicates: int
    candidates: int
    stale: int


def words_key(memory: Memory) -> str:
    """A memory's content words (case and punctuation aside) as one comparable string."""
    return "\x1f".join(sorted(concept_words(memory.text)))


def is_stale(memory: Memory, prunable: Sequence[Judged], now: datetime, tracked: bool) -> bool:
    """Whether a prune rule would retire ``memory`` now."""
    env = LazyMemoryEnv(memory, now, recalls_recorded=tracked)
    return any(r.when.evaluate(env) for r in prunable)


def report_from(
    figures: Figures,
    *,
    read: Sequence[str],
    index_chars: int,
    budget: int,
    totals: dict[str, int],
) -> dict[str, Any]:
    """``{"score": 0..1 or None, "parts": {name: 0..1}}`` from the memories' figures,
    the sessions dreams read (oldest first), ``MEMORY.md``'s length, its budget and the
    recall totals."""
    parts: dict[str, float] = {}
    if read:
        recent = read[-RECENT_SESSIONS:]
        parts["yield"] = sum(s in figures.sourced for s in recent) / len(recent)
    if figures.count:
        parts["duplicates"] = 1 - figures.duplicates / figures.count
        if figures.candidates:
            parts["stale"] = 1 - figures.stale / figures.candidates
    parts["index"] = 1.0 if index_chars <= budget else budget / index_chars
    if totals["recalls"]:
        parts["recall_hits"] = totals["with_hits"] / totals["recalls"]
    score = round(sum(parts.values()) / len(parts), 3) if parts else None
    return {"score": score, "parts": {k: round(v, 3) for k, v in parts.items()}}


def recent_read(read: Iterable[str]) -> list[str]:
    """The read sessions the yield looks at (the latest :data:`RECENT_SESSIONS`)."""
    return list(read)[-RECENT_SESSIONS:]
