"""What the engine read from a memory's text, kept between processes, keyed by the text.

Reading what a memory says (its frames: subject, relation, value) costs about a tenth of
a millisecond a sentence, which is 10 s over a store of 100,000 memories, and the answer
only changes when the text or the code that reads it does. So each reading is kept in a
SQLite table in the git directory (``dreamgit/cache/frames.sqlite3``; other kinds of
reading, such as the counts a sentence states, in a database of their own) as opaque JSON,
keyed by the text and tagged with a fingerprint of the source files that read it: a
database of another fingerprint (an upgrade, an edit of the parser) is emptied before
use. It is only a cache: a missing, damaged or foreign database is rebuilt, and a
reader that cannot open it at all reads every text again, with the same answers.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path

from dreamgit.store.lookedreadings import LookedUpReadings
from dreamgit.store.sqlitecache import of_fingerprint, read_snapshot

__all__ = ["KeptReadings", "code_fingerprint"]

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS readings (text TEXT PRIMARY KEY, value TEXT NOT NULL)
    WITHOUT ROWID;
"""
#: Rows not asked for in a run are dropped when they are more than this share of all.
_STALE_SHARE = 0.25
#: Texts asked for in one query: SQLite's older builds take at most 999 parameters.
_BATCH = 500


@cache
def code_fingerprint(package: Path, parts: tuple[str, ...]) -> str:
    """A hash of the Python version and every ``.py`` file under ``parts`` of ``package``
    (folders or single files): it changes whenever the code that made a reading does."""
    digest = hashlib.sha1(f"{sys.version_info[:2]}".encode(), usedforsecurity=False)
    for part in parts:
        target = package / part
        files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        for file in files:
            digest.update(file.relative_to(package).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


class KeptReadings:
    """Text → JSON readings of one kind, stored under the git directory."""

    def __init__(self, git_dir: Path, *, fingerprint: str, kind: str = "frames") -> None:
        self.path = git_dir / "dreamgit" / "cache" / f"{kind}.sqlite3"
        self._fingerprint = fingerprint
        self._looked: LookedUpReadings | None = None

    def looked_up(self) -> LookedUpReadings:
        """The readings kept for this fingerprint, each read from the database when first
        asked for (``lookedreadings.py``; nothing when the database cannot be read: a
        damaged one is deleted, to be built again by :meth:`save`): a warm dream asks for
        the frames of its new memories alone, and loading 100,000 to take 77 cost a tenth
        of a second, and as much to let them go. Its connection is let go by
        :meth:`close`, :meth:`save` or another call."""
        self.close()
        self._looked = LookedUpReadings(self.path, self._open, self._fingerprint)
        return self._looked

    def close(self) -> None:
        """Let the connection of :meth:`looked_up`'s readings go."""
        if self._looked is not None:
            self._looked.close()
            self._looked = None

    def load_some(self, texts: Sequence[str]) -> dict[str, str]:
        """The readings kept for ``texts`` (those it holds), asked in batches in one read
        transaction: a run that reads only its new and changed memories' readings loads
        no other (nothing when the database cannot be read, as :meth:`load`)."""
        return read_snapshot(self.path, self._open, partial(_some, texts), {})

    def save_current(self, added: Mapping[str, str], current: Collection[str]) -> None:
        """Add the new readings and, when more than a quarter of the rows are of texts not
        ``current`` (those still in use), drop those, in one transaction (failures are
        ignored)."""
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            _insert(db, added)
            (total,) = db.execute("SELECT count(*) FROM readings").fetchone()
            if current and total - len(current) > _STALE_SHARE * total:
                db.execute("CREATE TEMP TABLE held (text TEXT PRIMARY KEY) WITHOUT ROWID")
                db.executemany(
                    "INSERT OR IGNORE INTO held VALUES (?)", ((t,) for t in sorted(current))
                )
                db.execute("DELETE FROM readings WHERE text NOT IN (SELECT text FROM held)")
            db.execute("COMMIT")

    def add(self, added: Mapping[str, str]) -> None:
        """Keep the readings ``added``, in one transaction: a run saves its new readings in
        batches as it reads them, each whole or not at all, every one a reading of this
        code (so what a run that stops halfway saved is a cache like any other). The
        readings :meth:`looked_up` gave stay as they were, of the snapshot they began
        with. A cache: failures are ignored."""
        if not added:
            return
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            _insert(db, added)
            db.execute("COMMIT")

    def save(self, added: Mapping[str, str], unused: Iterable[str], total: int) -> None:
        """Add the new readings and, when the unused ones are more than a quarter of the
        ``total`` kept, drop them, in one transaction. A cache: failures are ignored.

        Rows go in (and out) in the order of their texts, the table's key: a run asks for
        texts in the order of its memories, which is no order of the key, and 100,000 rows
        written in that order split pages all over the tree and spill them through the
        WAL (2.6 s of CPU and 8 s wall for one kind), in key order they append (0.5 s)."""
        stale = list(unused)
        self.close()
        if not added and len(stale) <= _STALE_SHARE * total:
            return
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            _insert(db, added)
            if len(stale) > _STALE_SHARE * total:
                db.executemany("DELETE FROM readings WHERE text = ?", ((t,) for t in sorted(stale)))
            db.execute("COMMIT")

    def _open(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A connection to a database of this fingerprint (emptied when it held another)."""
        return of_fingerprint(self.path, _TABLES, self._fingerprint, ("readings",))


def _insert(db: sqlite3.Connection, added: Mapping[str, str]) -> None:
    """Put ``added`` into the readings table, in the order of their texts (see ``save``)."""
    db.executemany("INSERT OR REPLACE INTO readings VALUES (?, ?)", sorted(added.items()))


def _some(texts: Sequence[str], db: sqlite3.Connection) -> dict[str, str]:
    found: dict[str, str] = {}
    for start in range(0, len(texts), _BATCH):
        batch = texts[start : start + _BATCH]
        marks = ",".join("?" * len(batch))
        found.update(db.execute(f"SELECT text, value FROM readings WHERE text IN ({marks})", batch))
    return found
