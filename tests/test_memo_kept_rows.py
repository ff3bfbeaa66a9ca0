"""A memo's kept readings: read as asked, and dropped only by a run that knows they are stale.

A warm dream asks the memos for the readings of its new and changed memories alone (the
kept layers above answer for the rest): it reads no other row, and it cannot tell a
stale row from one it did not need, so it drops none; a run that took most of the kept
readings (it read every text in use) drops the rest when they are more than a quarter.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.store.keptframes import KeptReadings
from dreamgit.store.lookedreadings import LookedUpReadings

KEPT = {f"Said sentence number {k}.": json.dumps([k]) for k in range(12)}
TEXTS = list(KEPT)


class _JsonCodec:
    def encode(self, value: object) -> str:
        return json.dumps(value)

    def decode(self, text: str) -> object:
        return json.loads(text)


def _kept(tmp_path: Path) -> KeptReadings:
    kept = KeptReadings(tmp_path, fingerprint="this code", kind="frames")
    kept.save(KEPT, [], 0)
    return kept


def _rows(kept: KeptReadings) -> set[str]:
    with sqlite3.connect(kept.path) as db:
        return {text for (text,) in db.execute("SELECT text FROM readings")}


def _run(kept: KeptReadings, asked: list[str]) -> list[object]:
    """A run of a memo asking for ``asked`` (each unknown one read as its length)."""
    memo: Memo[object] = Memo(kept, _JsonCodec())
    try:
        found = [memo.read(text, len) for text in asked]
        memo.save()
    finally:
        memo.close()
    return found


def test_a_run_asking_for_few_readings_reads_no_other_row_and_drops_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two kept texts and a new one asked: the whole table is neither loaded nor listed,
    the ten not asked stay, and the new reading is kept."""
    kept = _kept(tmp_path)

    def whole(*_args: object) -> None:
        raise AssertionError("the whole table read")

    monkeypatch.setattr(LookedUpReadings, "__iter__", whole)
    monkeypatch.setattr(LookedUpReadings, "_rest", whole)
    assert _run(kept, [TEXTS[0], TEXTS[5], "A new sentence."]) == [[0], [5], 15]
    assert _rows(kept) == {*TEXTS, "A new sentence."}


def test_a_run_that_took_most_readings_drops_the_unused_when_many(tmp_path: Path) -> None:
    """Eight of twelve taken (the four left are more than a quarter): those four go; nine
    taken (three left, a quarter): they stay."""
    kept = _kept(tmp_path)
    _run(kept, TEXTS[:9])
    assert _rows(kept) == set(TEXTS)
    assert _run(kept, TEXTS[:8]) == [[k] for k in range(8)]
    assert _rows(kept) == set(TEXTS[:8])


def test_readings_looked_up_count_down_as_the_loaded_map_would(tmp_path: Path) -> None:
    """``len`` of the looked-up readings is the loaded map's after the same pops."""
    kept = _kept(tmp_path)
    loaded, looked = _table(kept), kept.looked_up()
    for text in [TEXTS[0], "Never kept.", TEXTS[0], TEXTS[3]]:
        assert looked.pop(text) == loaded.pop(text, None)
        assert len(looked) == len(loaded)
    kept.close()


def _table(kept: KeptReadings) -> dict[str, str]:
    """Every reading the database holds, as a map (what the memo loaded whole before)."""
    with closing(sqlite3.connect(kept.path)) as db:
        return dict(db.execute("SELECT text, value FROM readings"))
