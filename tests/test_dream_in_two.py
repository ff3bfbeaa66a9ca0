"""A store's first dream with its cold work done in two processes: the same dream.

With nothing kept, a dream reads every memory's content words ahead, half in a forked
child (``dream/read_ahead.py``), and its first merge pass shares the topics with a child
(``consolidate/topic_turns.py``), reading the notes' restatement keys in the same turns.
Split or not, it gives the same operations, run id and trees, and keeps the same word
sets, judged pairs and restatements for the next run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream import read_ahead
from dreamgit.dream.consolidate import fork_turns, topic_turns
from dreamgit.extract.frame import parse_frame
from dreamgit.store import forkhalves
from dreamgit.textsim import features
from dreamkit import build_repo, forced_dream

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

#: The kept caches compared, with the query that reads each one's content.
_KEPT = {
    "content-words.sqlite3": "SELECT text, value FROM readings",
    "features.sqlite3": "SELECT text, value FROM readings",
    "frames.sqlite3": "SELECT text, value FROM readings",
    "pairs.sqlite3": "SELECT a, b, score FROM pairs",
    "contained.sqlite3": "SELECT sign, grp, phrases, capped FROM notes",
}


def _dreamt(root: Path) -> tuple[Any, dict[str, list[Any]]]:
    repo = build_repo(root, bare=True)
    features.cache_clear()  # as in a fresh process: every text asked of the kept readings
    parse_frame.cache_clear()
    dreamt = forced_dream(repo)
    cache = repo.store.git_dir / "dreamgit" / "cache"
    kept = {}
    for name, query in _KEPT.items():
        with sqlite3.connect(cache / name) as db:
            kept[name] = sorted(db.execute(query))
    return dreamt, kept


def test_a_first_dream_split_in_two_processes_is_the_dream_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _dreamt(tmp_path / "alone")
    assert any(op == "merge" for op, *_rest in alone[0][0][1])
    splits: list[str] = []
    for module in (read_ahead, topic_turns):
        monkeypatch.setattr(module, "SPLIT_AT", 2)
    for module in (read_ahead, fork_turns):  # (topic_turns forks through fork_turns)
        monkeypatch.setattr(module, "in_two", _counted(splits, module.__name__))
    assert _dreamt(tmp_path / "split") == alone
    assert set(splits) == {read_ahead.__name__, fork_turns.__name__}


def _counted(splits: list[str], name: str) -> Callable[..., Any]:
    def split(items: Any, work: Any, *, at_least: int) -> Any:
        splits.append(name)
        return forkhalves.in_two(items, work, at_least=at_least)

    return split
