"""Derived state that persists: parsed memory records and the recall index, in SQLite.

One database in the git directory (``dreamgit/cache/derived.sqlite3``) holds, for the
memory files of the last tree it saw, each file's parsed record keyed by path and
blob id (or, for a broken file, why it cannot be read), the postings of the recall
index (term → each file's number, term frequency, length: ``store/derivedpostings.py``),
and facts upper layers derive from a
record (``status``'s health figures), kept with the file's row and dropped with it.
``sync`` moves it to another tree by the diff between the files it holds and the
new tree's (``store/derivedmove.py``), in one transaction, so a reader never sees half
an update; ``meta``
names the tree the state belongs to, and a reader answers only for that tree. WAL
lets readers go on while a writer moves it. It is only a cache: a missing, stale,
damaged or foreign-schema database is rebuilt from the files, and callers fall
back to reading the files when the database cannot be used at all.

Which files count follows ``MemoryFiles.read``: a broken file is kept out, and of
files stating the same id only the first by path is active (git lists files in
byte order of their paths, which is SQLite's ``ORDER BY path``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamgit.store.derivedpostings import (
    NumberedPosting,
    index_terms,
    memory_terms,
    read_postings,
)
from dreamgit.store.derivedschema import TABLES, Changes, Parsed, said_key
from dreamgit.store.sqlitecache import connect_cache, held_by_another, remove_database

if TYPE_CHECKING:
    from dreamgit.store.derivedfacts import Derive, FactsOf, Listed, NewFact
    from dreamgit.store.derivedmove import Source

__all__ = [
    "Changes",
    "Choose",
    "DerivedStore",
    "NumberedPosting",
    "Parsed",
    "PathsOf",
    "Posting",
    "index_terms",
    "memory_terms",
    "said_key",
]

#: Bumped when a table's meaning changes: an older database is then rebuilt.
SCHEMA = "4"

_TABLES = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
{TABLES}
"""


#: (path, term frequency, document length) of one term in one memory.
Posting = tuple[str, int, int]
#: The paths of the memories numbered (those of them the store holds).
PathsOf = Callable[[list[int]], dict[int, str]]
#: Picks paths from (memories, mean length, postings of each query term, the paths of
#: the memories it names by number).
Choose = Callable[[int, float, dict[str, list[NumberedPosting]], PathsOf], list[str]]


