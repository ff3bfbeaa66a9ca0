"""The facts table of the derived store: what upper layers derive from a memory's record.

A fact is a string an upper layer computes from one memory file's parsed record (``status``'s
health verdict, content words and sources), kept beside the file's row under a ``kind`` and
the blob it was derived from, so an unchanged file is never derived twice and a changed or
removed one drops it. :func:`listing` gives every file with its fact (deriving the missing
ones); :func:`read_with_missing` gives, in one pass, only what a
reader over all of them needs: the active files' fact values, the records of those whose fact
matches a pattern, and the files that are not active, without a tuple per file. These
functions run inside the transactions :class:`~dreamgit.store.derived.DerivedStore` opens.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = [
    "Derive",
    "FactsOf",
    "Listed",
    "NewFact",
    "StoredRecord",
    "Unfacted",
    "listed_rows",
    "read_with_missing",
    "with_derived",
]

#: Derives a fact from a memory file's (path, record), encoded as a string.
Derive = Callable[[str, dict[str, Any]], str]
#: A fact to keep, as :data:`KEEP_FACT` takes it: path, blob, kind, value, path, blob.
NewFact = tuple[str, str, str, str, str, str]


class Listed(NamedTuple):
    """One memory file as :meth:`DerivedStore.listing` gives it: ``broken`` holds why
    it cannot be read (``error``, ``line``, ``hint``) and then ``ident`` is None and
    ``fact`` is None; ``active`` is False for a second file stating an id; ``record``
    is the parsed record when the listing was asked for it. (A tuple: a listing makes
    one per memory, and a dataclass costs twice as much to make.)"""

    path: str
    blob: str
    ident: str | None
    active: bool
    broken: dict[str, Any] | None
    fact: str | None
    record: dict[str, Any] | None


class StoredRecord:
    """A memory file's fact and its parsed record as the derived store holds them; the
    record is parsed on first need (ValueError when it does not read as a sync writes it)."""

    __slots__ = ("_parsed", "_text", "fact", "path")

    def __init__(
        self, path: str, fact: str, *, text: str = "", parsed: dict[str, Any] | None = None
    ) -> None:
        self.path, self.fact, self._text, self._parsed = path, fact, text, parsed

    def whole(self) -> dict[str, Any]:
        """The whole record."""
        if self._parsed is None:
            parsed = json.loads(self._text)
            if not isinstance(parsed, dict):
                raise ValueError(f"{self.path}: a stored record that is not a mapping")
            self._parsed = parsed
        return self._parsed


class FactsOf(NamedTuple):
    """The facts of one kind at a tree, as :meth:`DerivedStore.facts_of` gives them.

    ``values``: the fact of each active memory (in no particular order); ``records``:
    the facts and records of the active memories whose fact matched the pattern asked for;
    ``broken``: (path, why) of each file that does not read, by path (``why`` as
    :class:`Listed` has it); ``seconds``: (path, id, path of the active file stating that
    id) of each second file of an id, by path.
    """

    values: list[str]
    records: list[StoredRecord]
    broken: list[tuple[str, dict[str, Any]]]
    seconds: list[tuple[str, str, str]]


LISTING = """
SELECT d.path, d.blob, d.id, d.active, f.value,
    CASE WHEN f.value IS NULL OR d.id IS NULL OR f.value LIKE ? THEN d.record END
