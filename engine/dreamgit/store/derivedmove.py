"""Moving the derived store from the tree it holds to another, inside one write transaction.

``DerivedStore.sync`` (``store/derived.py``) opens the transaction; this module changes
the rows: the files that differ (from git's diff of the two trees, or from a listing of
every file when the diff cannot be told) lose their rows, postings and facts, the new
versions are parsed and indexed, and of the files stating one id only the first by path
stays active and indexed. Postings (``store/derivedpostings.py``: a row per term) are
removed by the terms of the record the row held and the row's number, each touched
term's row written once per move. The number of active memories and their total
length, which BM25 needs, move with the rows instead of being counted again over the
whole table.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from dreamgit.store.derivedparse import read_files
from dreamgit.store.derivedpostings import PostingChanges, memory_terms
from dreamgit.store.derivedschema import DOC_INDEXES, TABLES, Changes, Parsed
from dreamgit.store.pausedgc import paused_gc

__all__ = ["Source", "move"]

#: Rows read or written per statement with a list of values (SQLite's limit is higher).
_CHUNK = 500

_DOCS_COLUMNS = "docs (n, path, blob, id, record, len, active, said)"


@dataclass(frozen=True)
class Source:
    """Where a sync reads the files of the tree it moves to."""

    files: Callable[[], Mapping[str, str]]
    record: Callable[[str, str], dict[str, Any]]
    changes: Changes | None


class _Row:
    """A row of docs as a move reads it: blob id, stated id (None: broken), active, length."""

    __slots__ = ("active", "blob", "ident", "length")

    def __init__(self, blob: str, ident: str | None, active: int, length: int) -> None:
        self.blob, self.ident, self.active, self.length = blob, ident, active, length


@dataclass
class _Tally:
    """How many memories are active and their total length, as the rows move."""

    count: int
    total: int

    def add(self, length: int, sign: int) -> None:
        self.count += sign
        self.total += sign * length


def move(
    db: sqlite3.Connection, tree: str, meta: dict[str, str], source: Source, schema: str
) -> list[Parsed]:
    """Inside a write transaction: make the database hold ``tree``, by the diff from the
    tree it holds when ``source`` can name it, else by listing every file; the (blob,
    record) of each readable file read."""
    if meta.get("schema") != schema:  # another dreamgit's tables: made and built again
        for table in ("docs", "postings", "facts"):
            db.execute(f"DROP TABLE IF EXISTS {table}")  # our own table names, never input
        for statement in TABLES.split(";"):
            if statement.strip():
                db.execute(statement)
        tally = _Tally(0, 0)
    elif "count" in meta and "total" in meta:
        tally = _Tally(int(meta["count"]), int(meta["total"]))
    else:
        tally = _Tally(*db.execute(_COUNT).fetchone())
    held = meta.get("tree") if meta.get("schema") == schema else None
    diff = None if held is None or source.changes is None else source.changes(held)
    # A build holds a row and the terms of every file it read until it writes them:
    # full collector passes over them cost ~1 s of the first build at 100,000.
    with paused_gc():
        if diff is not None:
            old = _rows_of(db, list(diff))
            new = {p: b for p, b in diff.items() if b is not None}
            parsed = _apply_diff(db, old, new, source.record, tally)
        else:
            old = {p: _Row(b, i, a, n) for p, b, i, a, n in db.execute(_ALL_DOCS)}
            parsed = _apply_diff(db, old, dict(source.files()), source.record, tally)
    db.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        [
            ("schema", schema),
            ("tree", tree),
            ("count", str(tally.count)),
            ("total", str(tally.total)),
        ],
    )
    return parsed


_ALL_DOCS = "SELECT path, blob, id, active, len FROM docs"
_COUNT = "SELECT COUNT(*), COALESCE(SUM(len), 0) FROM docs WHERE active = 1"


def _rows_of(db: sqlite3.Connection, paths: list[str]) -> dict[str, _Row]:
    """The rows the database holds for ``paths`` (those it has)."""
    found: dict[str, _Row] = {}
    for start in range(0, len(paths), _CHUNK):
        chunk = paths[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"{_ALL_DOCS} WHERE path IN ({marks})", chunk)
        found.update((p, _Row(b, i, a, n)) for p, b, i, a, n in rows)
    return found


def _apply_diff(
    db: sqlite3.Connection,
    old: dict[str, _Row],
    new: dict[str, str],
    record: Callable[[str, str], dict[str, Any]],
    tally: _Tally,
) -> list[Parsed]:
    """Move the docs and postings of the paths in ``old`` (their rows) to ``new`` (path →
    blob of each file there is now; a path of ``old`` missing from it is gone); the
    (blob, record) of each readable file read."""
    gone = [p for p, row in old.items() if new.get(p) != row.blob]
    came = [p for p, blob in new.items() if p not in old or old[p].blob != blob]
    touched = {ident for p in gone if (ident := old[p].ident) is not None}
    indexed = [p for p in gone if old[p].active]
    for path in indexed:
        tally.add(old[path].length, -1)
    postings = PostingChanges()
    _unpost(db, indexed, postings)
    db.executemany("DELETE FROM docs WHERE path = ?", [(p,) for p in gone])
    db.executemany("DELETE FROM facts WHERE path = ?", [(p,) for p in gone])
    fresh: list[_Fresh] = []
    broken: list[tuple[None, str, str, None, str, int, int, None]] = []
    for path, blob, ident, text, said, counts, length in read_files(
        [(p, new[p]) for p in came], record
    ):
        if ident is None:
            broken.append((None, path, blob, None, text, 0, 0, None))
        else:
            fresh.append(_Fresh(path, blob, ident, text, said, counts, length))
            touched.add(ident)
    # A build into an empty table (after a clone) has no rows to ask about, and makes
    # the indexes once its rows are in: sorting 100,000 keys once costs ~40 % less
    # than keeping two indexes in order row by row.
    empty = db.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is None
    if empty:
        db.execute("DROP INDEX IF EXISTS docs_by_id")
        db.execute("DROP INDEX IF EXISTS docs_by_said")
    held = {} if empty else _holders(db, touched)
    db.executemany(f"INSERT INTO {_DOCS_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", broken)
    _elect(db, held, fresh, tally, postings)
    postings.write(db, empty=empty)
    if empty:
        for statement in DOC_INDEXES.strip().splitlines():
            db.execute(statement)
    return [(f.blob, f.record) for f in fresh]


class _Fresh(NamedTuple):
    """A file just parsed: its row's values and its index terms counted."""

    path: str
    blob: str
    ident: str
    record: str
    said: str
    counts: dict[str, int]
    length: int


