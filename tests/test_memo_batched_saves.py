"""A memo saves the readings it makes anew in batches as it goes, not all at its end.

Over 100,000 memories the new readings of every kind, held as JSON until the dream's end,
were ~115 MB of its peak; each batch of ``frame_memo.SAVE_EVERY`` is now saved in one
transaction and let go. A reader sees whole batches only, a run that stops halfway leaves
a cache the next run reads like any other, and the readings the run took from the kept
ones stay those of the snapshot it began with.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from dreamgit.dream.consolidate import frame_memo
from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.store.keptframes import KeptReadings
from dreamkit import MEMORIES
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh

KEPT = {f"Kept sentence number {k}.": json.dumps([k]) for k in range(4)}
NEW = [f"New sentence number {k}." for k in range(5)]


class _JsonCodec:
    def encode(self, value: object) -> str:
        return json.dumps(value)

    def decode(self, text: str) -> object:
        return json.loads(text)


@pytest.fixture(autouse=True)
def _batches_of_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame_memo, "SAVE_EVERY", 2)


def _kept(tmp_path: Path) -> KeptReadings:
    kept = KeptReadings(tmp_path, fingerprint="this code", kind="frames")
    kept.save(KEPT, [], 0)
    return kept


def _rows(kept: KeptReadings) -> dict[str, str]:
    with closing(sqlite3.connect(kept.path)) as db:
        return dict(db.execute("SELECT text, value FROM readings"))


def test_new_readings_are_saved_in_whole_batches_as_they_are_made(tmp_path: Path) -> None:
    """Five new texts in batches of two: another reader sees two, then four, then all five
    at the save, each as the memo encoded it; the kept ones stay."""
    kept = _kept(tmp_path)
    memo: Memo[object] = Memo(kept, _JsonCodec())
    seen = []
    try:
        for text in NEW:
            assert memo.read(text, len) == len(text)
            seen.append(len(_rows(kept)) - len(KEPT))
        memo.save()
    finally:
        memo.close()
    assert seen == [0, 2, 2, 4, 4]
    assert _rows(kept) == {**KEPT, **{text: json.dumps(len(text)) for text in NEW}}


def test_the_kept_readings_read_after_a_batch_are_those_the_run_began_with(
    tmp_path: Path,
) -> None:
    """A batch saved between two kept readings: the second is still the kept one, not read
    anew, and a text saved in a batch and asked again is read anew to the same reading."""
    kept = _kept(tmp_path)
    texts = list(KEPT)
    memo: Memo[object] = Memo(kept, _JsonCodec())
    asked: list[str] = []

    def read(text: str) -> int:
        asked.append(text)
        return len(text)

    try:
        assert memo.read(texts[0], read) == [0]
        assert [memo.read(t, read) for t in NEW[:2]] == [len(t) for t in NEW[:2]]
        assert memo.read(texts[1], read) == [1]
        assert memo.read(NEW[0], read) == len(NEW[0])
        memo.save()
    finally:
        memo.close()
    assert asked == [*NEW[:2], NEW[0]]


def test_a_run_that_stops_halfway_leaves_its_batches_for_the_next(tmp_path: Path) -> None:
    """A run stopped after three new texts (never saved) kept the first two; the next run
    reads those back without reading them, and reads the third."""
    kept = _kept(tmp_path)
    stopped: Memo[object] = Memo(kept, _JsonCodec())
    for text in NEW[:3]:
        stopped.read(text, len)
    stopped.close()
    assert set(_rows(kept)) == {*KEPT, *NEW[:2]}
    asked: list[str] = []

    def read(text: str) -> int:
        asked.append(text)
        return len(text)

    memo: Memo[object] = Memo(kept, _JsonCodec())
    try:
        assert [memo.read(t, read) for t in NEW[:3]] == [len(t) for t in NEW[:3]]
        memo.save()
    finally:
        memo.close()
    assert asked == [NEW[2]]


def test_a_batched_memo_saves_as_it_goes_and_drops_the_texts_not_in_use(tmp_path: Path) -> None:
    """A memo that loads what it is asked to prefetch: new readings saved in batches too,
    and at the save the kept texts not in use (more than a quarter) dropped."""
    kept = _kept(tmp_path)
    memo: Memo[object] = Memo(kept, _JsonCodec(), batched=True)
    try:
        memo.prefetch(NEW[:3])
        memo.hold(NEW[:3])
        assert [memo.read(t, len) for t in NEW[:3]] == [len(t) for t in NEW[:3]]
        assert set(_rows(kept)) == {*KEPT, *NEW[:2]}
        memo.save()
    finally:
        memo.close()
    assert set(_rows(kept)) == set(NEW[:3])


STATES = reading_states("frames", rows=4, wrong="null", unreadable=json.dumps([[[1, 2]], None, []]))


@pytest.mark.parametrize("prepare", STATES, ids=STATE_IDS)
def test_a_dream_saving_in_batches_of_two_is_the_dream_of_a_fresh_repository(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Every kind's new readings saved two by two, whatever state the kept frames were in:
    the same operations and trees as a fresh repository's dream."""
    same_dream_as_fresh(tmp_path, MEMORIES, prepare)
