"""Kept readings looked up as asked: the readings the whole map gave, without the map."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dreamgit.store import lookedreadings
from dreamgit.store.keptframes import KeptReadings
from dreamgit.store.lookedreadings import LookedUpReadings

KEPT = {f"Said sentence number {k}.": f'["word{k}"]' for k in range(6)}
FIRST = "Said sentence number 0."


def _kept(tmp_path: Path) -> KeptReadings:
    kept = KeptReadings(tmp_path, fingerprint="this code", kind="features")
    kept.save(KEPT, [], 0)
    return kept


def _looked(kept: KeptReadings) -> LookedUpReadings:
    return LookedUpReadings(kept.path, kept._open)


@pytest.mark.parametrize("many", [100, 2])
def test_each_text_gives_its_kept_reading_once_and_the_rest_are_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, many: int
) -> None:
    """Looked up one by one, or the rest loaded once many were asked: a text's reading is
    the one kept, taken once (a second ask, like an unknown text, finds none), and the
    texts left are those not taken, as the loaded map's pops left them."""
    monkeypatch.setattr(lookedreadings, "_MANY", many)
    kept = _kept(tmp_path)
    loaded, looked = kept.load(), _looked(kept)
    assert len(looked) == len(loaded) == len(KEPT)
    texts = [*list(KEPT)[:4], "Never kept.", list(KEPT)[1]]
    assert [looked.pop(t) for t in texts] == [loaded.pop(t, None) for t in texts]
    assert sorted(looked) == sorted(loaded) == sorted(list(KEPT)[4:])
    looked.close()


def test_the_readings_are_not_loaded_when_few_texts_are_asked(tmp_path: Path) -> None:
    """Asking for two texts runs a query of the key for each, none over the whole table."""
    kept = _kept(tmp_path)
    looked = _looked(kept)
    queries: list[str] = []
    assert looked._db is not None
    looked._db.set_trace_callback(queries.append)
    assert looked.pop(FIRST) == KEPT[FIRST]
    assert looked.pop("Never kept.") is None
    assert queries == [
        f"SELECT value FROM readings WHERE text = '{text}'" for text in (FIRST, "Never kept.")
    ]
    looked.close()


def test_a_damaged_database_is_a_miss_and_is_deleted(tmp_path: Path) -> None:
    """A file that is not a database gives no reading, no text, and is removed (the next
    save builds it again)."""
    kept = KeptReadings(tmp_path, fingerprint="this code", kind="features")
    kept.path.parent.mkdir(parents=True)
    kept.path.write_bytes(b"not a database, " * 64)
    looked = _looked(kept)
    assert (len(looked), looked.pop(FIRST), list(looked)) == (0, None, [])
    assert not kept.path.exists()
    kept.save(KEPT, [], 0)
    assert _looked(kept).pop(FIRST) == KEPT[FIRST]


def test_readings_of_other_code_are_not_given(tmp_path: Path) -> None:
    """A database kept by other code (another fingerprint) is emptied when opened."""
    _kept(tmp_path)
    other = KeptReadings(tmp_path, fingerprint="other code", kind="features")
    looked = _looked(other)
    assert (len(looked), looked.pop(FIRST)) == (0, None)
    looked.close()
    with sqlite3.connect(other.path) as db:
        assert db.execute("SELECT count(*) FROM readings").fetchone()[0] == 0
