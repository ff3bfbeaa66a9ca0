"""Benchmark of memory tests and the run report on a large repository with many runs.

Usage: ``python tests/bench/bench_report.py [N] [--runs R]`` (default N 10000, R 100).
Builds ``bench_foundation``'s repository of N memories, then R runs, each one commit
that supersedes a memory (its run record lists the operation with before and after
texts, as a dream writes it), changes ``MEMORY.md``, and leaves a written test file.
Then times, in a fresh process state after one warm-up call (the parse cache warm,
as after a dream):

- ``dreamgit test`` at main: collect the written and derived tests, run them;
- the dream gate: the tests of main's parent and of main on both;
- ``dreamgit report``: gather the report of the newest run, render HTML and Markdown.

Target (issue 28): tests and report under 2 s each at 10,000 memories and 100 runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_foundation import NOW, build_repository

from dreamgit.clock import format_time
from dreamgit.gitstore import Identity
from dreamgit.ids import memory_id
from dreamgit.report.build import build_report
from dreamgit.report.gate import memory_gate
from dreamgit.report.html import render_html
from dreamgit.report.markdown import render_markdown
from dreamgit.report.testrun import collect_tests, run_tests
from dreamgit.store.repo import MemoryRepo

_TESTS = "tests:\n" + "".join(
    f"  - query: python pytest fact {i}\n    expect: fact {i}\n" for i in range(20)
)


def add_runs(repo: MemoryRepo, runs: int) -> None:
    """``runs`` commits on main, each a run that superseded one memory by a new one."""
    store = repo.store
    files = store.files(repo.tip(), "memories/")
    paths = sorted(files)
    who = Identity("bench", "bench@localhost")
    tip = repo.tip()
    for k in range(runs):
        when = NOW + timedelta(hours=k + 1)
        run_id = f"{when:%Y%m%dT%H%M%S}Z-{k:04x}"
        old_path = paths[k]
        old = store.read(files[old_path]).decode()
        old_text = old.split("---\n", 2)[2].strip()
        new_id = memory_id("bench-run", str(k))
        new_text = f"{old_text[:-1]} (now revised {k})."
        new_path = old_path.replace(".md", f"-r{k}.md")
        record = {
            "run_id": run_id,
            "now": format_time(when),
            "base": tip,
            "applied": True,
            "merge_requested": True,
            "memories_before": len(paths),
            "memories_after": len(paths),
            "sessions": [],
            "counts": {"supersede": 1, "index": 1},
            "ops": [
                {
                    "n": 1,
                    "op": "supersede",
                    "phase": "consolidate",
                    "rule": "supersede-same-key",
                    "memories": [new_id],
                    "commit": tip,
                    "summary": f"supersede: {old_path} by {new_id}",
                    "before": [{"id": f"old-{k}", "text": old_text, "path": old_path}],
                    "after": [{"id": new_id, "text": new_text, "path": new_path}],
                },
                {"n": 2, "op": "index", "phase": "index", "rule": "index", "commit": tip},
            ],
            "health": {"score": 0.9 - k / 1000, "parts": {}},
            "tests": {"gate": "block", "passed": 20, "failed": 0, "new": 1, "broken": []},
        }
        body = old.replace(old_text, new_text).replace("id: ", f"id: {new_id}\n  old: ", 1)
        changes: dict[str, bytes | None] = {
            old_path: None,
            new_path: body.encode(),
            f".dreamgit/runs/{run_id}.json": json.dumps(record).encode(),
            "MEMORY.md": ("# Memory\n" + "- line\n" * (k + 1)).encode(),
            ".dreamgit/tests.yaml": _TESTS.encode(),
        }
        tree = store.build_tree(tip, changes)
        tip = store.commit(
            "main", parents=[tip] if tip else [], tree=tree, message=run_id, who=who, when=when
        )


def _time(label: str, action: object) -> float:
    assert callable(action)
    action()  # warm-up: the parse cache and recall index, as a dream leaves them
    t0, c0 = time.perf_counter(), time.process_time()
    action()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    # CPU time too: on a shared machine the wall clock also counts waiting for a core.
    print(f"  {label:<40} {seconds * 1000:8.0f} ms wall {cpu * 1000:8.0f} ms CPU")
    return seconds


def main() -> None:
    """Build, then time each figure once warm; prints one line per figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        repo = build_repository(Path(tmp) / "mem", args.n)
        add_runs(repo, args.runs)
        print(f"N={args.n}, {args.runs} runs: built in {time.perf_counter() - t0:.1f} s")
        now = NOW + timedelta(days=30)
        tip = repo.tip()
        parent = repo.store.commit_info(tip or "").parents[0]

        def test() -> None:
            suite = collect_tests(repo, tip, now=now)
            done = run_tests(repo, suite, tip, now=now)
            assert len(done.results) > 20, len(done.results)

        def gate() -> None:
            memory_gate(repo, base=parent, tip=tip or "", record={}, now=now)

        def report(runs: int) -> None:
            built = build_report(repo, None, now=now, runs=runs)
            assert len(built.points) == min(runs, args.runs)
            render_html(built)
            render_markdown(built)

        _time("dreamgit test (collect + run)", test)
        _time("the dream gate (two trees)", gate)
        _time("dreamgit report (30 runs charted)", lambda: report(30))
        _time(f"dreamgit report --runs {args.runs}", lambda: report(args.runs))


if __name__ == "__main__":
    main()
