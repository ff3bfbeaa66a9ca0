"""Benchmark of recall on a large memory repository.

Usage: ``python tests/bench/bench_recall.py [N ...] [--repeat R]`` (default N: 10000
100000). Builds a bare repository of N memories (``bench_foundation``'s store:
every memory drawn from a 32-word vocabulary, so a query matches a large share
of the memories, the hard case for BM25), then times:

- cold recall: the first library call in the process (reads the memories, builds
  the BM25 index for the tree);
- warm recall: later library calls on the same tree (the index is cached by tree
  id), each with a different query, a signal recorded each time;
- recording a signal alone (one spool file written and renamed into place);
- folding 1,000 committed signals into the counters (one commit).

Targets (issue 13): warm recall under 50 ms at 10,000 memories and under 300 ms
at 100,000; recording a signal under 5 ms. Times are medians, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_foundation import NOW, WORDS, build_repository

from dreamgit.recall.fold import fold_signals
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import recall
from dreamgit.store.signals import spool_signal


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
        repo.advance_main(lambda _tip: None, now=NOW)  # commits the spool
        t0 = time.perf_counter()
        folded = fold_signals(repo, now=NOW)
        print(f"  fold {folded.signals} signals (one commit)   {_ms(time.perf_counter() - t0)}")


def main() -> None:
    """Run the benchmark for each N given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for n in args.sizes:
        bench(n, args.repeat)


if __name__ == "__main__":
    main()
