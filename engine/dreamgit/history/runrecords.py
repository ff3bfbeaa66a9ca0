"""Run records ``.dreamgit/runs/<run-id>.json``: what each dream did and consumed.

The records on main are the state of the dream loop: which sessions were
already gathered, and when the last dream ran. Keeping that in one file per
run (not one shared state file) means concurrent writers never conflict.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.gitstore import GitStore
from dreamgit.store import layout

__all__ = ["consumed_sessions", "last_run_time", "read_runs", "record_path"]


def record_path(run_id: str) -> str:
    """Where the record of ``run_id`` lives."""
    return f"{layout.RUNS}{run_id}.json"


def read_runs(store: GitStore, commit: str | None) -> list[dict[str, Any]]:
    """Every readable run record at ``commit``, oldest first."""
    records = []
    for path, blob in sorted(store.files(commit, layout.RUNS).items()):
        if not path.endswith(".json"):
            continue
        try:
            record = json.loads(store.read(blob))
        except ValueError:
            continue
        if isinstance(record, dict) and "run_id" in record:
            records.append(record)
    return records


def consumed_sessions(records: list[dict[str, Any]]) -> set[str]:
    """Sessions some run already gathered from."""
    consumed: set[str] = set()
    for record in records:
        consumed.update(record.get("sessions", []))
    return consumed


def last_run_time(records: list[dict[str, Any]]) -> datetime | None:
    """When the newest recorded run ran."""
    times = [parse_time(r["now"], what="a run record's now") for r in records if r.get("now")]
    return max(times) if times else None
