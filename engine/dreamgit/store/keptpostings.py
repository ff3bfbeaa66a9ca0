"""Which texts hold a word, kept between processes: a text's number, and a row per word.

Gathering checks a run's new statements against every known memory, but only a memory
that shares a word with one of them can matter (``dream/gather/sharing.py``). Reading
the words of each of 100,000 memories to find those (most share none) was a second of a
warm dream, though all but the new and changed memories hold the words they held in the
run before. So each text met is numbered and its words posted, in a SQLite database in
the git directory (``dreamgit/cache/<kind>-postings.sqlite3``, tagged with a
fingerprint of the code that reads the words): a word's row holds the numbers of the
texts that hold it (``sqlitecache.packed``). A query reads the rows of its words
and reads only the texts new to the database. It is a cache: a missing, damaged or
foreign database is built again, with the same answers; what a run adds is written in
one transaction at its end, and only onto the database it read (another process's
write in between leaves it to the next run).
"""

from __future__ import annotations

import contextlib
import sqlite3
import uuid
from array import array
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, compress
from pathlib import Path
from typing import cast

from dreamgit.store.sqlitecache import (
    NUMBER_TYPE,
    of_fingerprint,
    packed,
    read_snapshot,
    unpacked,
)

__all__ = ["KeptPostings"]

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS texts (text TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS postings (word TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
"""
#: Texts no query asked for in a run are dropped when they are more than this share of all.
_STALE_SHARE = 0.25

#: What the database held when it was read: each text's number, each word's row, the
#: largest number (-1 when none) and the token its last write left (none before the first).
_Snapshot = tuple[dict[str, int], dict[str, bytes], int, str]


class KeptPostings:
    """The texts of one kind of word set, and which of them hold each word."""

    def __init__(self, git_dir: Path, *, fingerprint: str, kind: str) -> None:
        self.path = git_dir / "dreamgit" / "cache" / f"{kind}-postings.sqlite3"
        self._fingerprint = fingerprint
        nothing: _Snapshot = ({}, {}, -1, "")
        found = read_snapshot(self.path, self._open, _snapshot, nothing)
        self._numbers, self._rows, top, self._version = found
        self._kept = len(self._numbers)
        #: the first number of the texts new to the database, and the next one a text read
        #: anew takes (numbered in the order they are read)
        self._first = self._next = top + 1
        #: for each word, the numbers of the texts new to the database that hold it: the
        #: texts' word sets are not held (over 100,000 texts new to a database, a cold
        #: dream's, the sets of one kind held to the save were ~70 MB)
        self._added: dict[str, array[int]] = {}
        self._asked: set[str] = set()
        #: whether the numbers are keyed by a query's own strings (:meth:`_share`)
        self._shared = False

    def holders(
        self, texts: Sequence[str], words: AbstractSet[str], read: Callable[[str], Iterable[str]]
    ) -> dict[str, list[int]]:
        """For each of ``words`` some text of ``texts`` holds, the positions of those
        texts in order; ``read`` gives the words of a text the database has not seen."""
        self._asked.update(texts)
        # each text's number, and each number's place, by C loops (100,000 texts a query)
        numbers = list(map(self._numbers.get, texts))
        if not self._shared:
            self._share(texts, numbers)
        if None in numbers:
            self._number_new(texts, numbers, read)
        held = cast("list[int]", numbers)  # each None was numbered
        rows = {word: self._holding(word) for word in words}
        # the places of the texts that hold one of the words, found by C loops: of a
        # query's 100,000 texts few hold one, and a map of every number to its place, made
        # per query, was most of a warm dream's asking
        at = _places_among(held, frozenset().union(*rows.values()))
        found: dict[str, list[int]] = {}
        for word, row in rows.items():
            kept = list(chain.from_iterable(map(at.__getitem__, filter(at.__contains__, row))))
            if kept:
                kept.sort()  # a row holds numbers, not places
                found[word] = kept
        return found

    def _holding(self, word: str) -> array[int]:
        """The numbers of the texts that hold ``word``: kept, then new to the database."""
        row, added = self._rows.get(word), self._added.get(word)
        numbers = unpacked(row) if row is not None else array(NUMBER_TYPE)
        if added is not None:
            numbers += added
        return numbers

    def _share(self, texts: Sequence[str], numbers: list[int | None]) -> None:
        """Key each text's number by the query's own string of it, once a run: the texts
        asked about are the memories' own, held to the end of the dream anyway, and the
        database's copies of them are let go (over 100,000 memories, 18 MB for both
        kinds); the texts not asked about keep theirs."""
        self._shared = True
        ours = {text: n for text, n in zip(texts, numbers, strict=True) if n is not None}
        if len(ours) < len(self._numbers):
            for text, n in self._numbers.items():
                ours.setdefault(text, n)
        self._numbers = ours

    def _number_new(
        self,
        texts: Sequence[str],
        numbers: list[int | None],
        read: Callable[[str], Iterable[str]],
    ) -> None:
        """Number the texts new to the database (``numbers``' None) in their order, a text
        standing twice once, and post their words, each text read once a run."""
        known, added = self._numbers, self._added
        for k in [k for k, n in enumerate(numbers) if n is None]:
            text = texts[k]
            n = known.get(text)
            if n is None:
                n = known[text] = self._next
                self._next += 1
                for word in _as_set(read(text)):
                    posted = added.get(word)
                    if posted is None:
                        posted = added[word] = array(NUMBER_TYPE)
                    posted.append(n)
            numbers[k] = n

    def asked(self, text: str) -> bool:
        """Whether a query of this run was about ``text``."""
        return text in self._asked

    def save(self) -> None:
        """Keep the texts new to the database and their postings and, when the texts no
        query asked for are more than a quarter of those kept, drop them; one transaction,
        onto the database as it was read (else nothing: a cache). Failures are ignored."""
        stale = [t for t in self._numbers if t not in self._asked]
        drop = len(stale) > _STALE_SHARE * self._kept
        if len(self._numbers) == self._kept and not drop:
            return
        with contextlib.suppress(sqlite3.DatabaseError, OSError), self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            if _version(db) != self._version or _count(db) != self._kept:
                db.execute("ROLLBACK")  # another process wrote since: its run's texts win
                return
            if drop:
                self._drop(db, stale)
            self._post(db)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (uuid.uuid4().hex,))
            db.execute("COMMIT")

    def _drop(self, db: sqlite3.Connection, stale: list[str]) -> None:
        """Delete ``stale`` texts and their numbers from every row."""
        gone = {self._numbers.pop(t) for t in stale}
        self._kept -= len(stale)
        db.executemany("DELETE FROM texts WHERE text = ?", ((t,) for t in sorted(stale)))
        for word, row in sorted(self._rows.items()):
            kept = array(NUMBER_TYPE, (n for n in unpacked(row) if n not in gone))
            if len(kept) == len(row) // kept.itemsize:
                continue
            if kept:
                self._rows[word] = packed(kept)
                db.execute("UPDATE postings SET data = ? WHERE word = ?", (self._rows[word], word))
            else:
                del self._rows[word]
                db.execute("DELETE FROM postings WHERE word = ?", (word,))

    def _post(self, db: sqlite3.Connection) -> None:
        """Write the texts new to the database with their numbers and append their numbers
        to the rows of their words (both in key order: rows written in it append, not
        split, pages)."""
        numbers = self._numbers
        # picked, sorted and paired with their numbers by C loops: the 100,000 texts of a
        # cold dream as (text, number) tuples, picked and compared in Python, were half
        # of the save
        new = sorted(compress(numbers, map(self._first.__le__, numbers.values())))
        db.executemany(
            "INSERT INTO texts VALUES (?, ?)", zip(new, map(numbers.__getitem__, new), strict=True)
        )
        # a row is its numbers little-endian: the new numbers' bytes follow a kept row's
        rows, added = self._rows, self._added
        db.executemany(
            "INSERT OR REPLACE INTO postings VALUES (?, ?)",
            ((word, rows.get(word, b"") + packed(added[word])) for word in sorted(added)),
        )

    def _open(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return of_fingerprint(self.path, _TABLES, self._fingerprint, ("texts", "postings"))


def _places_among(numbers: list[int], wanted: AbstractSet[int]) -> dict[int, list[int]]:
    """Each of ``wanted`` that stands in ``numbers``, with its places there in order (a
    text that stands twice in a query has two)."""
    at: dict[int, list[int]] = {}
    for k in compress(range(len(numbers)), map(wanted.__contains__, numbers)):
        at.setdefault(numbers[k], []).append(k)
    return at


def _as_set(words: Iterable[str]) -> AbstractSet[str]:
    """``words`` once each (a word set as it is, other iterables made one)."""
    return words if isinstance(words, AbstractSet) else set(words)


def _snapshot(db: sqlite3.Connection) -> _Snapshot:
    numbers = dict(db.execute("SELECT text, n FROM texts"))
    rows = dict(db.execute("SELECT word, data FROM postings"))
    for row in rows.values():
        if not isinstance(row, bytes) or len(row) % 4:
            raise sqlite3.DatabaseError("a postings row that is not whole numbers")
    (top,) = db.execute("SELECT coalesce(max(n), -1) FROM texts").fetchone()
    return numbers, rows, int(top), _version(db)


def _version(db: sqlite3.Connection) -> str:
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    return "" if row is None else str(row[0])


def _count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT count(*) FROM texts").fetchone()[0])
