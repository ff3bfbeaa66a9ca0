"""The record cache: each memory file's row (``store/recordrow.py``) by blob id, in SQLite.

A blob's content never changes, so the row it parses to is kept by its id in the git
directory (``dreamgit/cache/memories.sqlite3``). The rows are loaded whole, once, by a
read of every memory; what was parsed since is saved as the difference (its rows
inserted, the rows of blobs no longer read deleted), in one transaction, so a nightly
dream that finds a hundred new files writes a hundred rows, not the 100,000 a JSON file
rewritten whole held (0.25 s of CPU), and a reader at the same time sees the cache
before the save or after it, never half of it.

A row's first thirteen values are columns (columns without a type: SQLite keeps each
value's own, a text as text, a float as a float), so loading 100,000 rows decodes no
JSON: a row without optional values is loaded as the tuple SQLite hands (blob, its
thirteen values, a None for each optional one), which ``recordrow.memory_from_row``
reads as it is and :func:`loaded_row` makes a row; the values a row may leave off
(``recordrow``) are one JSON array in ``rest``. An entry that is not such a row (a
broken file's reason, a record a build of the derived store wrote, a row whose values
SQLite would not keep as they are) is held whole as JSON in ``rest``, its
``front_matter`` column NULL. A cache made for another row version is emptied
(``sqlitecache.of_fingerprint``); a damaged one is deleted and parsed again.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from dreamgit.store.recordrow import ROW_VERSION, is_row
from dreamgit.store.sqlitecache import (
    discard_database,
    held_by_another,
    of_fingerprint,
    read_snapshot,
)

__all__ = ["RecordCache", "loaded_row"]

#: The values of a row kept as columns: the version's thirteen that every row has.
_COLUMNS = 13
_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS records (
    blob TEXT PRIMARY KEY, id, topic, front_matter, name, description, type, priority,
    key, text, confidence, recalls, created, updated, rest TEXT
) WITHOUT ROWID;
"""
_VALUES = "id, topic, front_matter, name, description, type, priority, key, text, " + (
    "confidence, recalls, created, updated"
)
#: Rows loaded as SQLite hands them (with a NULL for each value left off: the row is
#: read without being padded), and the entries decoded from JSON.
_PLAIN = f"SELECT blob, {_VALUES}, {', '.join(['NULL'] * 6)} FROM records " + (
    "WHERE front_matter IS NOT NULL AND rest IS NULL"
)
_DECODED = "SELECT * FROM records WHERE front_matter IS NULL OR rest IS NOT NULL"
_PUT = f"INSERT OR REPLACE INTO records VALUES ({', '.join('?' * (_COLUMNS + 2))})"
_FRONT_MATTER = 3
#: A whole number SQLite keeps (a larger one would not bind).
_INT_RANGE = range(-(2**63), 2**63)


class RecordCache:
    """A blob id → cache entry map, loaded whole when first asked and saved as what changed."""

    def __init__(self, path: Path, *, replaces: Path | None = None) -> None:
        self.path = path
        #: An older cache's file, removed by the first write (it is read no more).
        self._replaces = replaces
        self._entries: dict[str, Any] | None = None
        #: Entries put since the last save, by blob.
        self._added: dict[str, Any] = {}

    def _open(self) -> AbstractContextManager[sqlite3.Connection]:
        return of_fingerprint(self.path, _TABLES, f"rows-{ROW_VERSION}", ("records",))

    def _load(self) -> dict[str, Any]:
        if self._entries is None:
            empty: dict[str, Any] = {}
            self._entries = (
                read_snapshot(self.path, self._open, _read_all, empty)
                if self.path.exists()
                else empty
            )
        return self._entries

    def __len__(self) -> int:
        return len(self._load())

    def get(self, blob: str) -> Any:
        """The entry cached for a blob, or None."""
        return self._load().get(blob)

    def take(self, blob: str) -> Any:
        """The entry cached for a blob, or None, let go by the map (not by the cache)."""
        return self._load().pop(blob, None)

    def put(self, blob: str, entry: Any) -> None:
        """Remember a blob's entry until :meth:`save`."""
        self._load()[blob] = entry
        self._added[blob] = entry

    def entries(self) -> dict[str, Any]:
        """Every entry (a copy of the map: the cache as the next reader would load it,
        once saved)."""
        return dict(self._load())

    def save(self, keep: set[str] | None = None) -> None:
        """Write the entries put since the last save, if any; ``keep`` deletes the entries
        of every other blob. One transaction: a concurrent reader sees all of it or none.
        A save another process's hold makes wait too long is left to the next one."""
        if not self._added or self._entries is None:
            return
        dropped = [] if keep is None else [(blob,) for blob in self._entries.keys() - keep]
        for (blob,) in dropped:
            del self._entries[blob]
        added = sorted(self._added.items())  # in key order: the table's own
        if self._write(lambda db: _replace(db, added, dropped, everything=False)):
            self._added = {}

    def exists(self) -> bool:
        """Whether the cache holds an entry, saved or not."""
        if self._entries is not None:
            return bool(self._entries)
        return self.path.exists() and bool(read_snapshot(self.path, self._open, _any_entry, False))

    def write_encoded(self, entries: Iterable[tuple[str, str]]) -> None:
        """Replace the cache by ``entries``: (blob id, its entry already encoded as JSON
        text), written as they are, without building the map; the map this object holds
        is read again from the cache when next needed."""
        whole = sorted(entries)
        self._write(lambda db: _replace(db, (), (), everything=True, encoded=whole))
        self._entries, self._added = None, {}

    def _write(self, change: Callable[[sqlite3.Connection], None]) -> bool:
        """``change(db)`` in one write transaction; whether it was made. A damaged cache is
        deleted (the next read parses again), one held too long by another is left."""
        try:
            with self._open() as db:
                db.execute("BEGIN IMMEDIATE")
                change(db)
                db.execute("COMMIT")
            if self._replaces is not None:
                self._replaces.unlink(missing_ok=True)
            return True
        except sqlite3.DatabaseError as exc:
            if not held_by_another(exc):
                discard_database(self.path)
        except OSError:
            pass
        return False


