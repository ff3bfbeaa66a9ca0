"""Many texts new to a kept word index are read in two processes, with the one-process
answers and database."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path

import pytest

from dreamgit.dream.gather.compact import content_words
from dreamgit.store import forkhalves, keptpostings
from dreamgit.store.keptpostings import KeptPostings

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

_WORDS = ["teapot", "harbour", "bicycle", "scarf", "stone", "record", "porto", "market", "12"]


def _texts(seed: int, count: int) -> list[str]:
    """Sentences of a few words each, some standing twice."""
    rng = random.Random(seed)
    texts = [" ".join(rng.sample(_WORDS, rng.randint(1, 4))) + f" {k}" for k in range(count)]
    return [*texts, *rng.sample(texts, count // 5)]


def _forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the forks ``in_two`` makes from now on."""
    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(forkhalves.os, "fork", counted_fork)
    return forks


def _runs(
    git_dir: Path, read: Callable[[str], Iterable[str]]
) -> tuple[list[dict[str, list[int]]], list[tuple[object, ...]]]:
    """Two runs' answers (the second over texts partly new to the index) and the rows the
    database holds after them."""
    answers = []
    for texts in (_texts(1, 60), _texts(2, 30) + _texts(1, 60)[::2]):
        index = KeptPostings(git_dir, fingerprint="code", kind="content-words")
        answers.append(index.holders(texts, {"teapot", "12", "7", "absent"}, read))
        answers.append(index.holders(texts[::3], {"porto", "market"}, read))
        index.save()
    with sqlite3.connect(git_dir / "dreamgit" / "cache" / "content-words-postings.sqlite3") as db:
        rows = db.execute("SELECT * FROM texts ORDER BY text").fetchall()
        rows += db.execute("SELECT * FROM postings ORDER BY word").fetchall()
    return answers, rows


def test_texts_new_to_the_index_read_in_two_processes_give_the_one_process_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keptpostings, "SPLIT_AT", 10**9)
    forks = _forks(monkeypatch)
    alone = _runs(tmp_path / "alone", content_words)
    assert forks == []
    monkeypatch.setattr(keptpostings, "SPLIT_AT", 8)
    assert _runs(tmp_path / "split", content_words) == alone
    assert forks == [1, 1]  # each run's first query; the second's new texts are few
    assert len(alone[0][0]["teapot"]) > 5


def test_a_reading_in_the_child_sees_none_of_the_run_s_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child reads without the memo a dream sets (it writes to the parent's database)."""
    keeper: ContextVar[str | None] = ContextVar("keeper", default=None)
    keeper.set("memo")

    def read(text: str) -> set[str]:
        return content_words(text) | ({"memo"} if keeper.get() else set())

    monkeypatch.setattr(keptpostings, "SPLIT_AT", 8)
    texts = _texts(1, 60)
    index = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    found = index.holders(texts, {"memo"}, read)
    assert {texts[k] for k in found["memo"]} == set(texts[:30])  # of the 60 new, in order


@pytest.mark.parametrize("how", ["killed", "raises"])
def test_a_child_that_dies_or_fails_leaves_the_one_process_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(keptpostings, "SPLIT_AT", 10**9)
    alone = _runs(tmp_path / "alone", content_words)
    parent = os.getpid()

    def read(text: str) -> set[str]:
        if os.getpid() != parent:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("the child fails")
        return content_words(text)

    monkeypatch.setattr(keptpostings, "SPLIT_AT", 8)
    forks = _forks(monkeypatch)
    assert _runs(tmp_path / "split", read) == alone
    assert forks == [1, 1]
