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

A writer killed between committing a batch and deleting its spool files would
leave them to be committed again: before committing, the writer notes the batch
and its files in a journal (``flushing.journal`` in the spool), and the next
writer first checks the journal: if that batch reached main (or was folded
already, which the counters file remembers for a week), its files are deleted
rather than committed twice. Every signal is counted exactly once.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import format_time, parse_time
from dreamgit.model import Memory, RecallStats

__all__ = [
    "batch_name",
    "begin_flush",
    "finish_flush",
    "parse_counters",
    "parse_totals",
    "read_spool",
    "recover_flush",
    "spool_dir",
    "spool_signal",
    "stats_from_dict",
    "stats_to_dict",
    "with_recalls",
]


def spool_dir(git_dir: Path) -> Path:
    """Where this clone keeps recall signals not yet committed."""
    return git_dir / "dreamgit" / "recalls"


def spool_signal(git_dir: Path, signal: dict[str, Any], *, now: datetime) -> Path:
    """Write one signal to the spool; safe with any number of concurrent recallers."""
    folder = spool_dir(git_dir)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{now:%Y%m%dT%H%M%S%f}-{os.getpid()}-{os.urandom(4).hex()}.json"
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


def _journal(git_dir: Path) -> Path:
    return spool_dir(git_dir) / "flushing.journal"


def begin_flush(git_dir: Path, batch: str, files: list[Path]) -> None:
    """Note, before committing ``batch``, which spool files it holds."""
    journal = _journal(git_dir)
    tmp = journal.with_name(f".{journal.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"batch": batch, "files": [f.name for f in files]}), "utf-8")
    os.replace(tmp, journal)


def finish_flush(git_dir: Path, files: list[Path]) -> None:
    """The batch is on main: delete its spool files, then the journal."""
    for file in files:
        file.unlink(missing_ok=True)
    _journal(git_dir).unlink(missing_ok=True)


def recover_flush(git_dir: Path, landed: Callable[[str], bool]) -> None:
    """Finish a flush a killed writer left: drop its files if ``landed(batch)``."""
    journal = _journal(git_dir)
    try:
        doc = json.loads(journal.read_text(encoding="utf-8"))
        batch, names = str(doc["batch"]), [str(n) for n in doc["files"]]
    except FileNotFoundError:
        return
    except (OSError, ValueError, KeyError, TypeError):
        journal.unlink(missing_ok=True)  # unreadable: the spool files stay, nothing is lost
        return
    if landed(batch):
        finish_flush(git_dir, [spool_dir(git_dir) / n for n in names if "/" not in n])
    else:
        journal.unlink(missing_ok=True)


def batch_name(files: list[Path], lines: list[bytes]) -> str:
    """The committed file name of a batch: a hash of its spool files' names and content.

    The names count: two recalls of the same query in the same second spool the
    same line, and a batch named by its content alone would fold as the other's
    duplicate. A spool file's name (time, pid, random token) is this signal's own.
    """
    import hashlib  # here, not for every recall that spools a signal

    digest = hashlib.sha1()
    for file, line in zip(files, lines, strict=True):
        digest.update(file.name.encode() + b"\0" + line)
    return digest.hexdigest()[:20] + ".jsonl"


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


def with_recalls(memory: Memory, stats: RecallStats | None) -> Memory:
    """``memory`` with its folded recall counters (front-matter recalls plus recorded ones)."""
    if stats is None:
        return memory
    return dataclasses.replace(memory, recall=stats, recalls=memory.recalls + stats.count)
