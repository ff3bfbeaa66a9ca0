"""The calendar days a memory names, for rules about plans that end: ``since_day``, ``recurs``.

A plan, an appointment or a deadline is said with its day ("the demo for the board is
on 7 March 2026 at 3pm"; gathering writes relative days as such dates). Once that day
is over the plan is history, unless it recurs ("every Monday", "weekly"). This module
reads the days a text names, written as gathering writes them ("7 March 2026"), as
people often write them ("March 7, 2026") or in ISO form ("2026-03-07"), and whether
the text says it recurs; a text naming a month or a year only names no day, and a day
already past when the memory was made is history, not a plan. The rules decide what to
do with it (the default rules retire a past plan).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from dreamgit import lazyre

__all__ = ["last_day", "recurs", "since_day"]

_MONTH_NAMES = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
_MONTH_NUMBERS = {name.lower(): k for k, name in enumerate(_MONTH_NAMES.split("|"), start=1)}
_MONTH = r"(?P<{}>" + _MONTH_NAMES + r")"
# Compiled when first used: a recall whose weight reads no day never needs them.
_DAY_MONTH_YEAR = lazyre.compile(
    r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH.format("m") + r",?\s+(?P<y>\d{4})\b"
)
_MONTH_DAY_YEAR = lazyre.compile(
    r"\b" + _MONTH.format("m") + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})\b"
)
_ISO = lazyre.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")
_YEAR = lazyre.compile(r"\d{4}")
_RECURS = lazyre.compile(
    r"\b(?:every|each)\s+(?:other\s+|second\s+|\d+(?:st|nd|rd|th)?\s+)?"
    r"(?:day|week|month|year|morning|afternoon|evening|night|weekday|weekend|quarter"
    r"|sprint|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
    r"|\b(?:daily|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annually)\b"
    r"|\bon\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays"
    r"|weekends)\b",
    re.IGNORECASE,
)


def _day(year: str, month: str, day: str) -> date | None:
    number = int(month) if month.isdigit() else _MONTH_NUMBERS[month.lower()]
    try:
        return date(int(year), number, int(day))
    except ValueError:
        return None  # "31 February": no day at all


def last_day(text: str) -> date | None:
    """The latest calendar day ``text`` names, or None when it names none."""
    if not _YEAR.search(text):
        return None  # every form of a day has its year's four digits: most texts have none
    return _last_named_day(text)


# Only texts with a year's four digits are kept: a store of 100,000 memories holds
# some 12,000, which fit, where keeping every text asked about (the dream asks about
# each memory) overflowed the cache and cost a miss per memory on every read.
@lru_cache(maxsize=1 << 14)
def _last_named_day(text: str) -> date | None:
    days = [
        _day(m["y"], m["m"], m["d"])
        for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _ISO)
        for m in pattern.finditer(text)
    ]
    return max((d for d in days if d is not None), default=None)


#: No time since a day (one object: a dream asks of every memory and most name no day).
_NONE = timedelta(0)


def since_day(text: str, said: datetime, now: datetime) -> timedelta:
    """How long ago the latest day ``text`` names ended (UTC), when that day was still to
    come (or today) when it was ``said``; zero when it names no such day or the day is not
    over. A day already past when it was said ("met Michael on 15 January") is history,
    not a plan."""
    day = last_day(text)
    if day is None or day < said.astimezone(UTC).date():
        return _NONE
    end = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    return max(_NONE, now - end)


@lru_cache(maxsize=1 << 14)
def recurs(text: str) -> bool:
    """Whether ``text`` says what it names comes again ("every Monday", "weekly")."""
    return _RECURS.search(text) is not None
