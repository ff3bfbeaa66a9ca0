"""Folding committed recall signals into each memory's counters, in one commit on main.

A dream calls :func:`fold_signals` after the writers' turn has committed this
clone's spool: the batches under ``.dreamgit/recalls/`` (from this machine or
pushed from any other clone) are added to ``.dreamgit/recall-counters.json``
and removed, atomically by compare-and-swap. Batches already folded (named in
the counters file's ``folded`` list) are removed without being counted again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from dreamgit import trailers as tr
from dreamgit.clock import format_time, parse_time
from dreamgit.model import RecallStats
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import parse_counters, parse_totals, read_spool, stats_to_dict

__all__ = [
    "FoldResult",
    "fold_signals",
    "recall_tracking",
    "recalls_recorded",
    "signals_waiting",
]

#: OpenClaw keeps the newest 16 recall days; distinct queries are kept up to 64.
MAX_DAYS = 16
MAX_QUERIES = 64
#: How long a folded batch's name is remembered (a stray re-commit comes within seconds).
REMEMBER_FOLDED = timedelta(days=7)


@dataclass
class FoldResult:
    """What one fold counted: signals, hits, memories touched, and the commit (or None)."""

    signals: int = 0
    hits: int = 0
    memories: int = 0
    commit: str | None = None


def recalls_recorded(repo: MemoryRepo, at: str | None = None) -> bool:
    """Whether this repository records recalls: it has counters or signals waiting."""
    commit = at if at is not None else repo.tip()
    if repo.store.files(commit, layout.RECALL_SIGNALS):
        return True
    return repo.store.entry_id(commit, layout.RECALL_COUNTERS) is not None


def recall_tracking(repo: MemoryRepo, at: str | None = None) -> dict[str, Any]:
    """Whether recall tracking is in use: the config's ``recall: {tracked: …}`` when set,
    else whether this repository has recorded recalls; with the figures behind it."""
    from dreamgit.recall.settings import load_settings

    recorded = recalls_recorded(repo, at)
    configured = load_settings(repo).tracked_setting
    commit = at if at is not None else repo.tip()
    return {
        "in_use": recorded if configured is None else configured,
        "recorded": recorded,
        "configured": configured,
        "signals_waiting": len(read_spool(repo.store.git_dir))
        + len(repo.store.files(commit, layout.RECALL_SIGNALS)),
        "memories_recalled": len(repo.recall_counters(commit)),
    }


def signals_waiting(repo: MemoryRepo) -> bool:
    """Whether recall signals wait in this clone's spool or in committed batches."""
    if read_spool(repo.store.git_dir):
        return True
    return bool(repo.store.files(repo.tip(), layout.RECALL_SIGNALS))


def fold_signals(repo: MemoryRepo, *, now: datetime) -> FoldResult:
    """Fold every committed signal batch into the counters; one commit, or none."""
    result = FoldResult()

    def build(tip: str | None) -> dict[str, bytes | None]:
        batches = repo.store.files(tip, layout.RECALL_SIGNALS)
        if not batches:
            return {}
        text = repo.read_text(layout.RECALL_COUNTERS, tip)
        counters, folded = parse_counters(text)
        totals = parse_totals(text)
        stats = dict(counters)
        fresh = FoldResult()
        touched: set[str] = set()
        for path, blob in sorted(batches.items()):
            name = path.rsplit("/", 1)[1]
            if name in folded:
                continue
            for line in repo.store.read(blob).decode("utf-8", "replace").splitlines():
                signal = _parse(line)
                if signal is None:
                    continue
                at, query, hits = signal
                fresh.signals += 1
                totals["recalls"] += 1
                totals["with_hits"] += bool(hits)
                for ident, relevance in hits:
                    stats[ident] = _add(stats.get(ident), at, query, relevance)
                    touched.add(ident)
                    fresh.hits += 1
            folded[name] = at_day(now)
        fresh.memories = len(touched)
        result.signals, result.hits, result.memories = fresh.signals, fresh.hits, fresh.memories
        cutoff = at_day(now - REMEMBER_FOLDED)
        doc = {
            "version": 1,
            "totals": totals,
            "memories": {k: stats_to_dict(v) for k, v in sorted(stats.items())},
            "folded": {k: v for k, v in sorted(folded.items()) if v >= cutoff},
        }
        changes: dict[str, bytes | None] = dict.fromkeys(batches)
        changes[layout.RECALL_COUNTERS] = (json.dumps(doc, indent=1) + "\n").encode("utf-8")
        return changes

    def message() -> str:
        return (
            f"recall: fold {result.signals} signal(s) into the counters of "
            f"{result.memories} memories\n\n"
            + tr.trailers(
                (tr.PHASE, "recall"), (tr.OP, "recall-fold"), (tr.SIGNALS, result.signals)
            )
        )

    result.commit = repo.commit_main(message, build, now=now)
    return result


def at_day(when: datetime) -> str:
    """The UTC day of a time, as ``YYYY-MM-DD``."""
    return format_time(when)[:10]


def _parse(line: str) -> tuple[datetime, str, list[tuple[str, float]]] | None:
    """One signal line, or None when it is not one (a bad line is skipped, not fatal)."""
    try:
        doc = json.loads(line)
        at = parse_time(str(doc["at"]), what="signal time")
        hits = [(str(h[0]), max(0.0, min(1.0, float(h[1])))) for h in doc["hits"]]
        return at, str(doc["query"]), hits
    except (ValueError, KeyError, TypeError, IndexError, Exception):
        return None


def _add(old: RecallStats | None, at: datetime, query: str, relevance: float) -> RecallStats:
    old = old or RecallStats()
    queries = [q for q in old.queries if q != query] + [query]
    days = sorted({*old.days, at_day(at)})
    return RecallStats(
        count=old.count + 1,
        queries=tuple(queries[-MAX_QUERIES:]),
        days=tuple(days[-MAX_DAYS:]),
        first=min(old.first, at) if old.first else at,
        last=max(old.last, at) if old.last else at,
        total_score=old.total_score + relevance,
        max_score=max(old.max_score, relevance),
    )
