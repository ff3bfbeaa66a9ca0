"""Front matter in the plain shape dreamgit writes, read and written without YAML.

Reading 10,000 memory files spent most of its time in the YAML constructor (about
half a millisecond a file, in Python, even over libyaml's C scanner). The files
dreamgit renders use a small part of YAML: ``key: value`` lines, one level of
nested mappings, flow lists of plain words, plain strings that start with a
letter, ``1.0``-style floats, small integers, ``YYYY-MM-DD`` dates and
``YYYY-MM-DDTHH:MM:SSZ`` times. :func:`read_plain` reads exactly that part and
returns what the YAML loader would build; anything else (quotes, comments, block
lists, multi-line values, a value YAML could read as a boolean, null or number,
a duplicate key) returns None, and the caller parses with YAML as before.
:func:`write_plain` is the other way: the text the YAML dumper would write for a
mapping of such values, or None for anything else (the dumper writes it then).
Property tests hold both to YAML's own answers on generated input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

from dreamgit.errors import InternalSignal

__all__ = ["document", "plain_document", "plain_scalar", "plain_words", "read_plain", "write_plain"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
#: A word of a flow list: starts with a letter; words joined by single spaces.
_ITEM = re.compile(r"[^\W\d_][\w./-]*(?: [\w./-]+)*\Z")
_INT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")
_FLOAT = re.compile(r"[0-9]{1,17}\.[0-9]{1,17}\Z")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
_TIME = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z\Z")
#: Words some YAML version reads as a boolean or null, whatever their case.
_SPECIAL = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"})
#: libyaml's own spelling of UTC for a time ending in ``Z``.
_UTC = timezone(timedelta(0), "Z")


class _NotPlain(InternalSignal):
    """The text uses more of YAML than this reader reads (caught here: YAML reads it)."""

    def __init__(self) -> None:
        super().__init__("front matter beyond the plain shape")


def read_plain(raw: str) -> dict[str, Any] | None:
    """The mapping a plain front matter ``raw`` holds, or None when it is not plain."""
    if "\r" in raw or "\t" in raw:
        return None
    lines = raw.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        return _mapping(lines)
    except (_NotPlain, ValueError):  # ValueError: a date or time out of range
        return None


#: Keys already checked (:func:`_key_of`), so a store's few key names are checked once.
_CHECKED: dict[str, bool] = {}
#: At most this many remembered (a hand-written store may use any names).
_CHECKED_KEEP = 4096


def _mapping(lines: list[str]) -> dict[str, Any]:
    """``NAME: value`` lines, and ``NAME:`` lines followed by ``  NAME: value`` lines of one
    indent, read with ``str`` methods (a regular expression per line cost ~25 % more):
    a name is everything before a line's first colon (a name holds none)."""
    found: dict[str, Any] = {}
    k, count = 0, len(lines)
    while k < count:
        line = lines[k]
        key, colon, value = line.partition(":")
        if not colon or not _key_of(key) or key in found:
            raise _NotPlain
        k += 1
        if value:
            if value[0] != " ":
                raise _NotPlain
            found[key] = _value(value[1:])
            continue
        nested: dict[str, Any] = {}
        indent = ""
        while k < count and lines[k][:1] == " ":
            inner = lines[k]
            name = inner.lstrip(" ")
            spaces = inner[: len(inner) - len(name)]
            name, colon, value = name.partition(":")
            if not colon or value[:1] != " " or (indent and spaces != indent):
                raise _NotPlain  # ``key:`` alone inside: null in YAML, left to it
            if not _key_of(name) or name in nested:
                raise _NotPlain
            indent = spaces
            nested[name] = _value(value[1:])
            k += 1
        if not nested:
            raise _NotPlain  # ``key:`` alone is null in YAML: left to it
        found[key] = nested
    return found


def _key_of(key: str) -> bool:
    """Whether ``key`` is a plain name that no YAML version reads as anything else."""
    known = _CHECKED.get(key)
    if known is None:
        known = bool(_NAME.match(key)) and key.casefold() not in _SPECIAL
        if len(_CHECKED) < _CHECKED_KEEP:
            _CHECKED[key] = known
    return known


