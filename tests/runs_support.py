"""A memory repository with three dream runs between agent writes, for history, revert and diff.

Everything happens at fixed times, so commit ids, run ids and therefore the
golden files are the same on every machine.
"""

from __future__ import annotations

import copy
import os
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.run import dream
from dreamgit.history.memdiff import memory_state
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW

GOLDEN = Path(__file__).parent / "golden"


def at(days: int, hours: int = 0) -> datetime:
    """``days`` and ``hours`` after the tests' NOW."""
    return NOW + timedelta(days=days, hours=hours)


@dataclass
class Scenario:
    """The repository and the three run records, oldest first."""

    repo: MemoryRepo
    runs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def path(self) -> Path:
        """Where git commands should run."""
        return self.repo.store.workdir or self.repo.store.git_dir


def dream_at(repo: MemoryRepo, when: datetime, **kwargs: Any) -> dict[str, Any]:
    """One forced dream at ``when`` that must do something."""
    record = dream(repo, now=when, force=True, **kwargs)
    assert record["run_id"], record
    return record


def three_runs(root: Path, *, bare: bool = False) -> Scenario:
    """Run 1 reinforces and adds; agent writes; run 2 adds; agent writes; run 3 adds."""
    repo = MemoryRepo.init(root, bare=bare, now=NOW)
    scenario = Scenario(repo)
    operations.add_memory(repo, "Prefers pytest over unittest", topic="preferences", now=NOW)
    operations.log_session(
        repo, "User: I prefer pytest over unittest for tests.\nUser: My name is Ada.", now=NOW
    )
    scenario.runs.append(dream_at(repo, at(1)))
    operations.add_memory(repo, "Deploys on Fridays", topic="work", now=at(1, 1))
    operations.log_session(repo, "User: I prefer tabs over spaces.", now=at(1, 2))
    scenario.runs.append(dream_at(repo, at(2)))
    operations.add_memory(repo, "Reviews pull requests in the morning", topic="work", now=at(2, 1))
    operations.log_session(repo, "User: I prefer dark mode over light mode.", now=at(2, 2))
    scenario.runs.append(dream_at(repo, at(3)))
    return scenario


_BUILT: dict[bool, tuple[Path, list[dict[str, Any]]]] = {}


def cached_three_runs(
    factory: pytest.TempPathFactory, root: Path, *, bare: bool = False
) -> Scenario:
    """:func:`three_runs` built once per test session, copied to ``root`` for each test."""
    if bare not in _BUILT:
        built = three_runs(factory.mktemp("three-runs") / "mem", bare=bare)
        _BUILT[bare] = (built.path, built.runs)
    source, runs = _BUILT[bare]
    shutil.copytree(source, root, symlinks=True)
    return Scenario(MemoryRepo.open(root), copy.deepcopy(runs))


def touched_paths(repo: MemoryRepo, commits: list[str]) -> set[str]:
    """Memory files the given commits changed."""
    paths: set[str] = set()
    for commit in commits:
        paths.update(c.path for c in repo.store.changed_paths(commit))
    return {p for p in paths if p.startswith("memories/")}


def state_of(repo: MemoryRepo, commit: str | None, paths: set[str]) -> dict[str, Any]:
    """The parsed memories at ``commit`` whose files are among ``paths``."""
    state, broken = memory_state(repo, commit, now=NOW)
    assert not broken
    return {i: m for i, m in state.items() if m["path"] in paths}


def check_golden(name: str, text: str) -> None:
    """Compare with tests/golden/<name>; DREAMGIT_UPDATE_GOLDEN=1 rewrites the file."""
    path = GOLDEN / name
    if os.environ.get("DREAMGIT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
