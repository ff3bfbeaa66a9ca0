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
from datetime import date, datetime, timedelta

from dreamgit.model import Memory

__all__ = ["Sighting", "session_days", "sightings"]

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


def sightings(
    memory: Memory, days: Mapping[str, date], *, now: datetime, window_days: int
) -> list[Sighting]:
    """The memory's sightings within the last ``window_days`` days before ``now``, oldest first."""
    since = now.date() - timedelta(days=window_days)
    seen = {
        Sighting(days[s], s) for s in memory.sources if s in days and since <= days[s] <= now.date()
    }
    return sorted(seen)