def _replace(
    db: sqlite3.Connection,
    added: Iterable[tuple[str, Any]],
    dropped: Iterable[tuple[str]],
    *,
    everything: bool,
    encoded: Iterable[tuple[str, str]] = (),
) -> None:
    """Delete ``dropped`` (or every entry), then insert ``added`` and ``encoded``."""
    if everything:
        db.execute("DELETE FROM records")
    db.executemany("DELETE FROM records WHERE blob = ?", dropped)
    db.executemany(_PUT, (_stored(blob, entry) for blob, entry in added))
    nothing = (None,) * _COLUMNS
    db.executemany(_PUT, ((blob, *nothing, text) for blob, text in encoded))


def _stored(blob: str, entry: Any) -> tuple[Any, ...]:
    """The table's row of an entry: a row's values as columns when SQLite keeps each as it
    is, else the entry whole as JSON."""
    values = entry[1 : _COLUMNS + 1] if is_row(entry) else ()
    if values and type(values[_FRONT_MATTER - 1]) is bool and all(map(_kept, values)):
        rest = json.dumps(entry[_COLUMNS + 1 :]) if len(entry) > _COLUMNS + 1 else None
        return (blob, *values, rest)
    return (blob, *(None,) * _COLUMNS, json.dumps(entry, separators=(",", ":")))


def _kept(value: Any) -> bool:
    """Whether SQLite gives ``value`` back as it was given: text, a whole number it can
    hold, a finite float (NaN would come back NULL), a truth value (as 0 or 1, which the
    load makes a truth value again), or nothing."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return True
    if kind is int:
        return value in _INT_RANGE
    return kind is float and math.isfinite(value)


def loaded_row(entry: tuple[Any, ...]) -> list[Any]:
    """The row of an entry loaded as a tuple (its truth value given back)."""
    row = [ROW_VERSION, *entry[1 : _COLUMNS + 1]]
    row[_FRONT_MATTER] = row[_FRONT_MATTER] == 1
    return row


def _read_all(db: sqlite3.Connection) -> dict[str, Any]:
    """Every entry of the cache, by blob: a row without optional values as SQLite hands
    it (a tuple), any other decoded; one whose JSON is damaged is left out (parsed
    again)."""
    entries = {found[0]: found for found in db.execute(_PLAIN)}
    entries.update(_decoded(db.execute(_DECODED)))
    return entries


def _decoded(rows: Iterable[tuple[Any, ...]]) -> Iterator[tuple[str, Any]]:
    """(blob, entry) of each table row."""
    loads, version = json.loads, ROW_VERSION
    for found in rows:
        blob, front_matter, rest = found[0], found[_FRONT_MATTER], found[-1]
        try:
            if front_matter is None:
                yield blob, loads(rest)
                continue
            row = [version, *found[1:-1]]
            row[_FRONT_MATTER] = front_matter == 1
            if rest is not None:
                left = loads(rest)
                if type(left) is not list:
                    continue
                row += left
            yield blob, row
        except (TypeError, ValueError):
            continue


def _any_entry(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM records LIMIT 1").fetchone() is not None
