"""Recall signals on disk: the local spool, the committed batches and the folded counters.

A recall must not cost a commit, must not block on other recallers or writers
and must reach wherever the dream runs. So a signal goes three steps:

1. ``spool_signal`` writes it as one small file in ``<git dir>/dreamgit/recalls/``
   (written aside, then renamed into place: a reader never sees half a signal);
2. the next dreamgit writer of main (``MemoryRepo.advance_main``, under the
   writers' turn) commits the spooled signals as one batch file
   ``.dreamgit/recalls/<hash>.jsonl`` and only then deletes the spool files, so
   the batch travels with every push and clone of main;
3. a dream folds the committed batches into ``.dreamgit/recall-counters.json``
   and removes them, in one commit (``recall.fold``).

The counters file remembers which batches it folded (for a week), so a batch
committed twice (a writer killed between its commit and deleting the spool)
is still counted once.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import format_time, parse_time
from dreamgit.model import RecallStats

__all__ = [
    "batch_name",
    "parse_counters",
    "parse_totals",
    "read_spool",
    "spool_dir",
    "spool_signal",
    "stats_from_dict",
    "stats_to_dict",
]


def spool_dir(git_dir: Path) -> Path:
    """Where this clone keeps recall signals not yet committed."""
    return git_dir / "dreamgit" / "recalls"


def spool_signal(git_dir: Path, signal: dict[str, Any], *, now: datetime) -> Path:
    """Write one signal to the spool; safe with any number of concurrent recallers."""
    folder = spool_dir(git_dir)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{now:%Y%m%dT%H%M%S%f}-{os.getpid()}-{secrets.token_hex(4)}.json"
    tmp = folder / f".{name}.tmp"
    tmp.write_text(json.dumps(signal, sort_keys=True), encoding="utf-8")
    final = folder / name
    os.replace(tmp, final)
    return final


def read_spool(git_dir: Path) -> list[tuple[Path, bytes]]:
    """The complete spooled signals, oldest first: (file, one JSON line)."""
    folder = spool_dir(git_dir)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        path = folder / name
        try:
            data = path.read_bytes().strip()
            json.loads(data)
        except (OSError, ValueError):
            continue  # gone meanwhile (another writer took it) or not ours
        found.append((path, data + b"\n"))
    return found


def batch_name(lines: list[bytes]) -> str:
    """The committed file name of a batch of signal lines: a hash of its content."""
    return hashlib.sha1(b"".join(lines)).hexdigest()[:20] + ".jsonl"


def stats_to_dict(stats: RecallStats) -> dict[str, Any]:
    """Counters as JSON values."""
    return {
        "count": stats.count,
        "queries": list(stats.queries),
        "days": list(stats.days),
        "first": format_time(stats.first) if stats.first else None,
        "last": format_time(stats.last) if stats.last else None,
        "total_score": round(stats.total_score, 6),
        "max_score": round(stats.max_score, 6),
    }


def stats_from_dict(data: dict[str, Any]) -> RecallStats:
    """Counters from their JSON form (missing fields are zero)."""
    first, last = data.get("first"), data.get("last")
    return RecallStats(
        count=int(data.get("count", 0)),
        queries=tuple(str(q) for q in data.get("queries", ())),
        days=tuple(str(d) for d in data.get("days", ())),
        first=parse_time(first) if isinstance(first, str) else None,
        last=parse_time(last) if isinstance(last, str) else None,
        total_score=float(data.get("total_score", 0.0)),
        max_score=float(data.get("max_score", 0.0)),
    )


def parse_counters(text: str | None) -> tuple[dict[str, RecallStats], dict[str, str]]:
    """The counters file: memory id → stats, and batch name → day it was folded."""
    if not text:
        return {}, {}
    try:
        doc = json.loads(text)
    except ValueError:
        return {}, {}
    if not isinstance(doc, dict):
        return {}, {}
    memories = doc.get("memories") or {}
    folded = doc.get("folded") or {}
    stats = {str(k): stats_from_dict(v) for k, v in memories.items() if isinstance(v, dict)}
    return stats, {str(k): str(v) for k, v in folded.items()}


def parse_totals(text: str | None) -> dict[str, int]:
    """The counters file's totals: recalls folded, and how many returned a memory."""
    totals = {"recalls": 0, "with_hits": 0}
    try:
        doc = json.loads(text or "{}")
    except ValueError:
        return totals
    found = doc.get("totals") if isinstance(doc, dict) else None
    if isinstance(found, dict):
        for key in totals:
            value = found.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                totals[key] = value
    return totals
