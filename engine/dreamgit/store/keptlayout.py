"""The newer-value check's last layout, kept between processes: which memories it read,
how their frames fell into subjects, and what each subject's comparison found.

What the check finds for one subject depends on the memories of that subject and of a
few subjects tied to it (what it owns, its team, the user's way of naming it), so a run
needs to compare only the subjects a new, changed or removed memory touched; the others
found what the run before found. This module keeps that layout in a SQLite database in
the git directory (``dreamgit/cache/update-layout.sqlite3``) as JSON values, a row a part,
all replaced in one transaction and read in one, so a reader never sees half of a
writer's (and no row is a copy of the whole layout, 20 MB over 100,000 memories), and
tagged with a fingerprint of the code (a database of another fingerprint is emptied
before use). It is only a cache: a missing, damaged or foreign database reads as nothing,
and the check compares every subject.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from dreamgit.store.sqlitecache import of_fingerprint, read_snapshot

__all__ = ["KeptLayout"]

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS layout (part TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class KeptLayout:
    """The last layout of one repository (JSON texts by part), under its git directory."""

    def __init__(self, git_dir: Path, *, fingerprint: str) -> None:
        self.path = git_dir / "dreamgit" / "cache" / "update-layout.sqlite3"
        self._fingerprint = fingerprint

    def load(self) -> dict[str, str] | None:
        """The parts of the layout kept for this fingerprint, or None (none kept, or the
        database cannot be read: a damaged one is deleted, to be built again by
        :meth:`save`)."""
        return read_snapshot(self.path, self._open, _layout, None)

    def save(self, parts: Mapping[str, str]) -> None:
        """Replace the kept layout by ``parts`` in one transaction (failures are ignored)."""
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM layout")
            db.executemany("INSERT INTO layout VALUES (?, ?)", sorted(parts.items()))
            db.execute("COMMIT")

    def _open(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A connection to a database of this fingerprint (emptied when it held another)."""
        return of_fingerprint(self.path, _TABLES, self._fingerprint, ("layout",))


def _layout(db: sqlite3.Connection) -> dict[str, str] | None:
    parts = dict(db.execute("SELECT part, value FROM layout"))
    if not parts or not all(isinstance(value, str) for value in parts.values()):
        return None
    return parts
