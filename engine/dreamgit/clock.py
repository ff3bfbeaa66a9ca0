"""Time as dreamgit sees it: injectable, timezone-aware, printed one way.

``--now`` and ``$DREAMGIT_NOW`` fix the clock so runs are reproducible; without
them the wall clock is used. All times are UTC and written as ``...Z``.
Durations are read here too, by one parser for the rule language (``90s``) and the
flags (``forget --older-than 2w``, ``--as-of 36h``), so all of them accept the same.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dreamgit.errors import UserError

__all__ = [
    "DURATION_UNITS",
    "before",
    "format_time",
    "parse_age",
    "parse_duration",
    "parse_time",
    "utcnow",
]

#: What a duration's unit may be, and how long one of it is.
DURATION_UNITS = {
    "ms": timedelta(milliseconds=1),
    "s": timedelta(seconds=1),
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
}
_DURATION = re.compile(r"(\d+)(\.\d+)?\s*(ms|s|m|h|d|w)\Z")


def utcnow() -> datetime:
    """The wall clock in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def parse_time(text: str, *, what: str = "time") -> datetime:
    """Parse an ISO-8601 time; a time without a zone is taken as UTC.

    ``what`` names the time in the error (``--now``, a file's ``created``): a bad
    date in a file must never be blamed on an option the user did not give.
    """
    raw = text.strip()
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UserError(
            f"{what}: {text!r} is not an ISO-8601 time",
            hint="write it like 2026-11-22T03:00:00Z",
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def format_time(value: datetime) -> str:
    """``2026-11-22T03:00:00Z``: the one way dreamgit writes a time."""
    m = value.astimezone(UTC)
    # Fields, not strftime: it writes the year 1 as "1", which no parser reads back, and
    # costs twice as much (a first recall at 100,000 memories formats 200,000 times).
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}Z"


def parse_duration(text: str) -> timedelta | None:
    """``500ms``, ``90s``, ``90m``, ``1.5h``, ``30d``, ``2w`` as a duration; None for another shape.

    Case and a space before the unit do not matter. A number too large for a
    duration raises OverflowError, which each caller words for where it was written.
    """
    match = _DURATION.match(text.strip().lower())
    if match is None:
        return None
    whole, fraction, unit = match.groups()
    count: float = float(whole + fraction) if fraction else int(whole)
    return DURATION_UNITS[unit] * count


def parse_age(text: str, *, what: str) -> timedelta | None:
    """A duration given to the flag ``what`` (see :func:`parse_duration`); None for text
    of another shape. A number too large for a duration is the user's to fix, not a crash.
    """
    try:
        return parse_duration(text)
    except OverflowError:
        raise UserError(
            f"{what} {text.strip()!r} is too long: a duration is at most {timedelta.max.days} days",
            hint="write a shorter age, or a date such as 2020-01-01",
        ) from None


def before(now: datetime, age: timedelta, *, what: str, text: str) -> datetime:
    """``now - age``, or a UserError when that is before the year 1."""
    try:
        return now - age
    except OverflowError:
        raise UserError(
            f"{what} {text.strip()!r} reaches back before the year 1",
            hint="write a shorter age, or a date such as 2020-01-01",
        ) from None
