"""Time as dreamgit sees it: injectable, timezone-aware, printed one way.

``--now`` and ``$DREAMGIT_NOW`` fix the clock so runs are reproducible; without
them the wall clock is used. All times are UTC and written as ``...Z``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dreamgit.errors import UserError

__all__ = ["before", "format_time", "parse_age", "parse_time", "utcnow"]

_AGE = re.compile(r"(\d+)\s*([mhdw])\Z")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


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
    moment = value.astimezone(UTC)
    # Not strftime("%Y"): the C library writes the year 1 as "1", which no parser reads back.
    return f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}Z"


def parse_age(text: str, *, what: str) -> timedelta | None:
    """``90m``, ``12h``, ``30d``, ``2w`` as a duration; None for text of another shape.

    A number too large for a duration is the user's to fix, not a crash.
    """
    match = _AGE.match(text.strip().lower())
    if match is None:
        return None
    try:
        return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
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
