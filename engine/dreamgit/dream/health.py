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

from dreamgit.dream.envs import first_holding_each
from dreamgit.dream.healthparts import (
    MOVING_NAMES,
    RECENT_SESSIONS,
    Figures,
    is_stale,
    report_from,
    words_key,
)
from dreamgit.history.runrecords import consumed_sessions, read_runs
from dreamgit.model import Memory
from dreamgit.recall.fold import recall_tracking
from dreamgit.ruleset import Rule, RuleSet
from dreamgit.ruleset.context import reads_recall_signals
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import parse_totals

__all__ = [
    "MOVING_NAMES",
    "RECENT_SESSIONS",
    "Figures",
    "health_report",
    "is_stale",
    "prunable_rules",
    "read_sessions",
    "recovery_sessions",
    "report_of",
    "words_key",
]


def health_report(
    repo: MemoryRepo,
    rules: RuleSet,
    memories: list[Memory],
    *,
    at: str | None,
    now: datetime,
) -> dict[str, Any]:
    """``{"score": 0..1 or None, "parts": {name: 0..1}}`` for the memory at ``at``."""
    prunable, tracked = prunable_rules(repo, rules, at)
    candidates = [m for m in memories if not rules.is_protected(m)]
    keys = [words_key(m) for m in memories]
    figures = Figures(
        count=len(memories),
        sourced={s for m in memories for s in m.sources},
        duplicates=len(keys) - len(set(keys)),  # those whose words an earlier one has
        candidates=len(candidates),
        stale=_stale(prunable, candidates, now, tracked),
    )
    return report_of(repo, rules, figures, at=at)


def prunable_rules(repo: MemoryRepo, rules: RuleSet, at: str | None) -> tuple[list[Rule], bool]:
    """The prune rules health evaluates at ``at`` (those reading recall signals only where
    recalls are tracked), and whether they are."""
    if not rules.prune:
        return [], False
    tracked = bool(recall_tracking(repo, at)["in_use"])
    return [r for r in rules.prune if tracked or not reads_recall_signals(r)], tracked


def _stale(prunable: list[Rule], candidates: list[Memory], now: datetime, tracked: bool) -> int:
    """How many of ``candidates`` some rule of ``prunable`` retires (:func:`is_stale` for
    each whole memory of a dream), of the rules' values kept for vetting and pruning,
    which evaluate the same ones (``envs.first_holding_each``)."""
    if not prunable:
        return 0
    whens = [rule.when for rule in prunable]
    held = first_holding_each(whens, candidates, now, recalls_recorded=tracked)
    return len(held) - held.count(None)


def report_of(
    repo: MemoryRepo, rules: RuleSet, figures: Figures, *, at: str | None
) -> dict[str, Any]:
    """The report from the memories' figures and what else ``at`` holds: the sessions
    dreams have read, ``MEMORY.md`` and the recall counters."""
    index = repo.read_text(layout.INDEX, at) or ""
    return report_from(
        figures,
        read=read_sessions(repo, at),
        index_chars=len(index),
        budget=rules.budgets.index_chars,
        totals=parse_totals(repo.read_text(layout.RECALL_COUNTERS, at)),
    )


def read_sessions(repo: MemoryRepo, at: str | None) -> list[str]:
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
    chosen = [s for s in reversed(read_sessions(repo, at)) if s not in sourced | reread]
    return chosen[:count]
