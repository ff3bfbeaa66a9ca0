"""A memory record as a row: the compact form the record cache holds.

A record (``parse_memory_record``) is a dict of 19 keys. Held as JSON objects, 100,000
of them decoded to 164 MB of dicts and took most of a warm dream's read of its memories;
as JSON arrays in a fixed order the file is less than half as long and decodes in a
quarter of the time to half the memory (10,000 records: 5.0 -> 2.2 MB of JSON, 85 -> 20
ms, 1,643 -> 851 bytes an entry).

A row is ``[ROW_VERSION, *values]`` with the values in :data:`FIELDS`' order, two
savings in it: a description equal to the text is ``None`` (most memories describe
themselves by their text), and the trailing values equal to their defaults (no validity
times, no tags, sources or supersessions) are left off. :func:`row_of` and
:func:`record_of_row` turn one into the other exactly; :func:`memory_from_row` makes the
memory of a row without the record (a snapshot's read).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dreamgit.model import Memory
from dreamgit.store.memoryfile import Shared, memory_of_values

__all__ = ["FIELDS", "ROW_VERSION", "is_row", "memory_from_row", "record_of_row", "row_of"]

#: Bumped whenever the row's layout changes: a row of another version is parsed again.
ROW_VERSION = 3

#: A record's keys in the row's order (the order ``parse_memory_record`` builds them in).
FIELDS: tuple[str, ...] = (
    "id", "topic", "front_matter", "name", "description", "type", "priority", "key",
    "text", "confidence", "recalls", "created", "updated", "valid_from", "valid_to",
    "tags", "sources", "supersedes", "superseded_by",
)  # fmt: skip

#: Where the values that may be left off start (each has a default), and the defaults.
_OPTIONAL = FIELDS.index("valid_from")
_DEFAULTS: tuple[Any, ...] = (None, None, (), (), (), ())
#: The values put back when ``n`` were left off, by ``n``.
_LEFT_OFF = [list(_DEFAULTS[len(_DEFAULTS) - n :]) for n in range(len(_DEFAULTS) + 1)]
_LISTS = FIELDS[_OPTIONAL + 2 :]
_DESCRIPTION = FIELDS.index("description") + 1
_TEXT = FIELDS.index("text") + 1


def is_row(entry: object) -> bool:
    """Whether a cache entry is a row of this version (not an error, nor an older entry)."""
    return (
        type(entry) is list
        and _OPTIONAL + 1 <= len(entry) <= len(FIELDS) + 1
        and entry[0] == ROW_VERSION
    )


def row_of(record: dict[str, Any]) -> list[Any]:
    """The row of a record (its values in :data:`FIELDS`' order, the savings made)."""
    row = [ROW_VERSION, *map(record.get, FIELDS)]  # no generator: 100,000 rows a cold read
    if row[_DESCRIPTION] == row[_TEXT]:
        row[_DESCRIPTION] = None
    end = len(row)
    while end > _OPTIONAL + 1 and (row[end - 1] is None or row[end - 1] == []):
        end -= 1
    del row[end:]
    return row


def full_row(row: list[Any]) -> list[Any]:
    """A row with the values left off put back (the description stays ``None`` when it is
    the text): every value in :data:`FIELDS`' order, after the version."""
    missing = len(FIELDS) + 1 - len(row)
    return row if not missing else row + _LEFT_OFF[missing]


def record_of_row(row: list[Any]) -> dict[str, Any]:
    """The record a row was made of (a new dict: the caller may change it)."""
    record = dict(zip(FIELDS, full_row(row)[1:], strict=True))
    if record["description"] is None:
        record["description"] = record["text"]
    for name in _LISTS:
        record[name] = list(record[name])  # not the row's own lists
    return record


def memory_from_row(
    row: list[Any], *, path: str, now: datetime, shared: Shared | None = None
) -> Memory:
    """``memory_from_record`` of the record a row holds, without building the record."""
    (_, ident, _, _, name, description, kind, priority, key, text, confidence, recalls,
     created, updated, valid_from, valid_to, tags, sources, supersedes,
     superseded_by) = full_row(row)  # fmt: skip
    return memory_of_values(
        path, now, shared, ident, name, text if description is None else description,
        kind, priority, key, text, confidence, recalls, created, updated, valid_from,
        valid_to, tags, sources, supersedes, superseded_by,
    )  # fmt: skip
