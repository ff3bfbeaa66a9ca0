"""Word sets read ahead in two processes when none was kept: the same sets, kept alike.

``dream/read_ahead.py`` reads the sets of the texts a kept index is first asked about,
half of them in a forked child, when the kind's memo had nothing kept; the memo takes
each where it would have read the text. Whether the split happens, the child dies or
the memo had sets kept (then nothing is read ahead), the answers and the kept sets are
the ones read one by one.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream import read_ahead
from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.dream.gather.compact import content_words
from dreamgit.dream.gather.sharing import CONTENT_HOLDERS
from dreamgit.dream.read_ahead import ReadAhead
from dreamgit.dream.word_memo import keeping_words
from dreamgit.extract.holders import FEATURE_HOLDERS, holders
from dreamgit.store import forkhalves
from dreamgit.store.keptframes import KeptReadings
from dreamgit.textsim import features

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

TEXTS = [
    f"Fact {n}: the kettle number {n % 7} whistles at dawn in room {n % 5}." for n in range(40)
]
WORDS = frozenset({"kettle", "dawn", "3", "room"})
_KEEPER: ContextVar[Any] = ContextVar("test_read_ahead_keeper", default=None)


class _Codec:
    def encode(self, value: frozenset[str]) -> str:
        return " ".join(sorted(value))

    def decode(self, text: str) -> frozenset[str]:
        return frozenset(text.split())


def _words(text: str) -> frozenset[str]:
    return frozenset(text.lower().rstrip(".").split())


def _asked(
    git_dir: Path, fresh: Callable[[str], frozenset[str]], *, cold: bool
) -> tuple[dict[str, list[int]], list[frozenset[str]]]:
    """The holders of ``WORDS`` among ``TEXTS`` and each text's set, through a memo kept in
    ``git_dir`` and a read-ahead over it (texts read by ``_words`` through the keeper)."""
    memo: Memo[frozenset[str]] = Memo(KeptReadings(git_dir, fingerprint="code"), _Codec())

    def index(texts: Any, words: Any, read: Any) -> dict[str, list[int]]:
        return holders(texts, words, read, ContextVar("none", default=None))

    ahead = ReadAhead(memo, index, fresh, _KEEPER, cold=cold)

    def read(text: str) -> frozenset[str]:
        return ahead.read(text, _words)

    found = ahead.holders(TEXTS, WORDS, read)
    sets = [read(text) for text in TEXTS]
    memo.save()
    memo.close()
    return found, sets


def _kept(git_dir: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(git_dir / "dreamgit" / "cache" / "frames.sqlite3") as db:
        return sorted(db.execute("SELECT text, value FROM readings"))


def _one_by_one(tmp_path: Path) -> tuple[Any, list[tuple[str, str]]]:
    """The answers and kept sets with nothing read ahead (the memo reads each text)."""
    answer = _asked(tmp_path / "one", _words, cold=False)
    return answer, _kept(tmp_path / "one")


def test_sets_read_ahead_in_a_child_are_those_read_one_by_one_and_kept_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_ahead, "SPLIT_AT", 8)
    read_here: list[str] = []

    def fresh(text: str) -> frozenset[str]:
        read_here.append(text)  # the child's list is its own
        return _words(text)

    answer = _asked(tmp_path / "ahead", fresh, cold=True)
    assert read_here == TEXTS[: len(TEXTS) // 2]  # the second half was read in the child
    assert (answer, _kept(tmp_path / "ahead")) == _one_by_one(tmp_path)


@pytest.mark.parametrize("how", ["killed", "raises"])
def test_a_child_that_dies_has_its_half_read_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(read_ahead, "SPLIT_AT", 8)
    parent = os.getpid()

    def fresh(text: str) -> frozenset[str]:
        if os.getpid() != parent:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("the child fails")
        return _words(text)

    answer = _asked(tmp_path / "ahead", fresh, cold=True)
    assert (answer, _kept(tmp_path / "ahead")) == _one_by_one(tmp_path)


@pytest.mark.parametrize("cold", [False, True], ids=["kept", "few-texts"])
def test_nothing_is_read_ahead_with_sets_kept_or_few_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: bool
) -> None:
    monkeypatch.setattr(read_ahead, "SPLIT_AT", 8 if not cold else len(TEXTS) + 1)

    def never(_some: Any, _work: Any, **_options: Any) -> list[Any]:
        raise AssertionError("read ahead")

    monkeypatch.setattr(read_ahead, "in_two", never)
    answer = _asked(tmp_path / "ahead", _words, cold=cold)
    assert (answer, _kept(tmp_path / "ahead")) == _one_by_one(tmp_path)


def _block(git_dir: Path) -> tuple[Any, Any]:
    """Each kind's holders and every text's features and content words in a dream's block."""
    features.cache_clear()  # as in a fresh process
    with keeping_words(git_dir):
        found = [
            holders(TEXTS, WORDS, content_words, CONTENT_HOLDERS),
            holders(TEXTS, WORDS, features, FEATURE_HOLDERS),
        ]
        sets = [(features(t), content_words(t)) for t in TEXTS]
    features.cache_clear()
    return found, sets


def _saved(git_dir: Path) -> list[Any]:
    cache = git_dir / "dreamgit" / "cache"
    found = []
    for kind in ("features", "content-words"):
        with sqlite3.connect(cache / f"{kind}.sqlite3") as db:
            found.append(sorted(db.execute("SELECT text, value FROM readings")))
    return found


def test_a_dream_block_reads_ahead_once_and_keeps_what_reading_one_by_one_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _block(tmp_path / "alone"), _saved(tmp_path / "alone")
    monkeypatch.setattr(read_ahead, "SPLIT_AT", 8)
    splits: list[int] = []

    def counted(items: Any, work: Any, *, at_least: int) -> list[Any]:
        splits.append(len(items))
        return forkhalves.in_two(items, work, at_least=at_least)

    monkeypatch.setattr(read_ahead, "in_two", counted)
    assert (_block(tmp_path / "split"), _saved(tmp_path / "split")) == alone
    assert splits == [len(TEXTS)]  # content words only: features are not read ahead
    splits.clear()
    assert _block(tmp_path / "split")[0] == alone[0][0]  # sets kept: nothing read ahead
    assert splits == []
