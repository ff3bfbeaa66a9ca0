"""What dreamgit's SQLite caches in the git directory share.

The derived store (``derived.sqlite3``), the kept readings (``frames.sqlite3`` and the
other kinds) and the judged pairs (``pairs.sqlite3``) are all caches: opened in WAL mode
with commits that may be lost (a lost one is computed again), emptied when made by other
code (a fingerprint in their ``meta`` table), told apart from a damaged file by sqlite's
own error code (another process's hold is waited out, never taken for damage), and
removed whole, with the WAL and shared-memory files beside them, when damaged. The
indexes among them (recall's postings, gathering's word postings) hold a row as a run of
whole numbers, little-endian wherever it was written (a git directory may be copied to a
machine of the other byte order): :func:`packed` and :func:`unpacked`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from array import array
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TypeVar

__all__ = [
    "NUMBER_TYPE",
    "connect_cache",
    "database_files",
    "discard_database",
    "held_by_another",
    "of_fingerprint",
    "packed",
    "read_snapshot",
    "remove_database",
    "unpacked",
]

_T = TypeVar("_T")


def connect_cache(path: Path, tables: str) -> sqlite3.Connection:
    """A connection to the cache at ``path`` (its folder made), ``tables`` created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # a cache: a lost commit is computed again
        db.executescript(tables)
    except BaseException:
        db.close()
        raise
    return db


def held_by_another(exc: sqlite3.DatabaseError) -> bool:
    """Whether sqlite gave up waiting for another connection (busy or locked), by its code."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def database_files(path: Path) -> tuple[Path, ...]:
    """The database at ``path`` and the WAL and shared-memory files beside it."""
    return tuple(Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm"))


def remove_database(path: Path) -> None:
    """Remove the database at ``path`` with its WAL and shared-memory files (those missing
    are skipped; any other failure to remove one is raised)."""
    for file in database_files(path):
        file.unlink(missing_ok=True)


def discard_database(path: Path) -> None:
    """:func:`remove_database`, ignoring what cannot be removed (a cache read as damaged)."""
    for file in database_files(path):
        with contextlib.suppress(OSError):
            file.unlink(missing_ok=True)


@contextlib.contextmanager
def of_fingerprint(
    path: Path, tables: str, fingerprint: str, emptied: tuple[str, ...]
) -> Iterator[sqlite3.Connection]:
    """A connection to the cache at ``path`` made by the code ``fingerprint`` names: when
    its ``meta`` table names other code, the ``emptied`` tables are emptied first."""
    db = connect_cache(path, tables)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'code'").fetchone()
        if row is None or row[0] != fingerprint:
            db.execute("BEGIN IMMEDIATE")
            for table in emptied:
                db.execute(f"DELETE FROM {table}")  # our own table names, never input
            db.execute("INSERT OR REPLACE INTO meta VALUES ('code', ?)", (fingerprint,))
            db.execute("COMMIT")
        yield db
    finally:
        db.close()


def read_snapshot(
    path: Path,
    opened: Callable[[], AbstractContextManager[sqlite3.Connection]],
    read: Callable[[sqlite3.Connection], _T],
    empty: _T,
) -> _T:
    """``read(db)`` in one read transaction of the cache at ``path`` (``opened()`` connects
    to it), so a writer's half is never seen; ``empty`` when it cannot be read: a damaged
    database is deleted, to be built again, and another process's hold is waited out
    afresh next time."""
    try:
        with opened() as db:
            db.execute("BEGIN")
            found = read(db)
            db.execute("COMMIT")
            return found
    except sqlite3.DatabaseError as exc:
        if not held_by_another(exc):
            discard_database(path)
    except OSError:
        pass
    return empty


#: Unsigned ints of 32 bits ("I" is 4 bytes wherever CPython runs on 32 or 64 bits).
NUMBER_TYPE = "I"
#: Whether the machine's order is not the rows' (little-endian): each row is swapped then.
_SWAP = sys.byteorder != "little"


def unpacked(data: object, *, group: int = 1) -> array[int]:
    """A row's numbers; sqlite3.DatabaseError when its value is not whole groups of
    ``group`` numbers (the callers take it as a damaged database, as sqlite's own errors)."""
    found = array(NUMBER_TYPE)
    if not isinstance(data, bytes) or len(data) % (group * found.itemsize):
        raise sqlite3.DatabaseError("a row that is not whole numbers")
    found.frombytes(data)
    if _SWAP:
        found.byteswap()
    return found


def packed(numbers: array[int]) -> bytes:
    """A row's value: ``numbers`` little-endian."""
    if _SWAP:
        numbers = array(NUMBER_TYPE, numbers)
        numbers.byteswap()
    return numbers.tobytes()
