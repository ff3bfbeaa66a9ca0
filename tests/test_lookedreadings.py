"""Kept readings looked up as asked: the readings the whole map gave, without the map."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

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
    looked = kept.looked_up()
    assert isinstance(looked, LookedUpReadings)
    return looked


@pytest.mark.parametrize("many", [100, 2])
def test_each_text_gives_its_kept_reading_once_and_the_rest_are_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, many: int
) -> None:
    """Looked up one by one, or the rest loaded once many were asked: a text's reading is
    the one kept, taken once (a second ask, like an unknown text, finds none), and the
    texts left are those not taken, as the loaded map's pops left them."""
    monkeypatch.setattr(lookedreadings, "_MANY", many)
    kept = _kept(tmp_path)
    loaded, looked = dict(KEPT), _looked(kept)
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


def test_a_save_of_other_code_after_the_open_is_not_seen(tmp_path: Path) -> None:
    """A process of other code that empties the database and keeps its own readings while
    ours is open: the readings looked up are still the ones kept when it was opened."""
    kept = _kept(tmp_path)
    looked = _looked(kept)
    assert looked.pop(FIRST) == KEPT[FIRST]
    other = KeptReadings(tmp_path, fingerprint="other code", kind="features")
    other.save({text: '["another reading"]' for text in KEPT}, [], 0)
    second = list(KEPT)[1]
    assert looked.pop(second) == KEPT[second]
    assert sorted(looked) == sorted(list(KEPT)[2:])
    looked.close()
    assert _looked(kept).pop(second) is None  # opened again: other code's, emptied


def test_a_save_of_this_code_after_the_open_is_not_seen_half_or_whole(tmp_path: Path) -> None:
    """Another process of this code saving new readings and dropping old ones while ours
    is open changes nothing it gives: one snapshot from the open to the close."""
    kept = _kept(tmp_path)
    looked = _looked(kept)
    writer = KeptReadings(tmp_path, fingerprint="this code", kind="features")
    writer.save({"A new sentence.": '["new"]'}, list(KEPT), len(KEPT))
    assert looked.pop("A new sentence.") is None
    assert [looked.pop(t) for t in KEPT] == list(KEPT.values())
    looked.close()
    again = _looked(kept)
    assert (len(again), again.pop("A new sentence.")) == (1, '["new"]')
    again.close()


def test_a_database_of_other_code_since_the_open_gives_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When other code's readings replaced ours between the connection's fingerprint check
    and the read transaction's start, the readings are none of ours: nothing is given."""
    kept = _kept(tmp_path)
    opened = kept._open

    def replaced_after_the_check() -> Any:
        block = opened()
        db = block.__enter__()
        db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")
        db.execute("UPDATE readings SET value = '[\"another reading\"]'")
        return _Entered(block, db)

    monkeypatch.setattr(kept, "_open", replaced_after_the_check)
    looked = _looked(kept)
    assert (len(looked), looked.pop(FIRST), list(looked)) == (0, None, [])


def test_a_save_and_another_load_let_the_looked_up_readings_go(tmp_path: Path) -> None:
    """The memo's save (the readings left as unused) ends the read of ``looked_up``; the next
    lookup reads what the save kept: the new reading, the unused ones dropped."""
    kept = _kept(tmp_path)
    looked = _looked(kept)
    assert looked.pop(FIRST) == KEPT[FIRST]
    kept.save({"A new sentence.": '["new"]'}, list(looked), len(looked))
    assert looked._db is None
    again = _looked(kept)
    found = (len(again), again.pop(FIRST), again.pop("A new sentence."))
    assert found == (2, KEPT[FIRST], '["new"]')
    _looked(kept)
    assert again._db is None
    kept.close()


class _Entered:
    """A context manager already entered: gives ``db``, exits ``block``."""

    def __init__(self, block: Any, db: sqlite3.Connection) -> None:
        self._block, self._db = block, db

    def __enter__(self) -> sqlite3.Connection:
        return self._db

    def __exit__(self, *exc: object) -> None:
        self._block.__exit__(*exc)
