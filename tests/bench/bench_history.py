"""Benchmark of time and privacy over a long history: lineage, as-of views, redaction.

Usage: ``python tests/bench/bench_history.py [N] [--runs R] [--ops K]`` (defaults:
10,000 memories, 1,000 runs of 10 operations: about 10,000 commits). Builds a bare
repository of N memories (``bench_foundation``'s builder), then R dream runs written
straight through GitStore, each K commits with ``Dream-*`` trailers that rewrite,
merge or supersede memories, and times:

- ``show ID --history`` (the library's ``lineage``) of a memory touched by many runs;
- ``memories --as-of`` at a time in the middle of the history (cold: no parse cache;
  warm: the cache filled by a first call);
- ``redact --match`` of a text planted in the first commit, so every commit after it
  is rewritten.

Targets (issue 14): ``show --history`` and ``--as-of`` under 1 s at 10,000 memories
and 1,000 runs; ``redact`` of a 10,000-commit history under 60 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_foundation import NOW, build_repository

from dreamgit.gitstore import Identity
from dreamgit.history.asof import main_as_of
from dreamgit.history.lineage import lineage
from dreamgit.history.redact import redact
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

PLANTED = "Vera's passport number is X1234567"


def build(path: Path, n: int, runs: int, ops: int) -> tuple[MemoryRepo, str]:
    """N memories, then ``runs`` times ``ops`` commits with trailers; returns the busiest id."""
    repo = build_repository(path, n)
    store, who = repo.store, Identity("bench", "bench@localhost")
    files = store.files(repo.tip(), layout.MEMORIES)
    paths = sorted(files)
    by_path = {}
    for path in paths:
        text = store.read(files[path]).decode()
        ident = text.split("  id: ", 1)[1].split("\n", 1)[0]
        by_path[path] = (ident, text)
    rng = random.Random(11)
    busy = paths[0]
    tip = repo.tip()
    first = True
    when = NOW
    for run in range(runs):
        run_id = f"2026{run:08d}-bench"
        for k in range(ops):
            when += timedelta(minutes=1)
            path = busy if k == 0 else rng.choice(paths)
            ident, text = by_path[path]
            text = text.replace("confidence: 0.9", f"confidence: 0.{(run + k) % 9 + 1}")
            by_path[path] = (ident, text)
            changes: dict[str, bytes | None] = {path: text.encode()}
            if first:
                changes["sessions/planted.md"] = f"User: {PLANTED}.\n".encode()
                first = False
            # The busy memory is reinforced every run and absorbs (or supersedes) another
            # memory every 20th run, as a long-lived fact does; every other operation
            # touches one memory alone.
            if k == 0 and run % 20 == 0:
                partner = rng.choice(paths[1:])
                changes[partner] = None
                named = f"{ident}, {by_path[partner][0]}"
                op = ("merge", "supersede")[run // 20 % 2]
            elif k == 0:
                op, named = "reinforce", ident
            else:
                op, named = rng.choice(["reinforce", "prune", "add"]), ident
            message = (
                f"{op}: bench\n\nDream-Run: {run_id}\nDream-Phase: consolidate\nDream-Op: {op}\n"
                f"Dream-Rule: bench\nDream-Memory: {named}\nDream-Source: rules\n"
            )
            tree = store.build_tree(tip, changes)
            tip = store.commit(
                "main", parents=[tip], tree=tree, message=message, who=who, when=when
            )
    return repo, by_path[busy][0]


def seconds(action: object) -> float:
    """Wall seconds of one call."""
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1_000)
    parser.add_argument("--ops", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        repo, busy = build(Path(tmp) / "bench.git", args.n, args.runs, args.ops)
        commits = sum(1 for _ in repo.store.walk(repo.tip() or ""))
        print(
            f"built {args.n} memories, {commits} commits in {time.perf_counter() - started:.1f} s"
        )
        steps: list[object] = []
        t = seconds(lambda: steps.extend(lineage(repo, busy)))
        print(f"show --history (lineage of a memory in {len(steps)} steps): {t:.2f} s")
        middle = NOW + timedelta(minutes=args.runs * args.ops // 2)
        at = main_as_of(repo, middle)
        cold = seconds(lambda: repo.snapshot(now=middle, at=at))
        warm = seconds(lambda: repo.snapshot(now=middle, at=main_as_of(repo, middle)))
        print(f"memories --as-of (middle of history): cold {cold:.2f} s, warm {warm:.2f} s")
        t = seconds(lambda: redact(repo, now=middle, match=PLANTED))
        print(f"redact --match (every commit after the first rewritten): {t:.1f} s")


if __name__ == "__main__":
    main()
