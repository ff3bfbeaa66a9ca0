"""Why a kept memory misses a question: each scored probe's miss, by category and cause.

Usage::

    python tests/bench/bench_quality.py --memory-root DIR        # keep the memories
    python tests/bench/bench_misses.py DIR [--eval-dir DIR] [--set locomo]
                                           [--extracted | --ranking | --temporal | --split]

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

With ``--temporal``, the temporal probes are told apart by how the turns they cite hold the
answer (:func:`_evidence_as`: as said, once relative dates are resolved, only with the
session's day, other words, no relative date), each by cause. With ``--split``, the
``split`` misses by shape (:func:`split_shapes`): held over items made from the cited
turns (one turn, one session, several) or scattered over items about other things.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import sys
from collections.abc import Iterator
from datetime import datetime
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


def _memories(
    memory_root: Path, prepared: Path, s: ModuleType
) -> Iterator[tuple[str, Path, Any, list[set[str]]]]:
    """Each conversation with a memory: its id, its folder in the set, the scorer's BM25
    over the memory's items, and each item's words."""
    for conv in sorted(p.name for p in memory_root.iterdir() if p.is_dir()):
        conv_dir = prepared / "conversations" / conv
        files = s.corpus_for(str(conv_dir), conv, "memory", str(memory_root))
        items = [item for text in s.read_files(files) for item in s.split_items(text)]
        if items:
            bm = s.BM25(items)
            yield conv, conv_dir, bm, [set(t) for t in bm.toks]


def misses(
    memory_root: Path, prepared: Path, s: ModuleType, *, extracted: bool = False
) -> dict[str, collections.Counter[str]]:
    """Per category, how many scored probes fall under each cause."""
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    out: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for conv, conv_dir, bm, item_words in _memories(memory_root, prepared, s):
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
    for conv, _, bm, item_words in _memories(memory_root, prepared, s):
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


_TURN = re.compile(r"^D(\d+):")


def _said_at(conv_dir: Path) -> dict[str, datetime]:
    """Each session of a conversation ("session_3") and when it was held."""
    index = json.loads((conv_dir / "conversation.json").read_text(encoding="utf-8"))
    return {
        f"session_{entry['index']}": datetime.fromisoformat(entry["datetime"])
        for entry in index["sessions"]
    }


def _evidence_as(
    probe: dict[str, Any], words: set[str], s: ModuleType, at: dict[str, datetime]
) -> str:
    """How the turns a probe cites hold its answer's words: ``as-said`` (in their words);
    ``resolved`` (once their relative dates are made absolute against their session's
    day, as gathering writes them); ``session-day`` (only with the session's day beside
    them: an answer written relative to it, "the Friday before <that day>");
    ``relative-other`` (a relative date that gives other words); ``inferred`` (neither)."""
    from dreamgit.dream.gather.dates import past_times, resolve_dates
    from dreamgit.extract.calendar_words import day_text

    said: set[str] = set()
    resolved: set[str] = set()
    days: set[str] = set()
    relative = False
    for ref, line in zip(probe["evidence"], probe["evidence_text"], strict=False):
        turn = _TURN.match(ref)
        when = at.get(f"session_{turn[1]}") if turn else None
        text = line.partition(": ")[2] or line
        said |= set(s.tokens(text))
        relative = relative or bool(past_times(text))
        if when is not None:
            resolved |= set(s.tokens(resolve_dates(text, when)[0]))
            days |= set(s.tokens(day_text(when.date())))
    if words <= said:
        return "as-said"
    if words <= said | resolved:
        return "resolved"
    if relative and words <= said | resolved | days:
        return "session-day"
    return "relative-other" if relative else "inferred"


def temporal(memory_root: Path, prepared: Path, s: ModuleType) -> dict[str, Any]:
    """The temporal probes by how their cited turns hold the answer (:func:`_evidence_as`)
    and, for each, by cause (:func:`_cause`)."""
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    out: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for conv, conv_dir, bm, item_words in _memories(memory_root, prepared, s):
        raw = s.read_files(glob.glob(os.path.join(conv_dir, "sessions", "*.txt")))
        raw_words = {w for text in raw for w in s.tokens(text)}
        at = _said_at(conv_dir)
        for probe in probes:
            if probe["conversation"] != conv or probe["category"] != "temporal":
                continue
            words = {w for key in s.answer_keys(probe) for w in s.tokens(key)}
            if words:
                cause = _cause(s, bm, item_words, words, probe, raw_words)
                out[_evidence_as(probe, words, s, at)][cause] += 1
    return out


#: Words besides the answer's that an item must share with the turns a probe cites to
#: count as made from them: fewer, and any item with a common word or two would.
_FROM_CITED = 3


def split_shapes(memory_root: Path, prepared: Path, s: ModuleType) -> collections.Counter[str]:
    """The ``split`` misses (every answer word in memory, no one item holding them all,
    nor the items retrieved) by shape. ``cited``: the items made from the turns the
    probe cites (each sharing :data:`_FROM_CITED` other words with them) hold the answer
    together, the cited turns being one turn (a statement's clauses cut apart), turns of
    one session (statements that belong together) or of several sessions (facts of
    different days), the items all notes or not; ``scattered``: they do not, and the
    answer's words meet only over items about other things (it was not kept as said)."""
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    out: collections.Counter[str] = collections.Counter()
    for conv, _, bm, item_words in _memories(memory_root, prepared, s):
        held = set().union(*item_words)
        for probe in probes:
            if probe["conversation"] != conv or probe["category"] in s.UNSCORED:
                continue
            words = {w for key in s.answer_keys(probe) for w in s.tokens(key)}
            if not words or not words <= held or any(words <= w for w in item_words):
                continue
            if words <= {w for i in bm.take(probe["question"], BUDGET) for w in bm.toks[i]}:
                continue  # the items retrieved hold it together: a hit
            out[_split_shape(probe, words, s, bm.docs, item_words)] += 1
    return out


def _split_shape(
    probe: dict[str, Any],
    words: set[str],
    s: ModuleType,
    docs: list[str],
    item_words: list[set[str]],
) -> str:
    cited = set(s.tokens(" ".join(t.partition(": ")[2] or t for t in probe["evidence_text"])))
    made = [
        i for i, w in enumerate(item_words) if w & words and len((w - words) & cited) >= _FROM_CITED
    ]
    if not made or not words <= set().union(*(item_words[i] for i in made)):
        return "scattered"
    sessions = len(set(probe.get("evidence_session_ids") or []))
    turns = (
        "one-turn"
        if len(probe["evidence"]) == 1
        else "one-session"
        if sessions == 1
        else "sessions"
    )
    kind = "notes" if all(_note(docs[i]) for i in made) else "mixed"
    return f"cited {turns} {kind}"


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
    parser.add_argument(
        "--temporal",
        action="store_true",
        help="temporal probes: does the cited turn say the answer, or only a relative date?",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="answers held only over several items: by shape of the items and the turns cited",
    )
    args = parser.parse_args()
    prepared = args.eval_dir / args.set
    if args.split:
        shapes = split_shapes(args.memory_root, prepared, load_scorer(args.eval_dir))
        print("all", sum(shapes.values()), dict(shapes.most_common()))
        return
    if args.temporal:
        for evidence, counts in sorted(
            temporal(args.memory_root, prepared, load_scorer(args.eval_dir)).items()
        ):
            print(evidence, sum(counts.values()), dict(counts.most_common()))
        return
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
