"""Benchmark of near-duplicate detection: time, peak memory, precision and recall.

Usage: ``python tests/bench/bench_duplicates.py [N ...] [--threshold T] [--show K]
[--adversarial]`` (default N: 1000 10000 100000). For each N it generates the seeded corpus of
``corpus.py``, runs :func:`find_duplicate_pairs` and :func:`group_duplicates` on the
memories oldest first (as the dream does) with cold caches, and scores the pairs
against the planted ones: precision over every reported pair, recall over planted
duplicates (by kind: exact copy, surface change, other wording), and how many planted
near-misses were wrongly reported. It also counts the pairs at or above the threshold
before the guards (untimed): in this corpus their number per memory grows with N,
because a closed vocabulary makes same-frame facts ever denser, and that is what makes
the time grow faster than N. Targets: precision >= 0.98, recall >= 0.9.

With ``--adversarial`` it uses ``corpus_adversarial.py`` instead: facts that share
object and long qualifier but differ in subject or relation. It counts every pair of
memories the groups join (the members of one group all become one memory), how many
join different subjects, different relations or other different facts, and scores
precision over those pairs and recall over the planted duplicates. Targets: 0 joins
of different subjects or relations, precision >= 0.98, planted near-misses joined 0.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from collections import Counter
from itertools import combinations

import corpus_adversarial
from corpus import Corpus, generate

from dreamgit import textsim
from dreamgit.extract import guards, signature
from dreamgit.extract.duplicates import (
    DEFAULT_THRESHOLD,
    DupItem,
    _candidates,
    find_duplicate_pairs,
    group_duplicates,
)
from dreamgit.store.pausedgc import paused_gc


def _clear_caches() -> None:
    textsim.tokenize.cache_clear()
    textsim.features.cache_clear()
    signature.signature.cache_clear()
    gc.collect()


def _run(items: list[DupItem], threshold: float) -> tuple[list[tuple[str, str, float]], float]:
    _clear_caches()
    start = time.perf_counter()
    with paused_gc():  # as the dream runs the finder: no full collections over what it built
        pairs = find_duplicate_pairs(items, threshold=threshold)
    return pairs, time.perf_counter() - start


def bench(n: int, threshold: float, show: int, memory: bool) -> float:
    """Run one size; print its figures; return the time of find_duplicate_pairs."""
    corpus: Corpus = generate(n)
    items = [DupItem(m["id"], m["text"], m["topic"], m.get("key")) for m in corpus.memories]
    pairs, seconds = _run(items, threshold)
    start = time.perf_counter()
    groups = group_duplicates(items, pairs)
    group_seconds = time.perf_counter() - start
    peak = 0
    if memory:
        tracemalloc.start()
        _run(items, threshold)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    # Untimed: how many pairs are similar at all (before the guards), the work that grows
    # with the density of near-identical facts rather than with the number of memories.
    feats = [textsim.features(item.text) for item in items]
    similar = sum(
        textsim.dice(feats[i], feats[j]) >= threshold
        for i, found_j in _candidates(
            feats, [item.topic for item in items], threshold / (2 - threshold)
        )
        for j in found_j
    )
    found = {frozenset(p[:2]) for p in pairs}
    planted = {frozenset(p) for p in corpus.duplicates}
    near = {frozenset(p) for p in corpus.near_misses}
    hits = found & planted
    precision = len(hits) / len(found) if found else 1.0
    recall = len(hits) / len(planted) if planted else 1.0
    kinds = Counter(corpus.duplicate_kinds.values())
    kind_hits = Counter(
        corpus.duplicate_kinds[p] for p in corpus.duplicates if frozenset(p) in hits
    )
    by_kind = ", ".join(f"{k} {kind_hits[k]}/{kinds[k]}" for k in sorted(kinds))
    print(
        f"N={n:>7,}  find {seconds:7.2f} s  group {group_seconds:5.2f} s  "
        + (f"peak {peak / 2**20:6.1f} MiB  " if memory else "")
        + f"pairs {len(found):>5}  precision {precision:.4f}  recall {recall:.4f}  "
        f"near-misses merged {len(found & near)}/{len(near)}  groups {len(groups)}"
    )
    print(f"           recall by kind: {by_kind}; similar before guards {similar / n:.2f}/memory")
    text = {m["id"]: m["text"] for m in corpus.memories}
    for label, sample in (
        ("false positive", sorted(tuple(sorted(p)) for p in found - planted)[:show]),
        ("missed", sorted(tuple(sorted(p)) for p in planted - found)[:show]),
    ):
        for a, b in sample:
            score = textsim.similarity(text[a], text[b])
            verdict = guards.may_merge(text[a], text[b])
            print(f"  {label}: {text[a]!r} ~ {text[b]!r} sim={score:.2f} guard={verdict}")
    return seconds


def bench_adversarial(n: int, threshold: float, show: int) -> float:
    """One size of the adversarial store; print its figures; return the finder's time."""
    corpus = corpus_adversarial.generate(n)
    items = [DupItem(m["id"], m["text"], m["topic"]) for m in corpus.memories]
    pairs, seconds = _run(items, threshold)
    groups = group_duplicates(items, pairs)
    joined = [(a, b) for g in groups for a, b in combinations(sorted(g), 2)]
    facts = corpus.facts
    wrong: Counter[str] = Counter()
    samples: dict[str, list[tuple[str, str]]] = {}
    for a, b in joined:
        fa, fb = facts[a], facts[b]
        if fa == fb:
            continue
        why = (
            "subject"
            if fa.subject != fb.subject
            else "relation"
            if fa.relation != fb.relation
            else "object or qualifier"
        )
        wrong[why] += 1
        samples.setdefault(why, []).append((a, b))
    together = {frozenset(p) for p in joined}
    planted = {frozenset(p) for p in corpus.duplicates}
    near = {frozenset(p) for p in corpus.near_misses}
    good = len(joined) - sum(wrong.values())
    precision = good / len(joined) if joined else 1.0
    recall = len(together & planted) / len(planted) if planted else 1.0
    kinds = Counter(corpus.kinds.values())
    kind_hits = Counter(corpus.kinds[p] for p in corpus.duplicates if frozenset(p) in together)
    by_kind = ", ".join(f"{k} {kind_hits[k]}/{kinds[k]}" for k in sorted(kinds))
    print(
        f"adversarial N={n:>7,}  find {seconds:6.2f} s  joined pairs {len(joined)}  "
        f"different subject {wrong['subject']}  different relation {wrong['relation']}  "
        f"other different facts {wrong['object or qualifier']}  precision {precision:.4f}  "
        f"recall {recall:.4f}  near-misses joined {len(together & near)}/{len(near)}"
    )
    print(f"           recall by kind: {by_kind}")
    text = {m["id"]: m["text"] for m in corpus.memories}
    for why, sample in sorted(samples.items()):
        for a, b in sample[:show]:
            print(f"  {why}: {text[a]!r} ~ {text[b]!r}")
    missed = sorted(tuple(sorted(p)) for p in planted - together)[:show]
    for a, b in missed:
        print(f"  missed: {text[a]!r} ~ {text[b]!r} guard={guards.may_merge(text[a], text[b])}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark for each requested size and print the growth between sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--show", type=int, default=0, help="print K misses and false positives")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc run")
    parser.add_argument(
        "--adversarial", action="store_true", help="facts sharing their tail (different subjects)"
    )
    args = parser.parse_args(argv)
    print(f"threshold {args.threshold}  python {sys.version.split()[0]}")
    if args.adversarial:
        for n in args.sizes:
            bench_adversarial(n, args.threshold, args.show)
        return 0
    times = [bench(n, args.threshold, args.show, not args.no_memory) for n in args.sizes]
    for k in range(1, len(times)):
        n1, n2, t1, t2 = args.sizes[k - 1], args.sizes[k], times[k - 1], times[k]
        print(f"growth {n1:,} -> {n2:,}: x{n2 / n1:.0f} memories, x{t2 / t1:.1f} time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
