"""The recall index in the derived store: a memory's terms, and a row per term of postings.

A term's row holds, for each active memory that holds the term, three unsigned 32-bit
numbers, little-endian (a git directory may be copied to a machine of the other
order): the memory's number in the docs table (``n``), the term's
frequency in it and its length in terms. At 100,000 memories a row per (term, memory)
made ~1.5 million rows, whose inserts (and the tuples made for them) were the largest
cost of the first build after a clone; a row per term makes ~100,000 rows a tenth the
size, and a query term's postings are read as one value instead of a row per memory.

A move collects what changes (:class:`PostingChanges`: memories whose postings go,
memories whose postings come) and writes each touched term's row once: read, the gone
memories filtered out, the new ones appended.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Iterable

from dreamgit.store.sqlitecache import NUMBER_TYPE, packed, unpacked
from dreamgit.textsim import content_norms

__all__ = [
    "POSTINGS_TABLE",
    "NumberedPosting",
    "PostingChanges",
    "index_terms",
    "memory_terms",
    "read_postings",
    "term_counts",
]

POSTINGS_TABLE = """
CREATE TABLE IF NOT EXISTS postings (term TEXT PRIMARY KEY, data BLOB NOT NULL);
"""

#: (memory's number, term frequency, length) of one term in one memory.
NumberedPosting = tuple[int, int, int]

#: What a memory without readable text indexes as (so every memory has a length).
_EMPTY_DOC = "\x00"


def index_terms(text: str) -> list[str]:
    """The index terms of a text, repeated as often as they occur."""
    return content_norms(text)


def memory_terms(text: str, tags: Iterable[str]) -> list[str]:
    """What recall indexes of a memory: the terms of its text and tags (never empty)."""
    return index_terms(" ".join((text, *tags))) or [_EMPTY_DOC]


def read_postings(db: sqlite3.Connection, terms: Iterable[str]) -> dict[str, list[NumberedPosting]]:
    """The postings of each of ``terms`` (an empty list for a term no memory holds)."""
    found: dict[str, list[NumberedPosting]] = {}
    for term in set(terms):
        row = db.execute("SELECT data FROM postings WHERE term = ?", (term,)).fetchone()
        if row is None:
            found[term] = []
            continue
        numbers = unpacked(row[0], group=3)
        found[term] = list(zip(numbers[0::3], numbers[1::3], numbers[2::3], strict=True))
    return found


class PostingChanges:
    """The postings a move removes and adds, written once per term by :meth:`write`."""

    def __init__(self) -> None:
        self._gone: dict[str, set[int]] = {}
        self._new: dict[str, array[int]] = {}

    def drop(self, number: int, terms: list[str]) -> None:
        """The memory numbered ``number``, holding ``terms``, leaves the index."""
        for term in set(terms):
            found = self._gone.get(term)
            if found is None:
                found = self._gone[term] = set()
            found.add(number)

    def add(self, number: int, terms: list[str]) -> None:
        """The memory numbered ``number``, holding ``terms`` (repeated as they occur),
        enters the index. Its postings go after those already in the rows."""
        self.add_counted(number, term_counts(terms), len(terms))

    def add_counted(self, number: int, counts: dict[str, int], length: int) -> None:
        """:meth:`add` of a memory whose terms are counted already (each term's frequency,
        and ``length`` terms in all)."""
        new = self._new
        for term, tf in counts.items():
            found = new.get(term)
            if found is None:
                found = new[term] = array(NUMBER_TYPE)
            found.extend((number, tf, length))

    def write(self, db: sqlite3.Connection, *, empty: bool) -> None:
        """Write the touched terms' rows; ``empty``: the table holds no row yet (a first
        build), so the rows are inserted in key order without reading any."""
        if empty:
            new = self._new
            db.executemany(
                "INSERT INTO postings VALUES (?, ?)",
                ((term, packed(new.pop(term))) for term in sorted(new)),
            )
            return
        for term in sorted(self._gone.keys() | self._new.keys()):
            row = db.execute("SELECT data FROM postings WHERE term = ?", (term,)).fetchone()
            kept = array(NUMBER_TYPE) if row is None else unpacked(row[0], group=3)
            gone = self._gone.get(term)
            if gone:
                kept = _without(kept, gone)
            kept.extend(self._new.get(term, ()))
            if kept:
                db.execute("INSERT OR REPLACE INTO postings VALUES (?, ?)", (term, packed(kept)))
            elif row is not None:
                db.execute("DELETE FROM postings WHERE term = ?", (term,))
        self._gone.clear()
        self._new.clear()


def term_counts(terms: list[str]) -> dict[str, int]:
    """How often each of ``terms`` occurs, in the order they first occur."""
    # Counted by hand: a Counter's own set-up cost more than counting a memory's dozen
    # terms (~15 % of a posting's cost at 100,000 memories).
    counts: dict[str, int] = {}
    for term in terms:
        counts[term] = counts.get(term, 0) + 1
    return counts


def _without(packed: array[int], gone: set[int]) -> array[int]:
    """``packed`` without the postings of the memories numbered in ``gone``."""
    kept = array(NUMBER_TYPE)
    for k in range(0, len(packed), 3):
        if packed[k] not in gone:
            kept.extend(packed[k : k + 3])
    return kept
