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

Each line gives the wall clock and the CPU time of the process (user + system; steadier
than the wall clock on a shared machine). Run it with another version's Python to time
that version (``/other/.venv/bin/python tests/bench/bench_hooks.py``). The processes
keep compiled bytecode (in a folder of the benchmark's own, whatever
``PYTHONDONTWRITEBYTECODE`` says), as an installed package has it, and each hook runs
once before it is timed; the 40-turn log is timed on a fresh copy of the repository
each time.

Target (issue 26): each hook under 300 ms at 10,000 memories. Medians in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


#: The environment of the timed processes: bytecode kept, in the benchmark's folder.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(argv: list[str], stdin: str = "") -> tuple[float, float, str]:
    """Wall and CPU milliseconds (user + system) of one process, and its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True, env=ENV)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, done.stderr


def _hook(path: Path, event: str, payload: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU milliseconds one hook process takes, its input on stdin."""
    argv = [*_command(), "--repo", str(path), "--now", format_time(NOW), "hook", "claude-code"]
    wall, cpu, said = _timed([*argv, event], json.dumps(payload))
    assert "skipped" not in said, said
    return wall, cpu


def _median(runs: list[tuple[float, float]]) -> str:
    """Median wall / median CPU, in milliseconds."""
    walls, cpus = zip(*runs, strict=True)
    return f"{statistics.median(walls):6.0f} / {statistics.median(cpus):4.0f}"


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
    ENV["PYTHONPYCACHEPREFIX"] = str(base / "bytecode")
    load = os.getloadavg()[0]
    path = base / "mem.git"
    build_repository(path, args.n)
    add = ["add", "Bench index", "--topic", "bench"]
    at = ["--repo", str(path), "--now", format_time(NOW)]
    subprocess.run([*_command(), *at, *add], check=True, capture_output=True)
    clone = base / "work"
    subprocess.run(["git", "clone", "-q", str(path), str(clone)], check=True)
    warm = base / "warm"
    warm.mkdir()
    for event, payload in (
        ("session-end", {"transcript_path": str(_session(warm, 2))}),
        ("session-start", {"source": "startup"}),
        ("prompt-submit", {"prompt": "release notes"}),
    ):
        _hook(clone, event, payload)  # bytecode written, the recall view kept
    start = [_hook(clone, "session-start", {"source": "startup"}) for _ in range(args.repeat)]
    bare = [_hook(path, "session-start", {"source": "startup"}) for _ in range(args.repeat)]
    version = [_timed([*_command(), "--version"])[:2] for _ in range(args.repeat)]
    answered, unanswered = (
        [_hook(clone, "prompt-submit", {"prompt": p}) for _ in range(args.repeat)]
        for p in ("where are the release notes kept", "quantum chromodynamics lattice")
    )
    transcript = {"transcript_path": str(_session(base, 40))}
    logs = []
    for n in range(args.repeat):
        copy = base / f"copy-{n}.git"
        shutil.copytree(path, copy)
        logs.append(_hook(copy, "session-end", transcript))
        shutil.rmtree(copy)
    _hook(path, "session-end", transcript)
    again = [_hook(path, "session-end", transcript) for _ in range(args.repeat)]
    print(f"{args.n} memories; median wall / CPU ms of {args.repeat} runs; target 300 wall")
    print(f"dreamgit --version (start-up)    {_median(version)}")
    print(f"session-start (work tree)        {_median(start)}")
    print(f"session-start (bare repository)  {_median(bare)}")
    print(f"prompt-submit (recall answers)   {_median(answered)}")
    print(f"prompt-submit (nothing answers)  {_median(unanswered)}")
    print(f"session-end (logs 40 turns)      {_median(logs)}")
    print(f"session-end (nothing new)        {_median(again)}")
    print(f"load {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    shutil.rmtree(base)


if __name__ == "__main__":
    main()
