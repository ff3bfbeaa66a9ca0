"""The days a memory names, for rules about plans that end (ruleset/days.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.ruleset import days
from dreamgit.ruleset.days import last_day, recurs, since_day

SAID = datetime(2026, 3, 6, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("The demo for the board is on 7 March 2026 at 3pm.", date(2026, 3, 7)),
        ("The review is on March 9, 2026.", date(2026, 3, 9)),
        ("Deadline 2026-03-12, then a retro on 14 March 2026.", date(2026, 3, 14)),
        ("The launch is in March 2026.", None),  # a month names no day
        ("The launch is on 31 February 2026.", None),  # no such day
        ("The user likes tea.", None),
    ],
)
def test_the_latest_day_a_text_names(text: str, day: date | None) -> None:
    """Days as gathering writes them, as people write them and in ISO form; the latest."""
    assert last_day(text) == day


def test_only_texts_with_a_year_are_kept_and_kept_days_read_the_same() -> None:
    """A text without four digits is answered without the cache; one with them is kept,
    and asked again (kept or not) gives the same day."""
    days._last_named_day.cache_clear()
    assert last_day("The user likes tea, no year here.") is None
    assert days._last_named_day.cache_info().currsize == 0
    text = "The demo is on 7 March 2026 at 3pm."
    assert last_day(text) == date(2026, 3, 7)
    assert days._last_named_day.cache_info().currsize == 1
    assert last_day(text) == date(2026, 3, 7)
    days._last_named_day.cache_clear()
    assert last_day(text) == date(2026, 3, 7)


def test_since_day_counts_from_the_end_of_the_day_it_names() -> None:
    """Zero until the day is over, then how long ago it ended."""
    text = "The demo for the board is on 7 March 2026 at 3pm."
    assert since_day(text, SAID, datetime(2026, 3, 7, 23, 0, tzinfo=UTC)) == timedelta(0)
    assert since_day(text, SAID, datetime(2026, 3, 10, 3, 0, tzinfo=UTC)) == timedelta(
        days=2, hours=3
    )


def test_a_day_already_past_when_said_is_history_not_a_plan() -> None:
    """ "Met Ana on 1 March 2026", said on the 6th, never counts as a plan's day."""
    later = datetime(2026, 4, 1, tzinfo=UTC)
    assert since_day("The user met Ana on 1 March 2026.", SAID, later) == timedelta(0)
    assert since_day("The user has no day here.", SAID, later) == timedelta(0)


@pytest.mark.parametrize(
    ("text", "again"),
    [
        ("The user has a planning call every Monday, starting 4 May 2026.", True),
        ("The standup is daily at 9:30.", True),
        ("The user goes climbing on Thursdays.", True),
        ("The demo for the board is on 7 March 2026.", False),
        ("The user read every page of the report on 2 March 2026.", False),
    ],
)
def test_what_recurs(text: str, again: bool) -> None:
    """ "every Monday", "daily", "on Thursdays" recur; "every page" is no time."""
    assert recurs(text) is again


ONE_DAY = timedelta(days=1)


def _since_day_as_defined(text: str, said: datetime, now: datetime) -> timedelta:
    day = last_day(text)
    if day is None or day < said.astimezone(UTC).date():
        return timedelta(0)
    return max(timedelta(0), now - datetime(day.year, day.month, day.day, tzinfo=UTC) - ONE_DAY)


_PARTS = ["on 7 March 2026", "2026-03-09", "March 8, 2027", "in 2026", "at 3pm", "31 February 2026"]


@given(
    st.lists(st.sampled_from(_PARTS) | st.text(max_size=8), max_size=4),
    st.integers(-40, 400),
    st.integers(-40, 800),
)
def test_since_day_is_the_time_since_the_last_day_named(
    parts: list[str], said_days: int, now_days: int
) -> None:
    """Whatever the text, ``since_day`` is its definition over ``last_day`` (vetting asks
    it of every memory through a shorter path): a day to come when said, and over."""
    text = " ".join(parts)
    said = datetime(2026, 1, 1, 9, tzinfo=UTC) + timedelta(days=said_days)
    now = datetime(2026, 1, 1, 12, tzinfo=UTC) + timedelta(days=now_days)
    assert since_day(text, said, now) == _since_day_as_defined(text, said, now)
