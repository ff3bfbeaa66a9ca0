"""Several processes writing one memory repository at once lose nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git, tree_files

WORKER = """
import sys
from datetime import UTC, datetime, timedelta
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
repo = MemoryRepo.open(path)
start = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
for i in range(count):
    now = start + timedelta(seconds=i)
    operations.log_session(repo, f"worker {worker} session {i}", now=now)
    operations.add_memory(repo, f"worker {worker} fact {i}", topic=f"w{worker}", now=now)
"""


def _run_writers(path: Path, workers: int, count: int) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path), str(w), str(count)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, out + err


def _check_everything_present(repo: MemoryRepo, path: Path, workers: int, count: int) -> None:
    files = tree_files(path)
    assert len([f for f in files if f.startswith("sessions/")]) == workers * count
    texts = sorted(m.text for m in repo.memories(now=NOW))
    assert texts == sorted(f"worker {w} fact {i}" for w in range(workers) for i in range(count))
    assert int(git(path, "rev-list", "--count", "main")) == 1 + 2 * workers * count
    assert int(git(path, "rev-list", "--count", "--merges", "main")) == 0
    fsck(path)


@pytest.mark.slow
def test_four_writers_into_a_bare_repository_lose_nothing(tmp_path: Path) -> None:
    """4 processes x (50 sessions + 50 memories) give 200 + 200 files and 401 commits."""
    path = tmp_path / "mem.git"
    repo = MemoryRepo.init(path, bare=True, now=NOW)
    _run_writers(path, workers=4, count=50)
    _check_everything_present(repo, path, workers=4, count=50)


@pytest.mark.slow
def test_four_writers_into_a_checked_out_work_tree_keep_it_clean(tmp_path: Path) -> None:
    """With main checked out, concurrent writers take turns and every file lands in the tree."""
    path = tmp_path / "mem"
    repo = MemoryRepo.init(path, now=NOW)
    _run_writers(path, workers=4, count=10)
    _check_everything_present(repo, path, workers=4, count=10)
    assert git(path, "status", "--porcelain") == ""
    for file in tree_files(path):
        assert (path / file).read_bytes() == repo.store.read_path(repo.tip(), file)
    subjects = git(path, "log", "--format=%s", "main").splitlines()
    assert not [s for s in subjects if s.startswith("agent edits")]
