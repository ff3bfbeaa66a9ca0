"""Benchmark of recall on a large memory repository.

Usage: ``python tests/bench/bench_recall.py [N ...] [--repeat R]`` (default N: 10000
100000). Builds a bare repository of N memories (``bench_foundation``'s store:
every memory drawn from a 32-word vocabulary, so a query matches a large share
of the memories, the hard case for BM25), then times:

- cold recall: the first library call in the process (reads the memories, builds
  the BM25 index for the tree);
- warm recall: later library calls on the same tree (the index is cached by tree
  id), each with a different query, a signal recorded each time;
- the derived store following a commit that edits 100 memory files and removes 100
  (about what a dream changes), CPU;
- recording a signal alone (one spool file written and renamed into place);
- folding 1,000 committed signals into the counters (one commit).

Targets (issue 13): warm recall under 50 ms at 10,000 memories and under 300 ms
at 100,000; recording a signal under 5 ms. Times are medians, in milliseconds.

``--processes [--against OTHER]`` times ``dreamgit recall`` as a process of the installed
command instead (issue 27: the first call after a clone under 10 s at 100,000, a warm
call under 400 ms): the repository is packed as a clone is (``git repack -a -d``), each
version gets its own copy, and each then runs the first call (no cache in the git
directory: it builds the derived store), ``--repeat`` warm calls and ``--repeat`` pairs
of ``add`` + ``recall`` (the store follows one new file), paired and interleaved as
``bench_commands.py`` does (OTHER: a ``dreamgit`` executable or a checkout holding
``.venv/bin/dreamgit``). Each line gives wall and CPU seconds (user + system) and the
peak memory of the process; the answers of the versions must be the same. ``--store DIR``
keeps the packed repository of each N in ``DIR/N.git`` and takes it from there the next
time (building 100,000 memories takes minutes; each run still copies it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_commands import _command
from bench_foundation import NOW, WORDS, build_repository

from dreamgit.clock import format_time
from dreamgit.gitstore import Identity
from dreamgit.recall.fold import fold_signals
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import recall
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import spool_signal


def _move_after_a_dream(repo: MemoryRepo) -> float:
    """Seconds of CPU the derived store takes to follow a commit (not on main) that edits
    100 memory files and removes 100 others, about what a dream changes."""
    tip = repo.tip()
    repo.sync_derived(tip)
    files = repo.store.files(tip, layout.MEMORIES)
    paths = sorted(files)
    step = max(1, len(paths) // 200)
    changes: dict[str, bytes | None] = {}
    for k, path in enumerate(paths[::step][:200]):
        changes[path] = None if k % 2 else repo.store.read(files[path]).replace(b"(", b"(edited ")
    tree = repo.store.build_tree(tip, changes)
    who = Identity("bench", "bench@localhost")
    commit = repo.store.commit_unreferenced(
        parents=[tip] if tip else [], tree=tree, message="bench: edits", who=who, when=NOW
    )
    start = time.process_time()
    repo.sync_derived(commit)
    return time.process_time() - start


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def bench(n: int, repeat: int) -> None:
    """Time recall on n memories; prints one line per figure."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        repo = build_repository(Path(tmp) / "mem", n)
        print(f"N={n}: repository built in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        recall(repo, RecallQuery("python pytest", top_k=5), now=NOW)
        print(f"  cold recall (read + index)      {_ms(time.perf_counter() - t0)}")
        warm = []
        for k in range(repeat):
            query = f"{WORDS[k % len(WORDS)]} {WORDS[(3 * k + 5) % len(WORDS)]} fact {k}"
            t0 = time.perf_counter()
            hits = recall(repo, RecallQuery(query, chars=1500), now=NOW + timedelta(seconds=k)).hits
            warm.append(time.perf_counter() - t0)
            assert hits
        print(
            f"  warm recall, --chars 1500       {_ms(statistics.median(warm))}"
            f"  (max {_ms(max(warm))})"
        )
        record = []
        signal = {"at": "2026-11-22T03:00:00Z", "query": "0" * 12, "hits": [["m-x", 0.5, 1.0]]}
        for _ in range(repeat * 5):
            t0 = time.perf_counter()
            spool_signal(repo.store.git_dir, signal, now=NOW)
            record.append(time.perf_counter() - t0)
        print(f"  record one signal               {_ms(statistics.median(record))}")
        print(f"  derived move, 200 files changed {_ms(_move_after_a_dream(repo))}")
        repo.advance_main(lambda _tip: None, now=NOW)  # commits the spool
        t0 = time.perf_counter()
        folded = fold_signals(repo, now=NOW)
        print(f"  fold {folded.signals} signals (one commit)   {_ms(time.perf_counter() - t0)}")


#: (wall s, CPU s, peak MB) of one process.
Usage = tuple[float, float, float]


def _process(command: str, repo: Path, *args: str) -> tuple[Usage, str]:
    """Run ``dreamgit ARGS`` on ``repo`` once: its wall, CPU and peak memory, and stdout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DREAMGIT_REPO"] = str(repo)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            [command, "--now", format_time(NOW), *args], env=env, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage, peak included
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode:
            raise SystemExit(f"{command} {' '.join(args)} failed:\n{err.read().decode()}")
        printed = out.read().decode()
    return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024), printed


def _packed_store(n: int, base: Path, kept: Path | None) -> Path:
    """The packed repository of n memories: ``kept/N.git`` when built there before (made
    there when not), else built in ``base``."""
    built = base / "built.git" if kept is None else kept / f"{n}.git"
    if not (built / "HEAD").exists():
        shutil.rmtree(built, ignore_errors=True)
        build_repository(built, n)
        subprocess.run(["git", "-C", str(built), "repack", "-a", "-d", "-q"], check=True)
    return built


def processes(n: int, repeat: int, against: Path | None, kept: Path | None = None) -> None:
    """Time recall as a process of each version on n memories; prints one line per figure."""
    base = Path(tempfile.mkdtemp(prefix="dreamgit-bench-recall-"))
    try:
        built = _packed_store(n, base, kept)
        commands = {"this": shutil.which("dreamgit", path=str(Path(sys.executable).parent))}
        if against is not None:
            commands["other"] = _command(against)
        repos = {}
        for name in commands:
            repos[name] = base / f"{name}.git"
            shutil.copytree(built, repos[name])
        figures: dict[str, dict[str, list[Usage]]] = {name: {} for name in commands}
        answers: dict[str, list[str]] = {name: [] for name in commands}

        def run(what: str, name: str, *args: str) -> None:
            usage, out = _process(str(commands[name]), repos[name], *args)
            figures[name].setdefault(what, []).append(usage)
            if args[0] == "recall":
                answers[name].append(out)

        for name in commands:
            run("first call (builds the caches)", name, "recall", "python", "--no-record")
        for k in range(repeat):
            query = f"{WORDS[k % len(WORDS)]} {WORDS[(3 * k + 5) % len(WORDS)]}"
            for name in list(commands) if k % 2 == 0 else list(commands)[::-1]:
                run("warm", name, "recall", query, "--no-record")
                run("add", name, "add", f"Bench fact number {k} {query}", "--topic", "bench")
                run("recall after an add", name, "recall", f"{query} fact", "--no-record")
        _report_processes(n, figures)
        if against is not None and answers["this"] != answers["other"]:
            raise SystemExit("the versions answered differently")
        print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(base)


def _report_processes(n: int, figures: dict[str, dict[str, list[Usage]]]) -> None:
    names = list(figures)
    print(
        f"N = {n}: wall s / CPU s / peak MB, medians" + ("; ratio this / other" * (len(names) > 1))
    )
    for what in figures[names[0]]:
        cells, medians = [], []
        for name in names:
            wall, cpu, peak = (
                statistics.median(u[i] for u in figures[name][what]) for i in range(3)
            )
            medians.append((wall, cpu))
            cells.append(f"{name} {wall:7.2f} / {cpu:6.2f} / {peak:5.0f}")
        ratio = ""
        if len(names) > 1:
            (w0, c0), (w1, c1) = medians
            ratio = f"   {w0 / w1:.2f} / {c0 / c1:.2f}"
        print(f"  {what:<32} {'   '.join(cells)}{ratio}")


def main() -> None:
    """Run the benchmark for each N given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--processes", action="store_true", help="time the installed command")
    parser.add_argument("--against", type=Path, help="another dreamgit, or a checkout with .venv")
    parser.add_argument("--store", type=Path, help="keep and reuse the packed stores here")
    args = parser.parse_args()
    for n in args.sizes:
        if args.processes:
            processes(n, args.repeat, args.against, args.store)
        else:
            bench(n, args.repeat)


if __name__ == "__main__":
    main()
