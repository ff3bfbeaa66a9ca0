"""Why a kept memory misses a question: each scored probe's miss, by category and cause.

Usage::

    python tests/bench/bench_quality.py --memory-root DIR        # keep the memories
    python tests/bench/bench_misses.py DIR [--eval-dir DIR] [--set locomo]

Over the memories ``bench_quality.py`` kept, with the shared scorer's own items, BM25
and budget (it is imported from ``--eval-dir``, not copied), each scored probe is one of:
``hit``; ``split`` (every answer word is in memory, no one item holds them all);
``ranked-below`` (an item holds the answer, items ranked above it spend the 1,500
characters); ``no-shared-word`` (the item holding the answer shares no word with the
question); ``absent-raw-too`` (the transcripts lack the answer's words as well: a
paraphrased or inferred answer); ``absent`` (the transcripts hold it, the memory does
not: never gathered, cut by the gather budget, or retired). Counts only: no question or
answer is printed.

With ``--extracted``, an absent answer is told apart by what the rules extractor makes of
the conversation's sessions (each read alone): ``absent-kept-out`` (one statement holds
every answer word: the gather budget, a gather rule or the repeat check left it out, or a
later run retired it), ``absent-spread`` (only several statements together hold them: the
answer was said over sentences or turns), ``absent-never-said`` (no statement holds them:
extraction drops the sentence, or rewrites the words, e.g. a relative date made absolute).

With ``--ranking``, the probes whose answer one item holds are told apart by whether that
item was retrieved, and for each side: how many, how many words of the question the best
ranked holder shares, how long it is, and the share of holders that are session notes (a
note names its person once, then joins statements with "; "). Whether an item is missed
because it is long or mixes subjects, or because it lacks the question's words.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_quality import default_eval_dir, load_scorer, session_time  # the sibling's

BUDGET = 1500


def _cause(
    s: Any,
    bm: Any,
    item_words: list[set[str]],
    words: set[str],
    probe: dict[str, Any],
    raw_words: set[str],
) -> str:
    taken = {w for i in bm.take(probe["question"], BUDGET) for w in bm.toks[i]}
    if words <= taken:
        return "hit"
    if words <= set().union(*item_words):
        holders = {i for i, held in enumerate(item_words) if words <= held}
        if not holders:
            return "split"
        ranked = bm.rank(probe["question"])
        return "ranked-below" if holders & set(ranked) else "no-shared-word"
    return "absent" if words <= raw_words else "absent-raw-too"


def _statement_words(conv_dir: Path, s: ModuleType) -> list[set[str]]:
    """The scorer's words of each statement the rules extractor finds in the sessions."""
    from dreamgit.dream.gather.extract import extract_candidates

    out = []
    for path in sorted((conv_dir / "sessions").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        created = session_time(path, text)
        for candidate in extract_candidates(text, session_id=path.stem, created=created):
            out.append(set(s.tokens(candidate.text)))
    return out


def _absent_as(words: set[str], statements: list[set[str]]) -> str:
    """Why an absent answer is absent, by the statements extraction makes."""
    if any(words <= held for held in statements):
        return "absent-kept-out"
    return "absent-spread" if words <= set().union(*statements) else "absent-never-said"


def misses(
    memory_root: Path, prepared: Path, s: ModuleType, *, extracted: bool = False
) -> dict[str, collections.Counter[str]]:
    """Per category, how many scored probes fall under each cause."""
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    out: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for conv in sorted(p.name for p in memory_root.iterdir() if p.is_dir()):
        conv_dir = prepared / "conversations" / conv
        files = s.corpus_for(str(conv_dir), conv, "memory", str(memory_root))
        items = [item for text in s.read_files(files) for item in s.split_items(text)]
        if not items:
            continue
        bm = s.BM25(items)
        item_words = [set(t) for t in bm.toks]
        raw = s.read_files(glob.glob(os.path.join(conv_dir, "sessions", "*.txt")))
        raw_words = {w for text in raw for w in s.tokens(text)}
        statements = _statement_words(conv_dir, s) if extracted else []
        for probe in probes:
            if probe["conversation"] != conv or probe["category"] in s.UNSCORED:
                continue
            words = {w for key in s.answer_keys(probe) for w in s.tokens(key)}
            if words:
                cause = _cause(s, bm, item_words, words, probe, raw_words)
                if cause == "absent" and extracted:
                    cause = _absent_as(words, statements)
                out[probe["category"]][cause] += 1
    return out


def _note(item: str) -> bool:
    return " \u2014 " in item


def ranking(memory_root: Path, prepared: Path, s: ModuleType) -> dict[str, dict[str, float]]:
    """For the probes one item answers, retrieved ("hit") or not ("missed"): their count,
    the mean question words and characters of the best ranked holder, the share of notes."""
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    sums: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for conv in sorted(p.name for p in memory_root.iterdir() if p.is_dir()):
        conv_dir = str(prepared / "conversations" / conv)
        files = s.corpus_for(conv_dir, conv, "memory", str(memory_root))
        items = [item for text in s.read_files(files) for item in s.split_items(text)]
        if not items:
            continue
        bm = s.BM25(items)
        item_words = [set(t) for t in bm.toks]
        for probe in probes:
            if probe["conversation"] != conv or probe["category"] in s.UNSCORED:
                continue
            words = {w for key in s.answer_keys(probe) for w in s.tokens(key)}
            holders = {i for i, held in enumerate(item_words) if words and words <= held}
            if not holders:
                continue
            taken = {w for i in bm.take(probe["question"], BUDGET) for w in bm.toks[i]}
            side = sums["hit" if words <= taken else "missed"]
            ranked = [i for i in bm.rank(probe["question"]) if i in holders]
            best = ranked[0] if ranked else min(holders)
            side["probes"] += 1
            side["question_words"] += len(set(s.tokens(probe["question"])) & item_words[best])
            side["chars"] += len(bm.docs[best])
            side["holders"] += len(holders)
            side["notes"] += sum(_note(bm.docs[i]) for i in holders)
    return {
        name: {
            "probes": c["probes"],
            "question_words": round(c["question_words"] / c["probes"], 2),
            "chars": round(c["chars"] / c["probes"], 1),
            "notes": round(c["notes"] / c["holders"], 3),
        }
        for name, c in sorted(sums.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("memory_root", type=Path)
    parser.add_argument("--eval-dir", type=Path, default=default_eval_dir())
    parser.add_argument("--set", default="locomo")
    parser.add_argument(
        "--extracted",
        action="store_true",
        help="tell absent answers apart by the statements the rules extractor makes",
    )
    parser.add_argument(
        "--ranking",
        action="store_true",
        help="for answers one item holds: retrieved or not, by question words, length, notes",
    )
    args = parser.parse_args()
    prepared = args.eval_dir / args.set
    if args.ranking:
        scorer = load_scorer(args.eval_dir)
        for side, figures in ranking(args.memory_root, prepared, scorer).items():
            print(side, figures)
        return
    by_category = misses(
        args.memory_root, prepared, load_scorer(args.eval_dir), extracted=args.extracted
    )
    total: collections.Counter[str] = collections.Counter()
    for category, counts in sorted(by_category.items()):
        total.update(counts)
        print(category, sum(counts.values()), dict(counts.most_common()))
    print("all", sum(total.values()), dict(total.most_common()))


if __name__ == "__main__":
    main()