class DerivedStore:
    """The derived-state database of one git directory."""

    def __init__(self, git_dir: Path) -> None:
        self.path = git_dir / "dreamgit" / "cache" / "derived.sqlite3"
        #: One connection per thread: sqlite3 refuses a connection made in another thread, and
        #: the MCP server answers its tools in worker threads.
        self._local = threading.local()

    def close(self) -> None:
        """Close this thread's connection (a later call opens it again)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def sync(
        self,
        tree: str,
        files: Callable[[], Mapping[str, str]],
        record: Callable[[str, str], dict[str, Any]],
        changes: Changes | None = None,
    ) -> list[Parsed]:
        """Make the state that of ``tree`` (``files()``: its memory files, path → blob);
        the (blob, record as JSON) of each readable file it read (none when it held
        ``tree`` already), for the record cache.

        ``record(path, blob)`` parses one file (MemoryFileError when broken).
        ``changes(old tree)``, when given, names the files that differ from the tree the
        database holds, so only their rows are read and written (a write changes one
        file of 10,000); ``files()`` is listed only when it cannot tell. A damaged
        database is deleted and built again; other sqlite3 errors reach the caller.
        """
        # Not at import: a recall answered from the store never moves it.
        from dreamgit.store.derivedmove import Source

        try:
            return self._sync(tree, Source(files, record, changes))
        except sqlite3.DatabaseError as exc:
            if held_by_another(exc):
                raise
            self.close()
            remove_database(self.path)
            return self._sync(tree, Source(files, record, changes))

    def search(
        self, tree: str, terms: Iterable[str], choose: Choose
    ) -> dict[str, dict[str, Any]] | None:
        """The records of the files ``choose`` picks from the postings of ``terms`` at
        ``tree`` (path → record), or None when the state belongs to another tree.

        ``choose(memories, mean length, postings of each term, paths of)`` returns paths;
        its postings name memories by number, and ``paths of(numbers)`` gives their paths.
        It runs inside the same read transaction as the records' look-up, so both see one
        tree.
        """
        db = self._connect()
        with _transaction(db, "BEGIN"):
            meta = self._meta_of(db, tree)
            if meta is None:
                return None
            postings = read_postings(db, terms)
            count, total = int(meta["count"]), int(meta["total"])

            def paths_of(numbers: list[int]) -> dict[int, str]:
                return _paths_of(db, numbers)

            paths = choose(count, total / count if count else 0.0, postings, paths_of)
            return _records_of(db, paths)

    def listing(
        self, tree: str, kind: str, derive: Derive, *, with_record: str | None = None
    ) -> list[Listed] | None:
        """Every memory file at ``tree`` by path, each readable one with its fact of
        ``kind``; None when the state belongs to another tree. A file whose fact is new,
        or matches the SQL ``LIKE`` pattern ``with_record``, comes with its record.

        ``derive(path, record)`` computes a fact (a string the caller encodes) the first
        time a blob is seen at a path; it is kept with the file's row, so a later listing
        of an unchanged file reads it back and a changed or removed file drops it. A fact
        that cannot be kept (the database is busy) is computed again next time. ``kind``
        reads ``name:variant``: a listing that derives every file's fact drops the facts
        of the name's other variants.
        """
        from dreamgit.store import derivedfacts  # not at import: recall reads no facts

        db = self._connect()
        with _transaction(db, "BEGIN"):
            if self._meta_of(db, tree) is None:
                return None
            rows = db.execute(derivedfacts.LISTING, (with_record, kind)).fetchall()
        listed, new = derivedfacts.listed_rows(rows, kind, derive)
        if new:
            readable = sum(1 for found in listed if found.ident is not None)
            self._keep_facts(kind, new, every=len(new) == readable)
        return listed

    def _keep_facts(self, kind: str, new: list[NewFact], *, every: bool) -> None:
        """Keep facts just derived; ``every``: they are every readable file's."""
        from dreamgit.store import derivedfacts  # not at import: recall reads no facts

        db = self._connect()
        try:
            with _transaction(db, "BEGIN IMMEDIATE"):
                if every:
                    # Every fact new: the kind's inputs changed (``name:variant``, e.g. other
                    # rules), so the name's other variants are dropped, not kept forever.
                    db.execute(derivedfacts.DROP_VARIANTS, (f"{kind.split(':', 1)[0]}:", kind))
                db.executemany(derivedfacts.KEEP_FACT, new)
        except sqlite3.Error:
            pass  # a fact not kept costs only time: it is derived again next time

    def facts_of(
        self,
        tree: str,
        kind: str,
        derive: Derive,
        *,
        with_record: str,
    ) -> FactsOf | None:
        """The facts of ``kind`` at ``tree`` as a reader over every memory needs them
        (:class:`~dreamgit.store.derivedfacts.FactsOf`: the active files' values, the
        facts and records of those whose fact matches the ``LIKE`` pattern ``with_record``,
        the files that are not active); None when the state belongs to another tree.

        Read in one transaction without a row object per file. The files without a fact
        (those a write added or changed) are derived and kept first; when a fact could not
        be kept (the database is busy), :meth:`listing` derives them all again.
        """
        from dreamgit.store import derivedfacts  # not at import: recall reads no facts

        db = self._connect()
        with _transaction(db, "BEGIN"):
            if self._meta_of(db, tree) is None:
                return None
            found, missing, readable = derivedfacts.read_with_missing(db, kind, with_record)
        if not missing:
            return found
        # Derived from the rows read with the rest: the answer is that one transaction's.
        derived = [derive(file.path, file.record) for file in missing]
        new = [
            (f.path, f.blob, kind, fact, f.path, f.blob)
            for f, fact in zip(missing, derived, strict=True)
        ]
        self._keep_facts(kind, new, every=len(new) == readable)
        return derivedfacts.with_derived(found, missing, derived, with_record)

    def drop_facts(self, kind: str) -> None:
        """Forget every fact of ``kind`` (a reader found one it cannot read): the next
        listing derives them again. Quiet when the database cannot be written."""
        try:
            with _transaction(self._connect(), "BEGIN IMMEDIATE"):
                self._connect().execute("DELETE FROM facts WHERE kind = ?", (kind,))
        except sqlite3.Error:
            pass  # a cache that cannot be written costs only time

    def saying(self, tree: str, text: str) -> str | None:
        """The id of the first active memory (by path) at ``tree`` whose text says
        ``text`` (:func:`said_key`), "" when none does, or None when the state belongs
        to another tree."""
        db = self._connect()
        with _transaction(db, "BEGIN"):
            meta = self._meta_of(db, tree)
            if meta is None:
                return None
            row = db.execute(
                "SELECT id FROM docs WHERE said = ? AND active = 1 ORDER BY path LIMIT 1",
                (said_key(text),),
            ).fetchone()
        return "" if row is None else str(row[0])

    def blobs(self, tree: str) -> dict[str, str] | None:
        """Every memory file at ``tree`` and its blob id, or None when the state belongs
        to another tree."""
        db = self._connect()
        with _transaction(db, "BEGIN"):
            if self._meta_of(db, tree) is None:
                return None
            return dict(db.execute("SELECT path, blob FROM docs"))

    def states(self, tree: str, ident: str) -> bool | None:
        """Whether a readable memory file at ``tree`` states id ``ident`` (active or not),
        or None when the state belongs to another tree."""
        db = self._connect()
        with _transaction(db, "BEGIN"):
            if self._meta_of(db, tree) is None:
                return None
            row = db.execute("SELECT 1 FROM docs WHERE id = ? LIMIT 1", (ident,)).fetchone()
        return row is not None

    def active_file(self, tree: str, ident: str) -> tuple[str, str] | tuple[()] | None:
        """(path, blob) of the active memory file at ``tree`` stating id ``ident``, () when
        none does, or None when the state belongs to another tree."""
        db = self._connect()
        with _transaction(db, "BEGIN"):
            if self._meta_of(db, tree) is None:
                return None
            row = db.execute(
                "SELECT path, blob FROM docs WHERE id = ? AND active = 1 ORDER BY path LIMIT 1",
                (ident,),
            ).fetchone()
        return () if row is None else (str(row[0]), str(row[1]))

    def _meta_of(self, db: sqlite3.Connection, tree: str) -> dict[str, str] | None:
        """Inside a read transaction: the meta rows, or None when the database holds
        another tree or schema."""
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("tree") != tree or meta.get("schema") != SCHEMA:
            return None
        return meta

    def _connect(self) -> sqlite3.Connection:
        found: sqlite3.Connection | None = getattr(self._local, "db", None)
        if found is None:
            self._local.db = found = connect_cache(self.path, _TABLES)
        return found

    def _sync(self, tree: str, source: Source) -> list[Parsed]:
        from dreamgit.store.derivedmove import move

        db = self._connect()
        parsed: list[Parsed] = []
        with _transaction(db, "BEGIN IMMEDIATE"):
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("tree") != tree or meta.get("schema") != SCHEMA:
                parsed = move(db, tree, meta, source, SCHEMA)
        return parsed