FROM docs d LEFT JOIN facts f ON f.path = d.path AND f.kind = ? AND f.blob = d.blob
ORDER BY d.path
"""
DROP_VARIANTS = "DELETE FROM facts WHERE substr(kind, 1, length(?1)) = ?1 AND kind != ?2"
#: A fact is kept only while its file's row still holds the blob it was derived from.
KEEP_FACT = """
INSERT OR REPLACE INTO facts (path, blob, kind, value)
SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM docs WHERE path = ? AND blob = ?)
"""
_JOINED = "FROM docs d LEFT JOIN facts f ON f.path = d.path AND f.kind = ? AND f.blob = d.blob"
#: The values, and the path, blob and record of each file without a fact (NULL for the rest).
_VALUES_OR_RECORDS = f"""
SELECT d.active, f.value, CASE WHEN f.value IS NULL THEN d.path END,
    CASE WHEN f.value IS NULL THEN d.blob END, CASE WHEN f.value IS NULL THEN d.record END
{_JOINED} WHERE d.id IS NOT NULL
"""
#: From the facts to the rows: only the rows of the facts asked for are read.
_RECORDS = """
SELECT d.path, f.value, d.record FROM facts f CROSS JOIN docs d ON d.path = f.path
WHERE f.kind = ? AND f.value LIKE ? AND d.blob = f.blob AND d.active = 1
"""
_INACTIVE = """
SELECT d.path, d.id, d.record, (SELECT a.path FROM docs a WHERE a.id = d.id AND a.active = 1)
FROM docs d WHERE d.active = 0 ORDER BY d.path
"""


def listed_rows(rows: list[Any], kind: str, derive: Derive) -> tuple[list[Listed], list[NewFact]]:
    """The files of a :data:`LISTING` query's ``rows``, and the facts derived for those
    that had none (as :data:`KEEP_FACT` takes them)."""
    listed: list[Listed] = []
    new: list[NewFact] = []
    for path, blob, ident, active, value, record in rows:
        if ident is None:
            why = json.loads(record or "{}")
            listed.append(Listed(path, blob, None, False, why, None, None))
            continue
        parsed = None if record is None else json.loads(record)
        if value is None:
            value = derive(path, parsed or {})
            new.append((path, blob, kind, value, path, blob))
        listed.append(Listed(path, blob, ident, bool(active), None, value, parsed))
    return listed, new


class Unfacted(NamedTuple):
    """A readable file without a fact of the kind read: its path, blob, parsed record and
    whether it is active."""

    path: str
    blob: str
    record: dict[str, Any]
    active: bool


def read_with_missing(
    db: sqlite3.Connection, kind: str, with_record: str
) -> tuple[FactsOf, list[Unfacted], int]:
    """Inside a read transaction, in one pass over the files: the facts of ``kind`` as
    :class:`FactsOf` holds them, with None among the values for each active file
    without a fact, those files (in order; :func:`with_derived` fills them in) and how
    many readable files there are."""
    rows = db.execute(_VALUES_OR_RECORDS, (kind,)).fetchall()
    missing = [
        Unfacted(path, blob, json.loads(record), bool(active))
        for active, value, path, blob, record in rows
        if value is None
    ]
    found = _facts(db, kind, with_record, [value for active, value, *_ in rows if active])
    return found, missing, len(rows)


def with_derived(
    found: FactsOf, missing: list[Unfacted], derived: list[str], with_record: str
) -> FactsOf:
    """``found`` (from :func:`read_with_missing`) with the facts just ``derived`` for
    its ``missing`` files (``with_record``: a ``LIKE`` pattern of a prefix, ``p%``)."""
    prefix = with_record.removesuffix("%")
    active = iter([fact for file, fact in zip(missing, derived, strict=True) if file.active])
    values = [fact if fact is not None else next(active) for fact in found.values]
    records = found.records + [
        StoredRecord(file.path, fact, parsed=file.record)
        for file, fact in zip(missing, derived, strict=True)
        if file.active and fact.startswith(prefix)
    ]
    return found._replace(values=values, records=records)


def _facts(db: sqlite3.Connection, kind: str, with_record: str, values: list[Any]) -> FactsOf:
    """The facts of ``kind`` with the active files' ``values`` read already."""
    records = [
        StoredRecord(path, fact, text=text)
        for path, fact, text in db.execute(_RECORDS, (kind, with_record))
    ]
    broken: list[tuple[str, dict[str, Any]]] = []
    seconds: list[tuple[str, str, str]] = []
    for path, ident, record, first in db.execute(_INACTIVE):
        if ident is None:
            broken.append((path, json.loads(record or "{}")))
        elif first is not None:
            seconds.append((path, ident, first))
        else:  # rows no sync leaves: a second file with no first (KeyError: read the files)
            raise KeyError(path)
    return FactsOf(values, records, broken, seconds)
