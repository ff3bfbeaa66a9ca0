"""Tests for dreamgit.store.keptpairs: the judged set saved as its difference from the load."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dreamgit.store.keptpairs import Judged, KeptPairs


def _kept(tmp_path: Path) -> KeptPairs:
    return KeptPairs(tmp_path, fingerprint="finder-code")


def _set(items: str, pairs: dict[tuple[str, str], float]) -> Judged:
    return Judged(set(items.split()), pairs)


def test_each_save_leaves_exactly_the_set_it_was_given(tmp_path: Path) -> None:
    """Saves that add, drop and keep items and pairs: each load is the last set saved."""
    sets = [
        _set("a b c d", {("a", "b"): 0.9}),
        _set("a b d e f", {("a", "b"): 0.9, ("e", "f"): 0.85}),
        _set("b e f", {("e", "f"): 0.85}),
        _set("", {}),
        _set("g h", {("g", "h"): 1.0}),
    ]
    for after in sets:
        kept = _kept(tmp_path)
        kept.save(kept.load(), after)
        loaded = _kept(tmp_path).load()
        assert (loaded.items, loaded.pairs) == (after.items, after.pairs)


def test_a_save_after_another_process_saved_writes_its_whole_set(tmp_path: Path) -> None:
    """Two runs load the same set; the later save is not a difference from a load that
    no longer holds: the database is that run's set, nothing of the other's left."""
    first = _kept(tmp_path)
    first.save(first.load(), _set("a b c", {("a", "b"): 0.9}))
    one, other = _kept(tmp_path), _kept(tmp_path)
    loaded_one, loaded_other = one.load(), other.load()
    other.save(loaded_other, _set("a b c x y", {("x", "y"): 0.8}))
    one.save(loaded_one, _set("a b z", {("a", "z"): 0.95}))
    loaded = _kept(tmp_path).load()
    assert (loaded.items, loaded.pairs) == ({"a", "b", "z"}, {("a", "z"): 0.95})


def test_a_save_counts_itself_and_an_unchanged_set_writes_nothing(tmp_path: Path) -> None:
    """Each save that changes the set counts one generation; the same set saves nothing."""
    kept = _kept(tmp_path)
    kept.save(kept.load(), _set("a b", {("a", "b"): 0.9}))
    loaded = _kept(tmp_path).load()
    _kept(tmp_path).save(loaded, _set("a b", {("a", "b"): 0.9}))
    assert _kept(tmp_path).load().generation == loaded.generation == 1
    _kept(tmp_path).save(loaded, _set("a b c", {("a", "b"): 0.9}))
    assert _kept(tmp_path).load().generation == 2


def test_a_set_of_other_code_is_read_as_empty_and_saved_whole(tmp_path: Path) -> None:
    """A database another fingerprint wrote is emptied: the load is empty, the save whole."""
    kept = _kept(tmp_path)
    kept.save(kept.load(), _set("a b c", {("a", "b"): 0.9}))
    other = KeptPairs(tmp_path, fingerprint="other-code")
    loaded = other.load()
    assert (loaded.items, loaded.pairs) == (set(), {})
    other.save(loaded, _set("c d", {("c", "d"): 0.8}))
    with sqlite3.connect(other.path) as db:
        assert sorted(i for (i,) in db.execute("SELECT item FROM judged")) == ["c", "d"]
