"""The calendar's words: month and weekday names, counts said in words, a day as written.

Shared by gathering's readers of dates said in a sentence (``dates``, ``yearless``) and
by session notes, which write their session's day the same way: "a couple of" counts 2,
"tues" is a Tuesday, and a day is written the way people read it, "5 May 2023", a month
"May 2023" (a month number past either end of the year moves the year).
"""

from __future__ import annotations

from datetime import date

__all__ = [
    "MONTHS",
    "WEEKDAYS",
    "counted",
    "day_text",
    "month_text",
    "weekday_number",
]

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thurs": 3, "thu": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2,
    "a couple of": 2, "few": 3, "a few": 3,
}  # fmt: skip


def day_text(day: date) -> str:
    """A day as people write it: "5 May 2023"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def month_text(year: int, month: int) -> str:
    while month < 1:
        year, month = year - 1, month + 12
    while month > 12:
        year, month = year + 1, month - 12
    return f"{MONTHS[month - 1]} {year}"


def counted(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _NUMBERS.get(word, 1)


def weekday_number(word: str) -> int:
    return WEEKDAYS[word.lower().rstrip(".")]
