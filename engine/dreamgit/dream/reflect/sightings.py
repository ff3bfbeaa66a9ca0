"""Sightings: on which days, in which sessions, a memory was said.

A memory's ``sources`` name every session that said it (a repeat reinforces the
memory instead of copying it), and a session's day is in its id (``s-YYYYMMDD-…``)
or its path (``sessions/YYYY/MM/DD/…``, an OpenClaw note ``memory/YYYY-MM-DD.md``).
A source whose day cannot be read is no sighting: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

from dreamgit.model import Memory

__all__ = ["Sighting", "session_days", "sightings", "window_start"]

_ID_DAY = re.compile(r"^s-(\d{4})(\d{2})(\d{2})-")
_PATH_DAY = re.compile(r"(\d{4})[/-](\d{2})[/-](\d{2})(?:/|\.md$|-)")


@dataclass(frozen=True, order=True)
class Sighting:
    """One session that said a memory, and its day."""

    day: date
    session: str

    def render(self) -> str:
        """``2026-11-03 (s-20261103-ab12cd)``, as evidence reads."""
        return f"{self.day.isoformat()} ({self.session})"


def _day(text: str, pattern: re.Pattern[str]) -> date | None:
    m = pattern.search(text)
    if m is None:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def session_days(paths: Mapping[str, str]) -> dict[str, date]:
    """Session id → its day, for every session (id → path) whose day can be read."""
    found = {}
    for ident, path in paths.items():
        day = _day(ident, _ID_DAY) or _day(path, _PATH_DAY)
        if day is not None:
            found[ident] = day
    return found


def window_start(days: Mapping[str, date], now: datetime, window_days: int) -> date | None:
    """The reflect window's first day: the earliest of the last ``window_days`` days that
    have sessions, up to ``now`` (None: no session yet).

    Days with sessions, not calendar days: a user who pauses for a month comes back to
    the same window, and a chat whose sessions are weeks apart is not read one at a time.
    """
    active = sorted({d for d in days.values() if d <= now.date()})
    return active[-window_days:][0] if active else None


def sightings(
    memory: Memory, days: Mapping[str, date], *, since: date | None, now: datetime
) -> list[Sighting]:
    """The memory's sightings from ``since`` (the window's first day) to ``now``, oldest first."""
    if since is None:
        return []
    today = now.date()
    found = [
        Sighting(day, s)
        for s in memory.sources
        if (day := days.get(s)) is not None and since <= day <= today
    ]
    return sorted(set(found)) if len(found) > 1 else found
