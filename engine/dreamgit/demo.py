"""``dreamgit demo``: a memory repository with sample data, one dream, and what it did.

The sample memories and sessions ship inside the package (``dreamgit.demo_data``).
Times are fixed, so the demo gives the same commits on every machine; no LLM
and no network are involved.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from dreamgit.dream.run import dream
from dreamgit.errors import UserError
from dreamgit.records import RunRecord
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

__all__ = ["DEMO_START", "DemoResult", "build_demo"]

#: When the demo's first memory is written; each session follows a day later.
DEMO_START = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class DemoResult:
    """The demo repository and the record of its dream."""

    repo: MemoryRepo
    record: RunRecord
    dreamed_at: datetime


def _sample_memories() -> list[dict[str, Any]]:
    text = files("dreamgit.demo_data").joinpath("memories.yaml").read_text(encoding="utf-8")
    loaded = YAML(typ="safe").load(text)
    return list(loaded)


def _sample_sessions() -> Iterator[str]:
    folder = files("dreamgit.demo_data")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith("session-") and entry.name.endswith(".md"):
            yield entry.read_text(encoding="utf-8")


def build_demo(path: Path) -> DemoResult:
    """Create the demo repository at ``path`` (which must not hold anything yet) and dream."""
    if path.exists() and any(path.iterdir()):
        raise UserError(
            f"{path} already exists and is not empty",
            hint=f"remove it (rm -rf {path}) or give the demo another path",
        )
    repo = MemoryRepo.init(path, now=DEMO_START)
    for item in _sample_memories():
        operations.add_memory(
            repo,
            item["text"],
            topic=item["topic"],
            priority=item.get("priority", "normal"),
            key=item.get("key"),
            tags=item.get("tags", ()),
            now=DEMO_START,
        )
    when = DEMO_START
    for transcript in _sample_sessions():
        when += timedelta(days=1)
        operations.log_session(repo, transcript, now=when)
    dreamed_at = when + timedelta(hours=20)
    record = dream(repo, now=dreamed_at, force=True)
    return DemoResult(repo, record, dreamed_at)
