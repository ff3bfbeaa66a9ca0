"""The duplicate finder's last answer, kept between processes: which memories it judged
together and the pairs it found among them.

Whether two memories are near-duplicates depends on the two alone (their words, topic,
key and time order) and on the code that judges them, so a run needs to judge only the
pairs that hold a new or changed memory; the pairs of the others are the ones the run
before found. This module keeps that answer in a SQLite database in the git directory
(``dreamgit/cache/pairs.sqlite3``): the judged memories (one signature each) and the
pairs, updated from what the run loaded in one transaction, tagged with a fingerprint of
the code and the threshold (a database of another fingerprint is emptied before use). It
is only a cache: a missing, damaged or foreign database is read as empty, and the finder
judges every pair.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dreamgit.store.keptgeneration import bump_generation, generation
from dreamgit.store.sqlitecache import of_fingerprint, read_snapshot

__all__ = ["Judged", "KeptPairs"]

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judged (item TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pairs (a TEXT NOT NULL, b TEXT NOT NULL, score REAL NOT NULL);
"""


@dataclass
class Judged:
    """Items judged together (their signatures) and the pairs found among them (earlier
    item first, with the similarity); ``generation`` counts the saves of the database it
    was read from (``keptgeneration.py``)."""

    items: set[str] = field(default_factory=set)
    pairs: dict[tuple[str, str], float] = field(default_factory=dict)
    generation: int = 0


class KeptPairs:
    """The last judged set of one repository, under its git directory."""

    def __init__(self, git_dir: Path, *, fingerprint: str) -> None:
        self.path = git_dir / "dreamgit" / "cache" / "pairs.sqlite3"
        self._fingerprint = fingerprint

    def load(self) -> Judged:
        """The judged set kept for this fingerprint (empty when the database cannot be
        read: a damaged one is deleted, to be built again by :meth:`save`)."""
        return read_snapshot(self.path, self._open, _judged, Judged())

    def save(self, before: Judged, after: Judged) -> None:
        """Turn the kept set ``before`` (what :meth:`load` gave) into ``after`` in one
        transaction: the judged items by their difference (100,000 rows rewritten each run
        were half a second at 100,000 memories), the pairs whole (a few thousand); all of
        ``after`` when another process saved in between. Failures are ignored: a cache."""
        if before.items == after.items and before.pairs == after.pairs:
            return
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            if generation(db) != before.generation:
                db.execute("DELETE FROM judged")
                before = Judged()
            gone = before.items - after.items
            db.executemany("DELETE FROM judged WHERE item = ?", ((i,) for i in sorted(gone)))
            added = sorted(after.items - before.items)
            db.executemany("INSERT OR IGNORE INTO judged VALUES (?)", ((i,) for i in added))
            db.execute("DELETE FROM pairs")
            db.executemany("INSERT INTO pairs VALUES (?, ?, ?)", _rows(after))
            bump_generation(db)
            db.execute("COMMIT")

    def _open(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A connection to a database of this fingerprint (emptied when it held another)."""
        return of_fingerprint(self.path, _TABLES, self._fingerprint, ("judged", "pairs"))


def _rows(judged: Judged) -> Iterable[tuple[str, str, float]]:
    return ((a, b, score) for (a, b), score in judged.pairs.items())


def _judged(db: sqlite3.Connection) -> Judged:
    items = {item for (item,) in db.execute("SELECT item FROM judged")}
    pairs = {(a, b): s for a, b, s in db.execute("SELECT a, b, score FROM pairs")}
    return Judged(items, pairs, generation(db))