def _holders(db: sqlite3.Connection, idents: set[str]) -> dict[str, list[tuple[str, int, int]]]:
    """The rows the database holds stating each of ``idents``: (path, active, length)."""
    holders: dict[str, list[tuple[str, int, int]]] = {}
    wanted = sorted(idents)
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        query = f"SELECT id, path, active, len FROM docs WHERE id IN ({marks})"
        for ident, path, active, length in db.execute(query, chunk):
            holders.setdefault(ident, []).append((path, active, length))
    return holders


def _stored_terms(db: sqlite3.Connection, path: str) -> tuple[int, list[str]]:
    """The number and index terms of the memory the database holds at ``path``."""
    number, text = db.execute("SELECT n, record FROM docs WHERE path = ?", (path,)).fetchone()
    parsed = json.loads(text)
    return int(number), memory_terms(parsed["text"], parsed["tags"])


def _unpost(db: sqlite3.Connection, paths: list[str], postings: PostingChanges) -> None:
    """Remove the postings of the indexed memories at ``paths`` (their rows still held)."""
    for path in paths:
        postings.drop(*_stored_terms(db, path))


def _elect(
    db: sqlite3.Connection,
    held: dict[str, list[tuple[str, int, int]]],
    fresh: list[_Fresh],
    tally: _Tally,
    postings: PostingChanges,
) -> None:
    """Of the files stating each id (those ``held`` in the database, and the ``fresh``
    ones, written here), only the first by path is active and indexed."""
    new = {f.path: f for f in fresh}
    for f in fresh:
        held.setdefault(f.ident, []).append((f.path, -1, f.length))  # -1: not written yet
    off: list[str] = []
    rows: list[tuple[str, str, str, str, int, int, str]] = []
    for found in held.values():
        found.sort()  # code-point order of str is the byte order of UTF-8: git's, SQLite's
        for rank, (path, active, length) in enumerate(found):
            if active == -1:
                f = new[path]
                rows.append((path, f.blob, f.ident, f.record, length, rank == 0, f.said))
                if rank == 0:
                    tally.add(length, +1)
            elif rank > 0 and active:
                off.append(path)
                tally.add(length, -1)
            elif rank == 0 and not active:
                # A record is read back only for a file that was second and now is first.
                number, terms = _stored_terms(db, path)
                db.execute("UPDATE docs SET active = 1 WHERE path = ?", (path,))
                postings.add(number, terms)
                tally.add(len(terms), +1)
    _unpost(db, off, postings)
    db.executemany("UPDATE docs SET active = 0 WHERE path = ?", [(p,) for p in off])
    # Numbered after the rows there are, in path order (the key of the path index: its
    # entries appended, not spread over it); a number freed by this move may come back.
    (last,) = db.execute("SELECT COALESCE(MAX(n), 0) FROM docs").fetchone()
    rows.sort()
    numbered = [(last + k, *row) for k, row in enumerate(rows, start=1)]
    db.executemany(f"INSERT INTO {_DOCS_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", numbered)
    for number, path, *_, active, _said in numbered:
        if active:
            postings.add_counted(number, new[path].counts, new[path].length)
