"""Benchmark of the Claude Code hooks as Claude Code runs them, on a large memory repository.

Usage: ``python tests/bench/bench_hooks.py [N] [--repeat R]`` (default N: 10000).
Builds N memories with ``bench_foundation.build_repository``, renders MEMORY.md with
one ``dreamgit add`` (the index a session brief is cut from), then times, as processes
of the installed command with the hook's JSON on stdin (wall clock, start-up included):

- ``hook claude-code session-start``: prints the brief, from a clone's work tree
  (MEMORY.md read as a file, no git) and from the bare repository (the committed index);
- ``hook claude-code prompt-submit``: recalls for a prompt some memories answer, and
  for one none answer (the ``--recall`` hook, run at every prompt);
- ``hook claude-code session-end``: logs a Claude Code session file of 40 turns, then
  again with nothing new (what a PreCompact after SessionEnd costs).

Target (issue 26): each hook under 300 ms at 10,000 memories. Medians in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_foundation import NOW, build_repository

from dreamgit.clock import format_time

SESSION = "5e55a0b1-0000-4000-8000-00000000be0c"


def _command() -> list[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "dreamgit"]


def _hook(path: Path, event: str, payload: dict[str, str]) -> float:
    """Milliseconds one hook process takes, its input on stdin."""
    argv = [*_command(), "--repo", str(path), "--now", format_time(NOW), "hook", "claude-code"]
    start = time.perf_counter()
    done = subprocess.run(
        [*argv, event], input=json.dumps(payload), capture_output=True, text=True, check=True
    )
    took = (time.perf_counter() - start) * 1000
    assert "skipped" not in done.stderr, done.stderr
    return took


def _session(folder: Path, turns: int) -> Path:
    path = folder / f"{SESSION}.jsonl"
    lines = []
    for n in range(turns):
        role = "user" if n % 2 == 0 else "assistant"
        content = f"I keep the release notes for build {n} in the wiki." if n % 2 == 0 else "Ok."
        lines.append(
            json.dumps(
                {
                    "type": role,
                    "uuid": f"u-{n:04d}",
                    "sessionId": SESSION,
                    "timestamp": f"2026-11-21T10:{n // 60:02d}:{n % 60:02d}Z",
                    "message": {"role": role, "content": content},
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    """Build the repository, time each hook, print a table with the target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="dreamgit-bench-hooks-"))
    path = base / "mem.git"
    build_repository(path, args.n)
    add = ["add", "Bench index", "--topic", "bench"]
    at = ["--repo", str(path), "--now", format_time(NOW)]
    subprocess.run([*_command(), *at, *add], check=True, capture_output=True)
    clone = base / "work"
    subprocess.run(["git", "clone", "-q", str(path), str(clone)], check=True)
    start = [_hook(clone, "session-start", {"source": "startup"}) for _ in range(args.repeat)]
    bare = [_hook(path, "session-start", {"source": "startup"}) for _ in range(args.repeat)]
    version = []
    for _ in range(args.repeat):
        began = time.perf_counter()
        subprocess.run([*_command(), "--version"], capture_output=True, check=True)
        version.append((time.perf_counter() - began) * 1000)
    answered, unanswered = (
        [_hook(clone, "prompt-submit", {"prompt": p}) for _ in range(args.repeat)]
        for p in ("where are the release notes kept", "quantum chromodynamics lattice")
    )
    transcript = {"transcript_path": str(_session(base, 40))}
    first = _hook(path, "session-end", transcript)
    again = [_hook(path, "session-end", transcript) for _ in range(args.repeat)]
    print(f"{args.n} memories; median ms of {args.repeat} runs; target 300")
    print(f"dreamgit --version (start-up)    {statistics.median(version):8.0f}")
    print(f"session-start (work tree)        {statistics.median(start):8.0f}")
    print(f"session-start (bare repository)  {statistics.median(bare):8.0f}")
    print(f"prompt-submit (recall answers)   {statistics.median(answered):8.0f}")
    print(f"prompt-submit (nothing answers)  {statistics.median(unanswered):8.0f}")
    print(f"session-end (logs 40 turns)      {first:8.0f}")
    print(f"session-end (nothing new)        {statistics.median(again):8.0f}")
    shutil.rmtree(base)


if __name__ == "__main__":
    main()
