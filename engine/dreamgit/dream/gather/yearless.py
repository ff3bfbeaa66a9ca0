"""Dates said without their year: a day of a month, and how long something has held.

"Jan 15" gets the year its sentence means: ahead of the session's day when the sentence
looks ahead or the day is what a thing is set for ("starting June 1"), behind it when the
clause holding the day tells what was, else (or when both) the nearest (:func:`with_year`).
"For three years now" said in May 2023 becomes when it began, "since 2020"
(:func:`held_since`), but only in a sentence that says it still holds.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from dreamgit import lazyre
from dreamgit.extract.calendar_words import MONTHS, counted, day_text, month_text

__all__ = [
    "HELD_FOR",
    "MONTH_DAY",
    "held_since",
    "with_year",
]

# "Jan 15", "July 20th", "the 3rd of March": a day of a month, the year unsaid (not the
# holiday "the 4th of July").
_MONTH_NAME = (
    r"(?P<{g}>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_ORDINAL = r"(?P<{g}>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b"
_NO_YEAR = r"(?!,?\s*\d{{4}}\b|[\w:/.-]\w)"
MONTH_DAY = lazyre.compile(
    r"\b(?:"
    + _MONTH_NAME.format(g="m1")
    + r"\s+"
    + _ORDINAL.format(g="d1")
    + _NO_YEAR.format()
    + r"|(?:the\s+)?(?<![\d.,:/])(?!4th\s+of\s+July)"
    + _ORDINAL.format(g="d2")
    + r"\s+(?:of\s+)?"
    + _MONTH_NAME.format(g="m2")
    + _NO_YEAR.format()
    + r")"
)


_AHEAD = lazyre.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan|plans|planning|next|upcoming|coming\s+up|due"
    r"|deadline|until|till|moved\s+to|pushed\s+(?:back\s+)?to|is\s+on|are\s+on|starts?\s+on)\b",
    re.IGNORECASE,
)
_BEHIND = lazyre.compile(r"\b(?:was|were|went|did|had|ago|last|(?P<ed>\w{3,}ed))\b", re.IGNORECASE)
# "I'm worried", "it is scheduled", "I've booked": an "-ed" word after a form of "be",
# "feel", "get" or "have" says a state or a thing done, not when the day was ("I've
# booked a session on May 20" looks ahead to the session).
_STATE_BEFORE = lazyre.compile(
    r"(?:\b(?:am|is|are|be|been|being|feel|feels|felt|get|gets|got|have|has)|'m|'re|'s|'ve)"
    r"\s+(?:(?:\w+ly|just|already|now|all|so)\s+)?$",
    re.IGNORECASE,
)
# Where the clause that holds a day begins or ends: "I applied on March 2, and I'm waiting
# for an answer by April 30" tells of March 2 and looks ahead to April 30.
_CLAUSE_EDGE = lazyre.compile(
    r"[;:,]\s|\s[-\u2013\u2014]\s|\s(?:and|but|so|because|while|which|who|where)\s", re.IGNORECASE
)


# "the role starting June 1", "a review scheduled for Oct 15": the day a thing is set for,
# ahead unless its clause says it was ("the call was scheduled for May 3").
_SET_FOR = lazyre.compile(
    r"\b(?:starting|beginning|(?:scheduled|booked|planned|set)\s+for)\s+(?:on\s+)?(?=$|"
    + _MONTH_NAME.format(g="m")
    + r"|\d)",
    re.IGNORECASE,
)
_WAS = lazyre.compile(r"\b(?:was|were|had)\b", re.IGNORECASE)


def _set_for_ahead(m: re.Match[str], clause: str) -> bool:
    """Whether the day ``m`` names is what a thing is set for, in a clause that does not
    say it was ("joined the club starting March 3" tells of a past act and a start: the
    nearest such day)."""
    return _SET_FOR.search(m.string, 0, m.start()) is not None and not _WAS.search(clause)


def _clause_of(m: re.Match[str]) -> str:
    """The clause of ``m``'s sentence that holds the day ``m`` names."""
    text = m.string
    start = 0
    for edge in _CLAUSE_EDGE.finditer(text, 0, m.start()):
        start = edge.end()
    end = _CLAUSE_EDGE.search(text, m.end())
    return text[start : end.start() if end is not None else len(text)]


def _tells_what_was(clause: str) -> bool:
    """Whether ``clause`` tells what was: a past form, not an "-ed" word of a state."""
    for cue in _BEHIND.finditer(clause):
        if cue["ed"] and _STATE_BEFORE.search(clause, 0, cue.start()):
            continue
        if cue["ed"] and _SET_FOR.match(clause, cue.start()):
            continue  # "scheduled for": what a thing is set for, not when it was
        return True
    return False


def with_year(m: re.Match[str], today: date) -> str:
    """The day ``m`` names, in the year its sentence means: ahead of ``today`` when the
    sentence looks ahead ("the launch is on Jan 15"), behind it when it tells what was,
    else the nearest."""
    name = (m["m1"] or m["m2"])[:3].lower()
    month = next(k for k, full in enumerate(MONTHS, 1) if full[:3].lower() == name)
    day = int(m["d1"] or m["d2"])
    options = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            options.append(date(year, month, day))
        except ValueError:  # 30 February
            continue
    sentence = m.string
    clause = _clause_of(m)
    was = _tells_what_was(clause)
    set_for = _set_for_ahead(m, clause)
    if _AHEAD.search(sentence) or (set_for and not was):
        options = [d for d in options if d >= today - timedelta(days=1)] or options
    elif was and not set_for:
        options = [d for d in options if d <= today + timedelta(days=1)] or options
    if not options:
        return m.group()
    return day_text(min(options, key=lambda d: abs((d - today).days)))


# "I've been playing for four months now", "we've been together for three years": how
# long something has held, which a memory read later must say as when it began.
HELD_FOR = lazyre.compile(
    r"\bfor\s+(?:(?P<about>about|around|almost|nearly|roughly|close\s+to|just\s+under|under)"
    r"\s+|(?P<over>over|more\s+than|just\s+over)\s+)?"
    r"(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+(?P<unit>years?|months?)(?P<now>,?\s+(?:now|already))?"
    r"(?!\s+(?:in\s+a\s+row|straight|running|ago|old|from|after|before|later)\b)(?![\w-])",
    re.IGNORECASE,
)
_PERFECT = lazyre.compile(
    r"(?:'ve|\bhave|'s|\bhas)\s+(?:\w+\s+){0,2}?(?:been|had|known|lived|owned|used|worked"
    r"|played|studied|taught|practi[cs]ed|run|done|dated|volunteered|coached)\b",
    re.IGNORECASE,
)


def held_since(m: re.Match[str], today: date) -> str:
    """ "for three years now" said in May 2023 → "since 2020"; "for about four months" →
    "since about January 2023"; only in a sentence that says it still holds."""
    if not m["now"] and not _PERFECT.search(m.string, 0, m.start()):
        return m.group()
    n = counted(m["n"])
    if m["unit"].lower().startswith("year"):
        start = str(today.year - n)
    else:
        start = month_text(today.year, today.month - n)
    how = "about " if m["about"] else "before " if m["over"] else ""
    return f"since {how}{start}"
