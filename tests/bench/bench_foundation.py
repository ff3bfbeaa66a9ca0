"""Benchmark of the everyday commands on a large memory repository.

Usage: ``python tests/bench/bench_foundation.py [N] [--keep DIR] [--repeat R]``
(default N: 10000). Builds a bare repository of N memories (plus N/100 sessions)
in one commit written straight through GitStore, with front matter shaped like
what ``dreamgit add`` writes, then times:

- ``status``: cold (the call alone, in a fresh process) and warm (repeated calls);
- ``memories`` (the full scan): cold (no parse cache in the git directory), and warm
  in a fresh process (cache on disk) and in the same process;
- ``add``: the library call in a warm and in a fresh process;
- ``status``, ``memories --json``, ``add`` and ``--version`` as processes of the
  installed command (wall clock, start-up included: what an agent really waits).

Targets (DESIGN.md, issue 2): warm status under 1 s and add under 100 ms at 10,000.
Times are the median of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamgit.clock import format_time
from dreamgit.dream.status import repo_status
from dreamgit.gitstore import GitStore, Identity
from dreamgit.ids import memory_id, session_id
from dreamgit.store import operations
from dreamgit.store.config import DEFAULT_CONFIG
from dreamgit.store.layout import EMPTY_INDEX
from dreamgit.store.repo import MemoryRepo

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
TOPICS = ["preferences", "tools", "projects", "people", "schedule", "decisions", "identity"]
WORDS = [
    "python",
    "pytest",
    "fastapi",
    "flask",
    "postgres",
    "deploy",
    "staging",
    "vpn",
    "editor",
    "neovim",
    "dark",
    "mode",
    "billing",
    "service",
    "team",
    "decided",
    "prefers",
    "uses",
    "switched",
    "lisbon",
    "morning",
    "standup",
    "review",
    "commit",
    "message",
    "imperative",
    "docker",
    "compose",
    "kubernetes",
    "cluster",
    "release",
    "friday",
]
PRIORITIES = ["ephemeral", "low", "normal", "normal", "normal", "high", "core"]

MEMORY = """\
---
name: {slug}
description: {text}
metadata:
  type: user
dream:
  id: {id}
  topic: {topic}
  priority: {priority}
  tags: [{tags}]
  created: {created}
  updated: {updated}
  sources: [{source}]
  confidence: 0.9
---
{text}
"""


def build_repository(path: Path, n: int, seed: int = 7) -> MemoryRepo:
    """A bare repository with n memories and n/100 sessions in one commit."""
    rng = random.Random(seed)
    files: dict[str, bytes | None] = {
        ".dreamgit/config.yaml": DEFAULT_CONFIG.encode(),
        "MEMORY.md": EMPTY_INDEX.encode(),
    }
    for i in range(n):
        words = rng.sample(WORDS, 8)
        text = f"{' '.join(words).capitalize()} (fact {i})."
        topic = TOPICS[i % len(TOPICS)]
        slug = f"{'-'.join(words[:4])}-{i}"
        created = NOW - timedelta(days=rng.randint(0, 400), minutes=rng.randint(0, 1440))
        files[f"memories/{topic}/{slug}.md"] = MEMORY.format(
            slug=slug,
            text=text,
            id=memory_id("bench", str(i)),
            topic=topic,
            priority=rng.choice(PRIORITIES),
            tags=", ".join(rng.sample(WORDS, 2)),
            created=format_time(created),
            updated=format_time(created + timedelta(days=rng.randint(0, 30))),
            source=session_id(created, str(i)),
        ).encode()
    for i in range(max(1, n // 100)):
        when = NOW - timedelta(hours=i)
        ident = session_id(when, "bench-session", str(i))
        body = " ".join(rng.choices(WORDS, k=300))
        files[f"sessions/{when:%Y/%m/%d}/{ident}.md"] = (
            f"---\ndream:\n  id: {ident}\n  created: '{format_time(when)}'\n---\n{body}\n"
        ).encode()
    store = GitStore.init(path, bare=True)
    tree = store.build_tree(None, files)
    who = Identity("bench", "bench@localhost")
    store.commit("main", parents=[], tree=tree, message="bench: build", who=who, when=NOW)
    return MemoryRepo(store)


def timed(action: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def cli(path: Path, *args: str) -> Callable[[], object]:
    """A call of the installed command on the repository."""
    command = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    argv = [command] if command else [sys.executable, "-m", "dreamgit"]

    def run() -> None:
        subprocess.run(
            [*argv, "--repo", str(path), "--now", format_time(NOW), *args],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    return run


FRESH = """
import sys, time
from datetime import UTC, datetime
from pathlib import Path
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamgit.dream.status import repo_status
now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
path, what = Path(sys.argv[1]), sys.argv[2]
if what == "scan-cold":
    for name in ("memories.json", "memories.recent.json"):
        (path / "dreamgit" / "cache" / name).unlink(missing_ok=True)
