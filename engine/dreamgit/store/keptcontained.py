"""The restatement finder's last answer, kept between processes: each note's group keys
and the judgments that held.

Whether one note restates another plus a qualifier (``find_contained_pairs``) depends on
the two notes' texts, topics and keys, and which notes are compared on the groups their
texts fall into, so a run needs to read the texts of new and changed memories only, and
judge only the pairs with one of them. This module keeps what that takes in a SQLite
database in the git directory (``dreamgit/cache/contained.sqlite3``): for each note's
signature, its keys (a group, the groups of its phrases) and whether it was compared with
its group; and the judgments that held between two signatures. A save writes what
changed since the load, in one transaction; the database is tagged with a fingerprint of
the code (one of another fingerprint is emptied before use). It is only a cache: a
missing, damaged or foreign database is read as empty, and every note is read again.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from dreamgit.store.keptgeneration import bump_generation, generation
from dreamgit.store.sqlitecache import of_fingerprint, read_snapshot

__all__ = ["Contained", "KeptContained", "Note"]

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
    sign TEXT PRIMARY KEY, grp TEXT, phrases TEXT NOT NULL, capped INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS held (
    kind TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (kind, a, b)
) WITHOUT ROWID;
"""

#: Between a note's phrase keys (JSON text, which never holds a raw line break).
_SEP = "\n"

#: A note's group key (None without an object), its phrases' keys, and whether it was
#: compared with the rest of its group (within the cap).
Note = tuple[str | None, tuple[str, ...], bool]


@dataclass
class Contained:
    """Notes by signature, and the judgments that held: ``(kind, earlier, later)``;
    ``generation`` counts the saves of the database it was read from."""

    notes: dict[str, Note] = field(default_factory=dict)
    held: set[tuple[str, str, str]] = field(default_factory=set)
    generation: int = 0


class KeptContained:
    """The last restatement answer of one repository, under its git directory."""

    def __init__(self, git_dir: Path, *, fingerprint: str) -> None:
        self.path = git_dir / "dreamgit" / "cache" / "contained.sqlite3"
        self._fingerprint = fingerprint

    def load(self) -> Contained:
        """The answer kept for this fingerprint (empty when the database cannot be read:
        a damaged one is deleted, to be built again by :meth:`save`)."""
        return read_snapshot(self.path, self._open, _contained, Contained())

    def save(self, before: Contained, after: Contained) -> None:
        """Turn the kept answer ``before`` (what :meth:`load` gave) into ``after`` in one
        transaction, writing only the difference; the whole of ``after`` when another
        process saved in between (failures are ignored: a cache)."""
        if before.notes == after.notes and before.held == after.held:
            return
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            if generation(db) != before.generation:
                db.execute("DELETE FROM notes")
                db.execute("DELETE FROM held")
                before = Contained()
            # in key order, both: rows written in it append to (or leave) pages in turn,
            # not split them all over the tree (100,000 notes: 0.96 -> 0.43 s of CPU)
            gone = [(s,) for s in sorted(before.notes.keys() - after.notes.keys())]
            rows = [
                (s, note[0], _SEP.join(note[1]), int(note[2]))
                for s, note in after.notes.items()
                if before.notes.get(s) != note
            ]
            db.executemany("DELETE FROM notes WHERE sign = ?", gone)
            rows.sort()
            db.executemany("INSERT OR REPLACE INTO notes VALUES (?, ?, ?, ?)", rows)
            dropped = before.held - after.held
            db.executemany("DELETE FROM held WHERE kind = ? AND a = ? AND b = ?", dropped)
            db.executemany("INSERT OR IGNORE INTO held VALUES (?, ?, ?)", after.held - before.held)
            bump_generation(db)
            db.execute("COMMIT")

    def _open(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A connection to a database of this fingerprint (emptied when it held another)."""
        return of_fingerprint(self.path, _TABLES, self._fingerprint, ("notes", "held"))


def _contained(db: sqlite3.Connection) -> Contained:
    notes = {
        sign: (grp, tuple(phrases.split(_SEP)) if phrases else (), bool(capped))
        for sign, grp, phrases, capped in db.execute("SELECT * FROM notes")
    }
    held = set(db.execute("SELECT kind, a, b FROM held"))
    return Contained(notes, held, generation(db))