class _transaction:
    """BEGIN … COMMIT, or ROLLBACK when the body raises."""

    def __init__(self, db: sqlite3.Connection, begin: str) -> None:
        self._db, self._begin = db, begin

    def __enter__(self) -> None:
        self._db.execute(self._begin)

    def __exit__(self, kind: object, *_: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _in_chunks(db: sqlite3.Connection, query: str, values: list[Any]) -> Iterator[Any]:
    """The rows of ``query`` (its ``{marks}``: the values' placeholders) over ``values``,
    asked 500 at a time."""
    for start in range(0, len(values), 500):
        chunk = values[start : start + 500]
        yield from db.execute(query.format(marks=",".join("?" * len(chunk))), chunk)


def _paths_of(db: sqlite3.Connection, numbers: list[int]) -> dict[int, str]:
    """The paths of the memories numbered ``numbers`` (those the database holds)."""
    return dict(_in_chunks(db, "SELECT n, path FROM docs WHERE n IN ({marks})", numbers))


def _records_of(db: sqlite3.Connection, paths: list[str]) -> dict[str, dict[str, Any]]:
    """The records of the active memories among ``paths`` (path → record)."""
    query = "SELECT path, record FROM docs WHERE active = 1 AND path IN ({marks})"
    return {path: json.loads(text) for path, text in _in_chunks(db, query, paths)}