start = time.perf_counter()
repo = MemoryRepo.open(path)
if what == "status":
    repo_status(repo, now=now)
elif what == "add":
    operations.add_memory(repo, f"Fresh process fact {time.time_ns()}", topic="fresh", now=now)
else:
    repo.snapshot(now=now)
print((time.perf_counter() - start) * 1000)
"""


def fresh(path: Path, what: str) -> Callable[[], float]:
    """The library call alone, timed inside a new process (imports not counted)."""

    def run() -> float:
        done = subprocess.run(
            [sys.executable, "-c", FRESH, str(path), what],
            check=True,
            capture_output=True,
            text=True,
        )
        return float(done.stdout)

    return run


def median_of(action: Callable[[], float], repeat: int) -> float:
    """Median of the milliseconds ``action`` reports itself."""
    return statistics.median(action() for _ in range(repeat))


def main() -> None:
    """Build the repository, run every timing, print a table with the targets."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="build here and keep it (default: a temp dir)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="dreamgit-bench-"))
    path = base / "mem.git"
    if path.exists():
        shutil.rmtree(path)
    start = time.perf_counter()
    build_repository(path, args.n)
    print(f"built {args.n} memories in {time.perf_counter() - start:.1f} s at {path}")
    rows: list[tuple[str, float, float | None]] = []
    repeat = args.repeat
    rows.append(
        ("status, cold (fresh process: rules parsed)", median_of(fresh(path, "status"), 3), None)
    )
    repo = MemoryRepo.open(path)
    repo_status(repo, now=NOW)
    rows.append(("status, warm", timed(lambda: repo_status(repo, now=NOW), repeat), 1000))
    scan_cold = median_of(fresh(path, "scan-cold"), 2)
    rows.append(("memories scan, cold (no parse cache)", scan_cold, None))
    rows.append(("memories scan, warm (fresh process)", median_of(fresh(path, "scan"), 3), 1000))
    rows.append(
        ("memories scan, warm (same process)", timed(lambda: repo.snapshot(now=NOW), repeat), 1000)
    )
    counter = iter(range(10**6))

    def add() -> None:
        operations.add_memory(repo, f"Bench added fact {next(counter)}", topic="bench", now=NOW)

    add()
    rows.append(("add, library call (warm process)", timed(add, repeat), 100))
    rows.append(("add, library call (fresh process)", median_of(fresh(path, "add"), 3), 100))
    subprocess_rows = [
        ("dreamgit status (process, wall clock)", cli(path, "status")),
        ("dreamgit memories --json (process, wall clock)", cli(path, "memories", "--json")),
        ("dreamgit add (process, wall clock)", cli(path, "add", "From the CLI", "--topic", "cli")),
        ("dreamgit --version (process start-up)", cli(path, "--version")),
    ]
    for name, action in subprocess_rows:
        rows.append((name, timed(action, repeat), None))
    width = max(len(r[0]) for r in rows)
    print(f"\n{'N = ' + str(args.n):<{width}}  median ms   target")
    for name, ms, target in rows:
        verdict = "" if target is None else f"< {target:.0f} {'ok' if ms < target else 'MISSED'}"
        print(f"{name:<{width}}  {ms:9.1f}   {verdict}")
    print(f"\n{os.cpu_count()} CPUs, python {sys.version.split()[0]}")
    if args.keep is None:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
