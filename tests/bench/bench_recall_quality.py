"""Recall quality: ``recall QUESTION --chars 1500`` against the shared scorer's own BM25.

Usage::

    python tests/bench/bench_recall_quality.py MEMORY_ROOT [--eval-dir DIR] [--set locomo]
                                               [--conversations ID ...] [--cli]

``MEMORY_ROOT`` holds what a dream kept, one file per memory, ``MEMORY_ROOT/<conv>/<id>.md``
(what ``bench_quality.py --memory-root`` writes, following the development set's
protocol). For each conversation the memories go into a fresh dreamgit repository
(one commit); then every scored probe's question is asked twice:

- **scorer**: the shared scorer's BM25 over the same memory files, best items until
  1,500 characters (its ``take``);
- **recall**: dreamgit's recall over the repository with ``chars=1500`` (the library
  call ``dreamgit recall QUESTION --chars 1500`` makes; ``--cli`` runs the command
  itself for every question, which is much slower), leaving no signal.

A probe is answered when every content word of its answer is in the returned text,
judged by the scorer's own functions (imported from the development set at run time;
nothing of the set is copied). Both are printed per category and overall (the
scorer's categories and its "overall", which leaves out the unscored ones).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from dreamgit.gitstore import GitStore, Identity
from dreamgit.ids import memory_id
from dreamgit.model import Memory
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import recall
from dreamgit.store.config import DEFAULT_CONFIG
from dreamgit.store.layout import EMPTY_INDEX
from dreamgit.store.memoryfile import render_memory
from dreamgit.store.repo import MemoryRepo

REPO_ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
BUDGET = 1500


def default_eval_dir() -> Path:
    """``../shared/eval-dev`` beside the repository (or beside the worktrees' folder)."""
    for base in (REPO_ROOT.parent, REPO_ROOT.parent.parent):
        if (base / "shared" / "eval-dev").is_dir():
            return base / "shared" / "eval-dev"
    return REPO_ROOT.parent / "shared" / "eval-dev"


def load_scorer(eval_dir: Path) -> ModuleType:
    """The shared scorer as a module (its functions judge both sides)."""
    spec = importlib.util.spec_from_file_location("score_memory", eval_dir / "score_memory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_repo(path: Path, texts: list[str]) -> MemoryRepo:
    """A repository whose active memories are ``texts`` (one commit)."""
    files: dict[str, bytes | None] = {
        ".dreamgit/config.yaml": DEFAULT_CONFIG.encode(),
        "MEMORY.md": EMPTY_INDEX.encode(),
    }
    for k, text in enumerate(texts):
        memory = Memory(
            id=memory_id("bench", text, str(k)),
            topic="facts",
            slug=f"m{k}",
            text=text,
            created=NOW,
            updated=NOW,
        )
        files[memory.path] = render_memory(memory).encode()
    store = GitStore.init(path, bare=True)
    tree = store.build_tree(None, files)
    store.commit(
        "main", parents=[], tree=tree, message="bench: memory", who=Identity("b", "b@x"), when=NOW
    )
    return MemoryRepo.open(path)


def _recall_text(repo: MemoryRepo, question: str, cli: bool) -> str:
    if not cli:
        result = recall(repo, RecallQuery(question, chars=BUDGET, record=False), now=NOW)
        return "\n".join(h.memory.text for h in result.hits)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "dreamgit",
            "--repo",
            str(repo.store.git_dir),
            "recall",
            question,
            "--chars",
            str(BUDGET),
            "--no-record",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return "\n".join(r["text"] for r in json.loads(out.stdout)["results"])


def main() -> None:
    """Score both retrievals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("memory_root", type=Path)
    parser.add_argument("--eval-dir", type=Path, default=default_eval_dir())
    parser.add_argument("--set", default="locomo")
    parser.add_argument("--conversations", nargs="*", default=[])
    parser.add_argument("--cli", action="store_true", help="run the command per question")
    args = parser.parse_args()
    sm = load_scorer(args.eval_dir)
    prepared = args.eval_dir / args.set
    probes = json.loads((prepared / "probes.json").read_text(encoding="utf-8"))
    by_conv: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for p in probes:
        by_conv[p["conversation"]].append(p)
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    with tempfile.TemporaryDirectory() as tmp:
        for conv in args.conversations or sorted(by_conv):
            files = sorted((args.memory_root / conv).glob("**/*.md"))
            texts = [f.read_text(encoding="utf-8").strip() for f in files]
            texts = [t for t in texts if t]
            items = [it for t in texts for it in sm.split_items(t)]
            bm = sm.BM25(items)
            repo = build_repo(Path(tmp) / conv, texts)
            for p in by_conv[conv]:
                keys = sm.answer_keys(p)
                if p["category"] in sm.UNSCORED or not keys:
                    continue
                got = bm.take(p["question"], BUDGET) if items else []
                scorer_tokens = {w for i in got for w in bm.toks[i]}
                ours = set(sm.tokens(_recall_text(repo, p["question"], args.cli)))
                base = sm.key_recall(keys, scorer_tokens)
                if base is None:
                    continue
                c = counts[p["category"]]
                c["scored"] += 1
                c["scorer"] += base >= 0.999
                c["recall"] += (sm.key_recall(keys, ours) or 0) >= 0.999
    total: collections.Counter[str] = collections.Counter()
    print(f"{'category':<16}{'scorer BM25':>12}{'dreamgit recall':>17}{'scored':>8}")
    for cat in sorted(counts):
        c = counts[cat]
        if cat not in sm.SOFT:
            total.update(c)
        print(f"{cat:<16}{c['scorer']:>12}{c['recall']:>17}{c['scored']:>8}")
    print(f"{'overall':<16}{total['scorer']:>12}{total['recall']:>17}{total['scored']:>8}")
    if total["scored"]:
        print(
            f"hit@{BUDGET}: scorer {total['scorer'] / total['scored']:.3f}, "
            f"dreamgit recall {total['recall'] / total['scored']:.3f}"
        )


if __name__ == "__main__":
    main()
