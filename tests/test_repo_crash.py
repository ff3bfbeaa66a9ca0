"""A writer killed at any moment never leaves main broken, and the next command works."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git, tree_files


def _write_forever(path: str, run: int) -> None:
    """The writer: log, add and sometimes forget, until it is killed."""
    repo = MemoryRepo.open(path)
    i = 0
    while True:
        i += 1
        operations.log_session(repo, f"session {run}-{i}", now=NOW)
        memory = operations.add_memory(repo, f"fact {run}-{i}", topic="crash", now=NOW)
        if i % 3 == 0:
            operations.forget(repo, [memory.id], now=NOW)


def _kill_writer_at_random(path: Path, run: int, rng: random.Random) -> None:
    # Forked, so the writer starts at once (no imports) and the kill lands mid-work.
    proc = multiprocessing.get_context("fork").Process(
        target=_write_forever, args=(str(path), run), daemon=True
    )
    proc.start()
    time.sleep(rng.uniform(0.005, 0.15))
    assert proc.is_alive(), proc.exitcode
    assert proc.pid is not None
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()


def _check_intact(path: Path) -> MemoryRepo:
    fsck(path)
    git(path, "ls-tree", "-r", "main")
    repo = MemoryRepo.open(path)
    snapshot = repo.snapshot(now=NOW)
    assert snapshot.broken == []
    return repo


@pytest.mark.slow
@pytest.mark.parametrize("bare", [True, False], ids=["bare", "worktree"])
def test_writer_killed_at_random_moments_never_breaks_main(
    tmp_path: Path, bare: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 SIGKILLs at seeded random moments: main stays a sound commit and writing goes on."""
    # A lock the killed writer left is broken by the next command; wait less for it here.
    monkeypatch.setattr("dreamgit.gitstore.locks.STALE_LOCK_SECONDS", 0.3)
    # A ref lock has no owner (libgit2 makes it), so it counts as git's: pretend time passed.
    monkeypatch.setattr("dreamgit.gitstore.locks.GIT_LOCK_STALE_SECONDS", 0.3)
    path = tmp_path / "mem"
    MemoryRepo.init(path, bare=bare, now=NOW)
    rng = random.Random(20261122)
    for run in range(20):
        _kill_writer_at_random(path, run, rng)
        repo = _check_intact(path)
        before = int(git(path, "rev-list", "--count", "main"))
        memory = operations.add_memory(repo, f"after kill {run}", topic="after", now=NOW)
        assert repo.get_memory(memory.id, now=NOW).text == f"after kill {run}"
        assert int(git(path, "rev-list", "--count", "main")) == before + 1
        if not bare:  # the work tree caught up, and nothing was taken for a hand edit
            assert git(path, "status", "--porcelain") == ""
    assert not [s for s in git(path, "log", "--format=%s").splitlines() if "agent" in s]
    if not bare:
        for file in tree_files(path):
            assert (path / file).read_bytes() == repo.store.read_path(repo.tip(), file)
