"""Benchmark of the work-tree race at scale: dreamgit and plain git writers while dreams run.

Usage: ``python tests/bench/bench_worktree_race.py [OPS] [--writers W]`` (default: 100
operations for each of 8 writers). A memory repository with ``main`` checked out
gets, all at once: W/2 processes calling ``add`` OPS times each, W/2 processes
making OPS plain ``git add`` + ``git commit`` commits each (taking turns among
themselves, as git does not guard two of its own commits from each other), and
a loop of ``dreamgit run --force`` until the writers finish, then one ``dreamgit log``
(the next write, which commits back what git's own index race dropped from main; see
``tests/test_worktree_stale_index.py``). It prints how many
writes of each kind ended on main, how many were lost, the dreams run and the
wall time. Target: 0 lost.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ADDER = """
import hashlib, sys
from datetime import UTC, datetime
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
repo = MemoryRepo.open(path)
now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
for i in range(count):
    # Words of their own, so no dream takes two notes for near-duplicates and merges them.
    words = " ".join(hashlib.sha1(f"{worker}-{i}-{k}".encode()).hexdigest()[:8] for k in range(6))
    text = f"Mark{worker}x{i}: {words}."
    operations.add_memory(repo, text, topic=f"w{worker}", now=now)
    if i % 10 == 0:
        operations.log_session(repo, f"User: writer {worker} uses tool {i} daily.", now=now)
"""

COMMITTER = """
import fcntl, subprocess, sys
from pathlib import Path

path, worker, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])


def git(*args):
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)


(path / "manual").mkdir(exist_ok=True)
for i in range(count):
    name = f"manual/g{worker}-{i}.txt"
    (path / name).write_text(f"plain git writer {worker}, commit {i}\\n")
    with open(path.parent / "git-writers.lock", "w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        while git("cat-file", "-e", f"main:{name}").returncode != 0:
            git("add", name)
            git("commit", "-q", "-m", f"plain git {worker} {i}")
"""


def git(path: Path, *args: str) -> str:
    """Run git in ``path`` and return its output."""
    return subprocess.run(
        ["git", "-C", str(path), *args], capture_output=True, text=True, check=True
    ).stdout


def main() -> None:
    """Run the race once and print the counts."""
    parser = argparse.ArgumentParser()
    parser.add_argument("ops", type=int, nargs="?", default=100)
    parser.add_argument("--writers", type=int, default=8)
    args = parser.parse_args()
    half = args.writers // 2
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mem"
        dreamgit = [sys.executable, "-m", "dreamgit", "--repo", str(path)]
        subprocess.run([*dreamgit, "init", str(path)], check=True, capture_output=True)
        git(path, "config", "user.name", "Bench")
        git(path, "config", "user.email", "bench@example.com")
        start = time.perf_counter()
        procs = [
            subprocess.Popen([sys.executable, "-c", ADDER, str(path), str(w), str(args.ops)])
            for w in range(half)
        ] + [
            subprocess.Popen([sys.executable, "-c", COMMITTER, str(path), str(w), str(args.ops)])
            for w in range(args.writers - half)
        ]
        dreams = 0
        while any(p.poll() is None for p in procs):
            done = subprocess.run([*dreamgit, "run", "--force"], capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            dreams += 1
        assert all(p.returncode == 0 for p in procs)
        # A `git commit` that read the index just before an add staged it writes that
        # index back, and the next `git commit` drops the add from main, not from the work
        # tree: the next dreamgit write commits it back, so one follows the writers.
        subprocess.run([*dreamgit, "log", "after the race"], check=True, capture_output=True)
        elapsed = time.perf_counter() - start
        back = git(path, "log", "main", "--format=%s", "--grep=^agent edits").splitlines()
        main_text = git(path, "grep", "-h", "-o", "Mark[0-9]*x[0-9]*:", "main", "--", "memories")
        kept = set(main_text.split())
        added = {f"Mark{w}x{i}:" for w in range(half) for i in range(args.ops)}
        files = set(git(path, "ls-tree", "-r", "--name-only", "main").splitlines())
        made = {f"manual/g{w}-{i}.txt" for w in range(args.writers - half) for i in range(args.ops)}
        # A dream's rules may prune or merge notes: that is a removal main records (a
        # commit with a Dream-Run trailer), not a lost write.
        dreamed = {
            mark
            for mark in added - kept
            if "Dream-Run:" in git(path, "log", "main", "-1", "--format=%B", "-S", mark)
        }
        lost_adds = len(added - kept - dreamed)
        lost_commits = len(made - files)
        print(f"writers: {half} dreamgit + {args.writers - half} git, {args.ops} ops each")
        print(f"dreams run meanwhile: {dreams}")
        print(f"adds: {len(added & kept)} on main, {len(dreamed)} removed by a dream's rules")
        print(f"adds lost: {lost_adds}/{len(added)}")
        print(f"commits that brought back files git's stale index dropped: {len(back)}")
        print(f"git commits on main: {len(made) - lost_commits}/{len(made)}, lost {lost_commits}")
        print(f"git status clean: {git(path, 'status', '--porcelain') == ''}")
        print(f"wall time: {elapsed:.1f} s")


if __name__ == "__main__":
    main()