def _check_key(key: str, seen: dict[str, Any]) -> None:
    if key in seen or key.casefold() in _SPECIAL:
        raise _NotPlain


def _value(text: str) -> Any:
    first = text[:1]
    if first == "[":
        return _flow_list(text)
    if "0" <= first <= "9":  # every number, date and time starts so; a plain word never
        if _INT.match(text):
            return int(text)
        if _FLOAT.match(text):
            return float(text)
        time = _TIME.match(text)
        if time:
            year, month, day, hour, minute, second = (int(part) for part in time.groups())
            return datetime(year, month, day, hour, minute, second, tzinfo=_UTC)
        day_match = _DATE.match(text)
        if day_match:
            return date(*(int(part) for part in day_match.groups()))
    return _plain_string(text)


def _plain_string(text: str) -> str:
    """A plain scalar that YAML reads as this very string, or _NotPlain."""
    first = text[:1]
    if not (first.isalpha() and text.isprintable()):
        raise _NotPlain
    if ": " in text or " #" in text or text.endswith((":", " ")):
        raise _NotPlain
    if text.casefold() in _SPECIAL:
        raise _NotPlain
    return text


def plain_scalar(text: str) -> str:
    """``text`` as a value after ``key: ``, when YAML reads it as this very string (a
    plain scalar that starts with a letter); ValueError when it reads as anything else."""
    try:
        return _plain_string(text)
    except _NotPlain:
        raise ValueError(text) from None


def plain_words(text: str) -> list[str]:
    """A flow list of plain words (``[a, b c]``) as YAML reads it; ValueError otherwise."""
    try:
        return _flow_list(text)
    except _NotPlain:
        raise ValueError(text) from None


def _flow_list(text: str) -> list[str]:
    if text == "[]":
        return []
    if not text.endswith("]"):
        raise _NotPlain
    items = text[1:-1].split(", ")
    for item in items:
        if not _ITEM.match(item) or item.casefold() in _SPECIAL:
            raise _NotPlain
    return items


#: Longer strings may be folded over lines by the dumper: left to it.
_LONGEST = 1000


def write_plain(meta: Mapping[str, Any]) -> str | None:
    """The block-style YAML the dumper writes for ``meta`` (nested mappings one level
    deep, lists in flow style), or None when a value needs more of YAML than plain."""
    try:
        lines = [_line(key, value, "") for key, value in meta.items()]
    except _NotPlain:
        return None
    return "".join(lines)


def document(front: str, body: str) -> str:
    """A file of front matter ``front`` (its lines, YAML) over ``body``, as dreamgit writes one."""
    text = body if body.endswith("\n") or not body else body + "\n"
    return f"---\n{front}---\n{text}"


def plain_document(meta: Mapping[str, Any], body: str) -> str | None:
    """A new file of ``meta`` over ``body`` when ``meta`` is plain (see :func:`write_plain`),
    written without the YAML dumper (or its import); else None."""
    front = write_plain(meta)
    return None if front is None else document(front, body)


def _line(key: Any, value: Any, indent: str) -> str:
    if not isinstance(key, str) or not _NAME.match(key):
        raise _NotPlain
    _check_key(key, {})
    if isinstance(value, Mapping):
        if indent or not value:
            raise _NotPlain
        return f"{key}:\n" + "".join(_line(k, v, "  ") for k, v in value.items())
    return f"{indent}{key}: {_scalar_or_list(value)}\n"


def _scalar_or_list(value: Any) -> str:
    if isinstance(value, list | tuple):
        if not all(isinstance(v, str) and _ITEM.match(v) for v in value):
            raise _NotPlain
        if any(v.casefold() in _SPECIAL for v in value):
            raise _NotPlain
        return "[" + ", ".join(value) + "]"
    if type(value) is int and 0 <= value < 10**17:
        return str(value)
    if type(value) is float and _FLOAT.match(repr(value)):
        return repr(value)
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        written = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if not _TIME.match(written):  # years before 1000 are tagged and quoted
            raise _NotPlain
        return written
    if isinstance(value, str) and len(value) <= _LONGEST:
        return _plain_string(value)
    raise _NotPlain
