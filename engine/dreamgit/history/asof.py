"""Memory as it was: main at a point in time, from git history.

``--as-of`` takes an ISO time, a date (the end of that day, UTC: what was true on
it), or an age such as ``7d`` or ``36h`` (that long before now). The state is
main's newest first-parent commit made at or before that time, so the answer
is what an agent reading main then would have seen.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time

from dreamgit.clock import before, parse_age, parse_time
from dreamgit.errors import UserError
from dreamgit.store.repo import MemoryRepo

__all__ = ["main_as_of", "parse_when"]


def parse_when(text: str, *, now: datetime, what: str = "--as-of") -> datetime:
    """A point in time from an ISO time, a date, or an age before ``now``."""
    raw = text.strip()
    age = parse_age(raw, what=what)
    if age is not None:
        return before(now, age, what=what, text=raw)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        try:
            day = datetime.strptime(raw, "%Y-%m-%d").date()
        except ValueError:
            pass
        else:
            return datetime.combine(day, time(23, 59, 59), tzinfo=UTC)
    try:
        return parse_time(raw, what=what)
    except UserError:
        raise UserError(
            f"{what}: {text!r} is not a time, a date or an age",
            hint="write 2026-11-20, 2026-11-20T09:00:00Z, or an age like 7d or 36h",
        ) from None


def main_as_of(repo: MemoryRepo, when: datetime) -> str | None:
    """Main's newest first-parent commit at or before ``when`` (None: main did not exist yet)."""
    tip = repo.tip()
    if tip is None:
        return None
    limit = int(when.timestamp())
    for info in repo.store.walk(tip, first_parent=True):
        if info.time <= limit:
            return info.id
    return None
