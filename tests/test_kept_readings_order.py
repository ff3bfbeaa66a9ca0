"""Kept readings are written in the order of their key, whatever order a run asked them in.

A run asks for texts in the order of its memories, no order of the table's key: rows
written so split the table's pages all over its tree (half-empty pages, and each split
page written again through the WAL). Written in key order they append, and the database
holds the same rows in fewer pages.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from dreamgit.store.keptframes import KeptReadings

_ROWS = 3000


def _readings(seed: int) -> dict[str, str]:
    """``_ROWS`` texts of a few words each with a reading of a few hundred characters, in
    an order of ``seed``."""
    rng = random.Random(seed)
    words = ["deploy", "budget", "garden", "python", "review", "weekly", "tokyo", "cello"]
    texts = [
        f"{rng.choice(words)} {k} {rng.choice(words)} is {rng.random():.6f}" for k in range(_ROWS)
    ]
    rng.shuffle(texts)
    return {
        t: f'[["{t}"], {rng.random():.9f}, "{" ".join(rng.choices(words, k=40))}"]' for t in texts
    }


def _saved(git_dir: Path, readings: dict[str, str]) -> KeptReadings:
    kept = KeptReadings(git_dir, fingerprint="one code", kind="frames")
    kept.save(readings, [], 0)
    return kept


def _rows(kept: KeptReadings) -> dict[str, str]:
    """Every reading the database holds (a memo looks them up one by one: ``looked_up``)."""
    with sqlite3.connect(kept.path) as db:
        return dict(db.execute("SELECT text, value FROM readings"))


def _pages(kept: KeptReadings) -> int:
    with sqlite3.connect(kept.path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        count: int = db.execute("PRAGMA page_count").fetchone()[0]
    return count


def test_readings_saved_in_any_order_are_kept_whole(tmp_path: Path) -> None:
    readings = _readings(seed=7)
    kept = _saved(tmp_path / "a.git", readings)
    assert _rows(kept) == readings


def test_readings_saved_in_a_run_s_order_fill_as_few_pages_as_in_key_order(
    tmp_path: Path,
) -> None:
    readings = _readings(seed=11)
    in_key_order = dict(sorted(readings.items()))
    assert list(in_key_order) != list(readings)  # the run's order is another
    asked = _saved(tmp_path / "asked.git", readings)
    sorted_ = _saved(tmp_path / "sorted.git", in_key_order)
    assert _rows(asked) == _rows(sorted_) == readings
    assert _pages(asked) == _pages(sorted_)
