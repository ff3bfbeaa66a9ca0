"""Benchmark of restore by version over a long history of everyday writes.

Usage: ``python tests/bench/bench_restore.py [N] [--repeat R]`` (default N: 2000).
Builds a bare repository where one id is added (high, tag ``medical``) and
forgotten, then N other memories are added one commit each, then the same text is
added again and forgotten: two removed versions of one id, N commits apart. Times,
as the median of R runs on fresh copies, in milliseconds:

- ``removed_versions`` (what ``show ID --history`` lists);
- ``restore ID`` (the latest version) and ``restore ID --version 1``.

Commits that name other memories are skipped without a diff, so the cost is one
walk of the history, not one diff per commit.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.versions import removed_versions

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
TEXT = "Allergic to penicillin"


def build(path: Path, n: int) -> str:
    """The repository described above; returns the reused id."""
    repo = MemoryRepo.init(path, bare=True, now=NOW)
    first = operations.add_memory(
        repo, TEXT, topic="health", priority="high", tags=["medical"], now=NOW
    )
    operations.forget(repo, [first.id], now=NOW)
    for i in range(n):
        when = NOW + timedelta(minutes=i)
        operations.add_memory(repo, f"fact {i} about topic {i % 17}", topic=f"t{i % 7}", now=when)
    operations.add_memory(repo, TEXT, topic="health", now=NOW + timedelta(days=30))
    operations.forget(repo, [first.id], now=NOW + timedelta(days=30))
    return first.id


def timed(source: Path, action: Callable[[MemoryRepo], object], repeat: int) -> float:
    """Median milliseconds of ``action`` on a fresh copy of ``source`` each time."""
    samples = []
    for k in range(repeat):
        copy = source.with_name(f"copy-{k}")
        shutil.copytree(source, copy)
        repo = MemoryRepo.open(copy)
        start = time.perf_counter()
        action(repo)
        samples.append((time.perf_counter() - start) * 1000)
        shutil.rmtree(copy)
    return statistics.median(samples)


def main() -> None:
    """Build, time, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("n", nargs="?", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "mem.git"
        start = time.perf_counter()
        ident = build(source, args.n)
        print(f"built {args.n + 4} commits in {time.perf_counter() - start:.1f} s")
        figures = {
            "removed_versions": lambda r: removed_versions(r, ident, now=NOW),
            "restore (latest)": lambda r: restoring.restore(r, ident, now=NOW),
            "restore --version 1": lambda r: restoring.restore(r, ident, now=NOW, version=1),
        }
        for name, action in figures.items():
            print(f"{name:<22} {timed(source, action, args.repeat):8.1f} ms")


if __name__ == "__main__":
    main()
