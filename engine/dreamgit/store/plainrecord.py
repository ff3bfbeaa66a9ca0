"""A memory file in the exact shape dreamgit writes, read into its record by one match.

Building the derived store after a clone parses every memory file, and even the plain
front-matter reader (``store/plainfront.py``) spent most of that build: a Python loop
over each line, a value object per field, then the record built from the mapping with
its times formatted again and its fields checked one by one. The files dreamgit renders
(``render_memory``) all have one layout: ``name``, ``description``, ``metadata.type``,
then the ``dream`` block's keys in their fixed order, the optional ones where they go.
:func:`plain_record` matches that layout with one regular expression (in C) and builds
the record from the groups with the same checks the full path makes
(``parse_memory_record`` in ``store/memoryfile.py``); anything else — another key or
order, quotes (but a name's or description's single ones on one line), a comment, a
value YAML could read as another type, CRLF, a time out of range, a priority the full
path would refuse — gives None, and the caller parses the file the full way. A property
test holds the two to the same record.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from dreamgit.model import MEMORY_TYPES, PRIORITIES
from dreamgit.store.plainfront import plain_scalar, plain_words

__all__ = ["CONTROL", "SAFE_ID", "plain_record"]

#: What a memory id read from a file may be: one word, as ``Dream-Memory`` trailers list ids.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z")
#: What a value that commit trailers may repeat must not hold.
CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def _captured_time(name: str) -> str:
    """A ``YYYY-MM-DDTHH:MM:SSZ`` time captured under ``name``."""
    return f"(?P<{name}>[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}T[0-9]{{2}}:[0-9]{{2}}:[0-9]{{2}})Z"


_SHAPE = re.compile(
    "---\n"
    "name: (?P<name>[^\n]*)\n"
    "description: (?P<description>[^\n]*)\n"
    "metadata:\n"
    "  type: (?P<type>[^\n]*)\n"
    "dream:\n"
    "  id: (?P<id>[^\n]*)\n"
    "  topic: (?P<topic>[^\n]*)\n"
    "  priority: (?P<priority>[^\n]*)\n"
    "(?:  key: (?P<key>[^\n]*)\n)?"
    "  tags: (?P<tags>\\[[^\n]*)\n"
    f"  created: {_captured_time('created')}\n"
    f"  updated: {_captured_time('updated')}\n"
    "  sources: (?P<sources>\\[[^\n]*)\n"
    "(?:  supersedes: (?P<supersedes>\\[[^\n]*)\n)?"
    f"(?:  valid_from: {_captured_time('valid_from')}\n)?"
    f"(?:  valid_to: {_captured_time('valid_to')}\n)?"
    "(?:  superseded_by: (?P<superseded_by>\\[[^\n]*)\n)?"
    "  confidence: (?P<confidence>[0-9]{1,17}\\.[0-9]{1,17})\n"
    "(?:  recalls: (?P<recalls>0|[1-9][0-9]{0,17})\n)?"
    "---\n"
)
_PRIORITIES = frozenset(PRIORITIES)
_TYPES = frozenset(MEMORY_TYPES)


def plain_record(text: str) -> dict[str, Any] | None:
    """The record ``parse_memory_record`` gives of ``text``, when the file is in the shape
    dreamgit writes and every value is plain; None otherwise (parse it the full way)."""
    found = _SHAPE.match(text)
    if found is None:
        return None
    # One tuple of every group (a call per group cost a tenth of the whole read).
    values = found.groups()
    (name, description, kind, ident, topic, priority, key, tags, created, updated, sources,
     supersedes, valid_from, valid_to, superseded_by, confidence, recalls) = values  # fmt: skip
    try:
        kind = _scalar(kind)
        record: dict[str, Any] = {
            "id": plain_scalar(ident),
            "topic": _scalar(topic),
            "front_matter": True,
            "name": _text(name),
            "description": _text(description),
            "type": kind if kind in _TYPES else "user",
            "priority": _scalar(priority),
            "key": None if key is None else plain_scalar(key),
            "text": text[found.end() :].strip(),
            "confidence": float(confidence),
            "recalls": int(recalls or 0),
            "created": _moment(created),
            "updated": _moment(updated),
            "valid_from": _moment(valid_from),
            "valid_to": _moment(valid_to),
            "tags": plain_words(tags),
            "sources": plain_words(sources),
            "supersedes": _words_or_none(supersedes),
            "superseded_by": _words_or_none(superseded_by),
        }
    except ValueError:  # not plain, or a time out of range: the full path says what it is
        return None
    if record["priority"] not in _PRIORITIES or not SAFE_ID.match(record["id"]):
        return None  # the full path refuses it, with the line
    said = (record["key"] or "", *record["tags"], *record["sources"], *record["supersedes"])
    if CONTROL.search("".join((*said, *record["superseded_by"]))):
        return None
    return record


def _moment(text: str | None) -> str | None:
    """A time (``YYYY-MM-DDTHH:MM:SS``) as the full path writes it (the same digits, which
    ``fromisoformat`` checks are in range; ValueError when one is not: the full path
    reports it), None when the line is absent."""
    if text is None:
        return None
    datetime.fromisoformat(text)
    return f"{text}Z"


def _scalar(text: str) -> str:
    """:func:`plain_scalar`, remembered for the short values a store repeats (topics,
    priorities, types)."""
    known = _SCALARS.get(text)
    if known is None:
        known = plain_scalar(text)
        if len(text) <= _SHORT and len(_SCALARS) < _SCALARS_KEEP:
            _SCALARS[text] = known
    return known


#: Values at most this long are remembered, at most this many (a store has few topics).
_SHORT, _SCALARS_KEEP = 24, 1024
_SCALARS: dict[str, str] = {}


def _text(text: str) -> str:
    """A name or description: a plain scalar, or a one-line single-quoted one (the
    dumper quotes a description holding ": ", one file in 26 of a large store, which the
    full path read at ~30x the cost); ValueError for anything else."""
    if text[:1] != "'":
        return plain_scalar(text)
    inner = text[1:-1]
    # A quote inside stands doubled (one alone would end the scalar before the line
    # does); tabs and what YAML may refuse are left to the full path, which says why.
    if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
        raise ValueError(text)
    if not inner.isprintable():
        raise ValueError(text)
    return inner.replace("''", "'")


def _words_or_none(text: str | None) -> list[str]:
    return [] if text is None else plain_words(text)
