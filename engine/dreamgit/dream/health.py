"""The memory's health: one figure from 0 to 1, the mean of measurable parts.

Each part is 0 (bad) to 1 (good), and a part that cannot be measured yet is left
out of the mean rather than guessed:

- ``yield``: of the last 20 sessions a dream has read, the share that some active
  memory names as its source (a session that left nothing may hold something missed);
- ``duplicates``: 1 minus the share of active memories whose content words (case and
  punctuation aside) are exactly those of another active memory (pairs left behind);
- ``stale``: 1 minus the share of unprotected active memories a prune rule would
  retire now (the lifecycle is behind);
- ``index``: 1 when ``MEMORY.md`` is within its character budget, else budget/size;
- ``recall_hits``: the share of recorded recalls that returned at least one memory
  (only where recalls are recorded).

Below ``health.recover_below`` (default 0.5) a dream re-reads up to
``health.recover_sessions`` (default 3) older sessions that yielded no memory and
were never re-read, within the run's limits (OpenClaw's documented recovery).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dreamgit.history.runrecords import consumed_sessions, read_runs
from dreamgit.model import Memory
from dreamgit.recall.fold import recall_tracking
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.context import LazyMemoryEnv, concept_words, reads_recall_signals
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import parse_totals

__all__ = ["RECENT_SESSIONS", "health_report", "recovery_sessions"]

#: How many of the latest read sessions the yield looks at.
RECENT_SESSIONS = 20


def health_report(
    repo: MemoryRepo,
    rules: RuleSet,
    memories: list[Memory],
    *,
    at: str | None,
    now: datetime,
) -> dict[str, Any]:
    """``{"score": 0..1 or None, "parts": {name: 0..1}}`` for the memory at ``at``."""
    parts: dict[str, float] = {}
    read = _read_sessions(repo, at)
    if read:
        recent = read[-RECENT_SESSIONS:]
        sourced = {s for m in memories for s in m.sources}
        parts["yield"] = sum(s in sourced for s in recent) / len(recent)
    if memories:
        seen: set[frozenset[str]] = set()
        dupes = 0
        for m in memories:
            words = frozenset(concept_words(m.text))
            dupes += words in seen
            seen.add(words)
        parts["duplicates"] = 1 - dupes / len(memories)
        tracked = bool(recall_tracking(repo, at)["in_use"])
        prunable = [r for r in rules.prune if tracked or not reads_recall_signals(r)]
        candidates = [m for m in memories if not rules.is_protected(m)]
        if candidates:
            stale = 0
            for m in candidates:
                env = LazyMemoryEnv(m, now, recalls_recorded=tracked)
                stale += any(r.when.evaluate(env) for r in prunable)
            parts["stale"] = 1 - stale / len(candidates)
    index = repo.read_text(layout.INDEX, at) or ""
    budget = rules.budgets.index_chars
    parts["index"] = 1.0 if len(index) <= budget else budget / len(index)
    totals = parse_totals(repo.read_text(layout.RECALL_COUNTERS, at))
    if totals["recalls"]:
        parts["recall_hits"] = totals["with_hits"] / totals["recalls"]
    score = round(sum(parts.values()) / len(parts), 3) if parts else None
    return {"score": score, "parts": {k: round(v, 3) for k, v in parts.items()}}


def _read_sessions(repo: MemoryRepo, at: str | None) -> list[str]:
    """Sessions some dream has read, oldest first."""
    consumed = consumed_sessions(read_runs(repo.store, at))
    return [
        i for i, _p in sorted(repo.session_paths(at).items(), key=lambda kv: kv[1]) if i in consumed
    ]


def recovery_sessions(
    repo: MemoryRepo,
    memories: list[Memory],
    *,
    at: str | None,
    health: float | None,
    below: float,
    count: int,
) -> list[str]:
    """Older sessions to read again because health is low: newest first among those that
    yielded no active memory and were never re-read."""
    if health is None or health >= below or count <= 0:
        return []
    runs = read_runs(repo.store, at)
    reread = {s for r in runs for s in r.get("reread", [])}
    sourced = {s for m in memories for s in m.sources}
    chosen = [s for s in reversed(_read_sessions(repo, at)) if s not in sourced | reread]
    return chosen[:count]
