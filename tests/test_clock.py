"""How dreamgit writes a time: one shape, whatever the zone or the year."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.clock import format_time, parse_time

_ZONES = st.integers(min_value=-23 * 60, max_value=23 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)


@given(st.datetimes(min_value=datetime(2, 1, 1), timezones=_ZONES))
def test_a_time_is_written_in_utc_to_the_second_and_reads_back(value: datetime) -> None:
    """Any aware time: ``YYYY-MM-DDTHH:MM:SSZ`` in UTC (the year in four digits), which
    the parser reads back as the same second."""
    written = format_time(value)
    moment = value.astimezone(UTC)
    assert written == moment.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")
    assert parse_time(written) == moment.replace(microsecond=0)


def test_an_early_year_keeps_four_digits() -> None:
    """The year 5 is written 0005, not 5 (as the C library's strftime would)."""
    assert format_time(datetime(5, 3, 4, 1, 2, 3, tzinfo=UTC)) == "0005-03-04T01:02:03Z"
