"""Kept readings of one kind looked up text by text: what ``KeptReadings.looked_up`` gives.

A warm dream over 100,000 memories asks few of each kind's kept readings: 13,855 texts'
features and 816 texts' content words (``dream/word_memo.py``), 77 of the 99,143 kept
frames and none of the 64,413 kept counts (``dream/consolidate/frame_memo.py``,
``count_memo.py``); yet each kind's map of every text to its JSON (24 MB for a word kind,
68 MB for frames and counts together) was held from the plan's start to its end.
:class:`LookedUpReadings` stands in for that map in every memo that is not batched
(``KeptReadings.looked_up``): a text's reading
is one query of the table's key when the text is asked for; past ``_MANY`` queries (a run
that asks for most texts) the rest is loaded whole, as before. Every query is of one read
transaction, begun when it is opened and holding the readings of the code that opened it,
so a save of another process (this code's or other code's) is never seen, whole or half.
Same readings either way: it is a cache, and a database that cannot be read is a miss (a
damaged one deleted, to be built again by the next save).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path

from dreamgit.store.sqlitecache import discard_database, held_by_another

__all__ = ["LookedUpReadings"]

#: Texts looked up one by one before the rest of the table is loaded at once.
_MANY = 20_000


class LookedUpReadings:
    """What a memo takes of a kind's kept readings (``pop``, ``len`` and the texts not
    taken), read from the database at ``path`` as they are asked for, in one read
    transaction of the readings of the code ``fingerprint`` names."""

    def __init__(
        self,
        path: Path,
        opened: Callable[[], AbstractContextManager[sqlite3.Connection]],
        fingerprint: str,
    ) -> None:
        self._path = path
        self._held = ExitStack()
        self._db: sqlite3.Connection | None = None
        #: The texts asked for (what ``pop`` took), and the rest once loaded whole.
        self._taken: set[str] = set()
        self._loaded: dict[str, str] | None = None
        self._count = 0
        #: How many of the texts asked for had a kept reading (taken out of the count).
        self._found = 0
        try:
            db = self._held.enter_context(opened())
            db.execute("BEGIN")  # one snapshot, from its first read to close
            # ``opened`` emptied another code's readings, but a process of other code may
            # have emptied ours and kept its own since: those are no readings of ours.
            code = db.execute("SELECT value FROM meta WHERE key = 'code'").fetchone()
            if code is None or code[0] != fingerprint:
                self.close()
                return
            self._count = db.execute("SELECT count(*) FROM readings").fetchone()[0]
            self._db = db
        except (sqlite3.DatabaseError, OSError) as exc:
            self._lost(exc)

    def __len__(self) -> int:
        """How many readings are left: those the database held when it was opened, less
        those taken (as the loaded map's pops left it)."""
        if self._loaded is not None:
            return len(self._loaded)
        return self._count - self._found

    def pop(self, text: str, default: str | None = None) -> str | None:
        """``text``'s reading, taken (a second ask finds none), or ``default``."""
        if self._loaded is not None:
            return self._loaded.pop(text, default)
        if self._db is None or not self._count or text in self._taken:
            return default
        if len(self._taken) >= _MANY:
            self._loaded = self._rest()
            return self._loaded.pop(text, default)
        self._taken.add(text)
        try:
            row = self._db.execute("SELECT value FROM readings WHERE text = ?", (text,)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._lost(exc)
            return default
        if row is None:
            return default
        self._found += 1
        return str(row[0])

    def __iter__(self) -> Iterator[str]:
        """The texts held and not taken."""
        if self._loaded is not None:
            return iter(list(self._loaded))
        taken = self._taken
        rows = self._rows("SELECT text FROM readings")
        return iter([text for (text,) in rows if text not in taken])

    def close(self) -> None:
        """End the read transaction and let the connection go."""
        self._db = None
        self._held.close()

    def _rest(self) -> dict[str, str]:
        """Every reading of a text not taken yet."""
        taken = self._taken
        rows = self._rows("SELECT text, value FROM readings")
        return {text: value for text, value in rows if text not in taken}

    def _rows(self, query: str) -> list[tuple[str, ...]]:
        """The rows of ``query`` ([] when the database is lost)."""
        if self._db is None:
            return []
        try:
            return self._db.execute(query).fetchall()
        except sqlite3.DatabaseError as exc:
            self._lost(exc)
            return []

    def _lost(self, exc: sqlite3.DatabaseError | OSError) -> None:
        """The database cannot be read: nothing more is asked of it, and a damaged one
        is deleted (another process's hold is waited out afresh next time)."""
        self.close()
        if isinstance(exc, sqlite3.DatabaseError) and not held_by_another(exc):
            discard_database(self._path)
