"""Relative dates made absolute against the session's time.

A memory is read weeks after its session, so "yesterday" must become the day it
meant: in a session of Monday 8 May 2023, "yesterday" is "on 7 May 2023", "last
Friday" "last Friday (5 May 2023)" (a weekday stays as said, its date beside it: the
date alone does not say the weekday a reader may ask about), "last week" "in the week
before 8 May 2023", "next month" "in June 2023", "last August" "in August 2022", "last
year" "in 2022", "three years ago" "in 2020", "I'm currently interning" "… as of 8 May
2023", "I recently joined" "… by 8 May 2023"; how long something has held ("together
for three years now") becomes when it began ("since 2020"); a day without its year
("Jan 15") gets the year its sentence means. A phrase that names no day exactly keeps
its vagueness but gains an anchor. Dates are written the way people read them ("5 May
2023"), never as a bare weekday.

A small table of phrases rather than a general date parser: the phrases people
use for the past and near future of a conversation are few, and a table resolves
them in microseconds, with no locale data to load.
"""

import re
from datetime import date, datetime, timedelta

from dreamgit import lazyre
from dreamgit.dream.gather.words import PAST_VERB
from dreamgit.dream.gather.yearless import HELD_FOR, MONTH_DAY, held_since, with_year
from dreamgit.extract.calendar_words import (
    MONTHS,
    WEEKDAYS,
    counted,
    day_text,
    month_text,
    weekday_number,
)

__all__ = ["DATE_WORDS", "JUST_DONE", "as_dated", "past_times", "resolve_dates"]

_COUNT = (
    r"\d{1,2}|a\s+couple\s+of|couple\s+of|a\s+few|few|an?|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|eleven|twelve"
)
_DAY = (
    r"monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thu|friday|fri|saturday|sat"
    r"|sunday|sun"
)
_PART = r"morning|afternoon|evening|night"
# "last August", "next March" ("May" only capitalised: "this may be")
_MONTH_NAMES = "|".join(m.lower() for m in MONTHS if m != "May") + "|(?-i:May)"

_PHRASE = lazyre.compile(
    rf"\b(?:"
    rf"(?P<dby>the\s+day\s+before\s+yesterday)"
    rf"|(?P<yest>yesterday)(?:\s+(?P<ypart>{_PART}))?"
    rf"|(?P<lastnight>last\s+night)"
    rf"|(?P<tom>tomorrow)(?:\s+(?P<tpart>{_PART}))?"
    rf"|(?:earlier\s+|later\s+)?(?P<today>today)"
    rf"|(?P<tonight>tonight)"
    rf"|this\s+(?P<thispart>{_PART})"
    rf"|(?P<ago>{_COUNT})\s+(?P<agounit>days?|weeks?|weekends?|months?|years?)\s+ago"
    rf"|(?P<otherday>the\s+other\s+day)"
    rf"|in\s+(?P<infut>{_COUNT})\s+(?P<infutunit>days?|weeks?|months?|years?)"
    # "for the past month", "the last week of July": a span, not a day to date
    rf"|(?<!\bthe\s)(?P<rel>last|this\s+past|past|this|next|this\s+coming|coming)\s+"
    rf"(?P<relunit>week(?:end)?|month|year|summer|winter|spring|autumn|fall|{_DAY}"
    rf"|{_MONTH_NAMES})"
    rf"|(?:on\s+)?(?P<lastday>{_DAY})\s+(?P<lastdayrel>last\s+week|this\s+week|next\s+week)"
    # "moved to Friday", "pushed back to Monday", "until Thursday": the next such day
    rf"|(?P<toward>(?:moved|pushed|postponed|delayed|rescheduled|shifted)(?:\s+back)?\s+to"
    rf"|until|till)\s+(?P<nextday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    rf"(?!\s+(?:last|this|next)\b)(?!s)"
    rf"|on\s+(?P<bareday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    rf"(?!\s+(?:last|this|next)\b)(?!s)"
    rf"|on\s+the\s+(?P<nth>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)(?!\s+(?:of|floor|time|century))"
    rf")(?![\w'])",
    re.IGNORECASE,
)
#: Words that mark a clause as dated (absolute or relative): salience reads it.
DATE_WORDS = lazyre.compile(
    rf"\b(?:{'|'.join(MONTHS)}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?\s+\d"
    rf"|\d{{4}}|yesterday|today|tonight|tomorrow|ago|the\s+other\s+day|last\s+\w+"
    rf"|next\s+\w+|this\s+(?:week|weekend|month|year)|{_DAY})\b",
    re.IGNORECASE,
)


def _relative(rel: str, unit: str, today: date) -> str:
    rel = " ".join(rel.lower().split())
    unit = unit.lower().rstrip(".")
    past = rel in ("last", "this past", "past")
    future = rel in ("next", "this coming", "coming")
    if unit == "week":
        if past:
            return f"in the week before {day_text(today)}"
        if future:
            return f"in the week after {day_text(today)}"
        return f"in the week of {day_text(today)}"
    if unit == "weekend":
        if past:
            return f"on the weekend before {day_text(today)}"
        saturday = today + timedelta(days=(5 - today.weekday()) % 7)
        if future and rel == "next" and saturday - today < timedelta(days=3):
            saturday += timedelta(days=7)
        return f"on the weekend of {day_text(saturday)}"
    if unit == "month":
        shift = -1 if past else 1 if future else 0
        return f"in {month_text(today.year, today.month + shift)}"
    if unit in _MONTH_NUMBERS:
        return f"in {_named_month(_MONTH_NUMBERS[unit], -1 if past else 1 if future else 0, today)}"
    if unit in _SEASONS or unit == "winter":
        return _season(unit, -1 if past else 1 if future else 0, today)
    shift = -1 if past else 1 if future else 0
    return f"in {today.year + shift}"


_MONTH_NUMBERS = {m.lower(): k for k, m in enumerate(MONTHS, 1)}


def _weekday(rel: str, wanted: int, today: date) -> date:
    """ "last Friday": the one before ``today``; "next Friday" at least three days
    ahead; "this Friday", "coming Friday": the next one."""
    if rel in ("last", "this past", "past"):
        return today - timedelta(days=(today.weekday() - wanted) % 7 or 7)
    ahead = (wanted - today.weekday()) % 7 or 7
    if rel == "next" and ahead < 3:
        ahead += 7
    return today + timedelta(days=ahead)


def _named_month(month: int, shift: int, today: date) -> str:
    """ "last August" on 8 May 2023 → "August 2022"; "next March" → "March 2024"; "this
    June" → "June 2023"."""
    year = today.year
    if shift < 0 and month >= today.month:
        year -= 1
    elif shift > 0 and month <= today.month:
        year += 1
    return month_text(year, month)


#: The months a season starts and ends in (as the northern half of the world counts them).
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}


def _season(name: str, shift: int, today: date) -> str:
    """ "last summer" on 21 May 2023 → "in summer 2022"; "this summer" → "in summer 2023";
    "next summer" on 2 September 2023 → "in summer 2024"."""
    if name == "winter":
        return _winter(shift, today)
    first, last = _SEASONS[name]
    year = today.year
    if shift < 0 and today.month <= last:
        year -= 1  # this year's has not ended yet: the one before
    elif shift > 0 and today.month >= first:
        year += 1  # this year's has begun: the one after
    return f"in {'autumn' if name == 'fall' else name} {year}"


def _winter(shift: int, today: date) -> str:
    """A winter spans two years: "in the winter of 2022-23" (December to February)."""
    inside = today.month in (12, 1, 2)
    current = today.year if today.month == 12 else today.year - 1  # the latest to begin
    if shift < 0:
        start = current - 1 if inside else current
    elif shift > 0 or (not inside and today.month >= 9):
        start = current + 1
    else:
        start = current
    return f"in the winter of {start}-{(start + 1) % 100:02d}"


def _ago(n: int, unit: str, today: date) -> str:
    unit = unit.lower().rstrip("s")
    if unit == "day":
        return f"on {day_text(today - timedelta(days=n))}"
    if unit == "week":
        return f"in the week of {day_text(today - timedelta(weeks=n))}"
    if unit == "weekend":
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        return f"on the weekend of {day_text(saturday - timedelta(weeks=n - 1))}"
    if unit == "month":
        return f"in {month_text(today.year, today.month - n)}"
    return f"in {today.year - n}"


#: Before "in two weeks", words that make it a length of time, not a date ahead.
_DURATION_BEFORE = lazyre.compile(
    r"(?:n't|\bnot|\bnever|\bdone|\bdid\s+it|\bfinished|\bbuilt|\bmade|\btook|\bonly)"
    r"\s+(?:\w+\s+){0,3}$",
    re.IGNORECASE,
)


def _ahead(n: int, unit: str, today: date) -> str:
    unit = unit.lower().rstrip("s")
    if unit == "day":
        return f"on {day_text(today + timedelta(days=n))}"
    if unit == "week":
        return f"in the week of {day_text(today + timedelta(weeks=n))}"
    if unit == "month":
        return f"in {month_text(today.year, today.month + n)}"
    return f"in {today.year + n}"


_FUTURE = lazyre.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan(?:ning)?\s+to|next)\b", re.IGNORECASE
)


def _nearest(weekday: int, today: date, future: object) -> date:
    """ "On Friday": the last one before today, or in a sentence about what will be,
    the next one after it."""
    if future:
        return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _day_of_month(day: int, today: date, future: bool) -> str | None:
    """ "On the 17th": this month's, or for a past day after today's, the month before
    ("I bought it on the 28th" said on 3 May is 28 April); a future one after today's is
    this month's, before it next month's."""
    year, month = today.year, today.month
    if day > today.day and not future:
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    elif day < today.day and future:
        year, month = (year, month + 1) if month < 12 else (year + 1, 1)
    try:
        return f"on {day_text(date(year, month, day))}"
    except ValueError:  # "the 31st" of a shorter month: left as it was said
        return None


def _replace(m: re.Match[str], today: date) -> str:
    g = m.groupdict()
    if g["dby"]:
        return f"on {day_text(today - timedelta(days=2))}"
    if g["yest"]:
        day = day_text(today - timedelta(days=1))
        return f"on the {g['ypart'].lower()} of {day}" if g["ypart"] else f"on {day}"
    if g["lastnight"]:
        return f"on the night of {day_text(today - timedelta(days=1))}"
    if g["tom"]:
        day = day_text(today + timedelta(days=1))
        return f"on the {g['tpart'].lower()} of {day}" if g["tpart"] else f"on {day}"
    if g["today"]:
        return f"on {day_text(today)}"
    if g["tonight"]:
        return f"on the night of {day_text(today)}"
    if g["thispart"]:
        return f"on the {g['thispart'].lower()} of {day_text(today)}"
    if g["ago"]:
        if "few" in g["ago"].lower() or "couple" in g["ago"].lower():
            return f"{g['ago']} {g['agounit']} before {day_text(today)}"
        return _ago(counted(g["ago"]), g["agounit"], today)
    if g["otherday"]:  # "the other day": a few days ago
        return f"a few days before {day_text(today)}"
    if g["infut"]:
        if _DURATION_BEFORE.search(m.string[max(0, m.start() - 40) : m.start()]):
            return m.group()  # "it wasn't built in a day", "done in two weeks": how long
        return _ahead(counted(g["infut"]), g["infutunit"], today)
    if g["rel"]:
        if g["relunit"].lower().rstrip(".") in WEEKDAYS:
            rel = " ".join(g["rel"].lower().split())
            return _beside(m, _weekday(rel, weekday_number(g["relunit"]), today))
        return _relative(g["rel"], g["relunit"], today)
    if g["nextday"]:
        return _beside(m, _nearest(weekday_number(g["nextday"]), today, future=True))
    if g["bareday"]:
        future = _FUTURE.search(m.string)
        if not future and not _DONE.search(m.string):
            return m.group()  # "I play tennis on Sunday": a habit, not a day
        return _beside(m, _nearest(weekday_number(g["bareday"]), today, future))
    if g["nth"]:
        written = _day_of_month(int(g["nth"]), today, _FUTURE.search(m.string) is not None)
        return m.group() if written is None else written
    wanted = weekday_number(g["lastday"])
    monday = today - timedelta(days=today.weekday())
    shift = {"last week": -7, "this week": 0, "next week": 7}[" ".join(g["lastdayrel"].split())]
    return _beside(m, monday + timedelta(days=shift + wanted))


#: A weekday as said with its date beside it ("last Friday (5 May 2023)"): what
#: :func:`_beside` writes.
_WEEKDAY_BESIDE = lazyre.compile(
    rf"\b(?:(?:last|next|this\s+past|past|this\s+coming|this|coming|on)\s+)?(?:{_DAY})"
    r"(?:\s+(?:last|this|next)\s+week)?\s+\((?P<day>\d{1,2}\s+[a-z]+\s+\d{4})\)",
    re.IGNORECASE,
)


def as_dated(text: str) -> str:
    """``text`` with each weekday kept as said beside its date read as the date alone
    ("on 5 May 2023"): what it says, for the repeat check, and what it would cost
    without the words as said, for the gather budget."""
    if "(" not in text:  # the date beside stands in brackets: most texts have none
        return text
    return _WEEKDAY_BESIDE.sub(lambda m: f"on {m['day']}", text)


def _beside(m: re.Match[str], day: date) -> str:
    """A weekday as said with its date beside it: "last Saturday (20 May 2023)". The
    date alone would lose the weekday a reader (or a question) may name."""
    return f"{' '.join(m.group().split())} ({day_text(day)})"


#: A verb of something done ("got", "finished"), not of a thought ("wanted", "felt").
JUST_DONE = (
    r"(?!(?:wanted|needed|thought|figured|meant|felt|wondered|hoped|loved|liked|wished"
    r"|realized|realised|noticed|remembered|knew|understood|said|was|were|did)\b)" + PAST_VERB
)
# "just" or "recently" before something done: it happened by the day it is said.
_JUST_DONE = lazyre.compile(
    rf"(?<=\s)(?:just|recently)\s+(?={JUST_DONE})|^recently,?\s+(?=\S)",
    re.IGNORECASE,
)
_SUBJECT_NEXT = lazyre.compile(
    r"(?:i|i'm|i've|we|we're|we've|my|our|he|she|they|it)\b", re.IGNORECASE
)
# "I'm currently interning at …", "these days I mostly cook": true as of the day it is said.
_AS_OF = lazyre.compile(
    r"(?:,\s*)?\b(?:currently|right\s+now|at\s+the\s+moment|these\s+days|nowadays|lately)\b,?\s*",
    re.IGNORECASE,
)
# "when there is a currently running migration": "currently" inside a noun phrase describes the
# thing (an active session, whenever it is), not the day the sentence was true.
_DETERMINER_BEFORE = lazyre.compile(
    r"\b(?:a|an|the|any|each|every|no|its|their|your|my|our|this|that)\s+$", re.IGNORECASE
)

# "I got into photography recently", "I've been painting a lot recently": "recently"
# anywhere else, after what was done (by that day) or what has been going on (as of it).
_RECENTLY = lazyre.compile(
    r"(?:,\s*)?\brecently\b(?P<ends>(?=\s*(?:[,.;:!?]|$|(?:and|but|so)\b)))?\s*", re.IGNORECASE
)
_GOING_ON = lazyre.compile(r"\b(?:has|have|had|'ve|been|am|is|are|'m|'s|'re)\b", re.IGNORECASE)
_DONE = lazyre.compile(rf"\b{JUST_DONE}", re.IGNORECASE)


# "I've always just stayed away", "I'll just need it": a habit or a plan, nothing done.
_HABIT = lazyre.compile(
    r"\b(?:always|never|usually|often|sometimes|every|will|'ll|would|gonna)\b", re.IGNORECASE
)
# where a clause ends: not at the comma inside a number ("5,000")
_CLAUSE_END = lazyre.compile(r"\s*(?:,(?!\d)|[;:]|\s[-\u2013\u2014]\s)")


# "Just yesterday I joined": "just" says how near the day is, which its date now says.
_JUST_WHEN = lazyre.compile(
    r"\bjust\s+(?=(?:yesterday|today|tonight|this\s+(?:morning|afternoon|evening|week|weekend)"
    r"|last\s+\w+)\b)",
    re.IGNORECASE,
)
_IS_NEXT = lazyre.compile(r"\s+(?:is|was|will\s+be|has\s+been)\b|'s\b", re.IGNORECASE)


def past_times(text: str) -> list[str]:
    """The relative phrases of ``text`` that name a time before the day it is said
    ("yesterday", "last weekend", "two weeks ago", "this past Friday"), as said."""
    found = []
    for m in _PHRASE.finditer(text):
        rel = " ".join((m["rel"] or "").lower().split())
        gone = m["yest"] or m["lastnight"] or m["dby"] or m["ago"] or m["otherday"]
        if gone or rel in ("last", "this past"):
            found.append(" ".join(m.group().lower().split()))
    return found


def _anchored(text: str, word: re.Match[str], rest: int, anchor: str) -> str:
    """``text`` with ``anchor`` ("by 8 May 2023") where the clause holding the relative
    ``word`` ("just", "currently") ends, the text going on at ``rest`` (after the word
    to drop it, at it to keep it): "I just reorganized my shelf, honestly" → "I
    reorganized my shelf by 8 May 2023, honestly"."""
    end = _CLAUSE_END.search(text, word.end())
    cut = end.start() if end is not None else len(text.rstrip(" .!"))
    head, said = text[: word.start()].rstrip(), text[rest:cut].strip()
    return (f"{head} {said}".strip() + f" {anchor}{text[cut:]}").rstrip(" .!")


def resolve_dates(text: str, when: datetime) -> tuple[str, bool]:
    """``text`` with its relative dates written absolutely, and whether it had any."""
    today = when.date()
    text = _JUST_WHEN.sub("", text)
    text, years = MONTH_DAY.subn(lambda m: with_year(m, today), text)
    held = HELD_FOR.sub(lambda m: held_since(m, today), text)
    changed = years > 0 or held != text
    text = held

    def sub(m: re.Match[str]) -> str:
        nonlocal changed
        written = _replace(m, today)
        changed = changed or written != m.group()
        if m.start() == 0 and _IS_NEXT.match(m.string, m.end()):
            # "Tomorrow is my day off": the day is the subject, "9 May 2023 is …"
            written = re.sub(r"^(?:on|in)\s+", "", written)
        return written

    out = _PHRASE.sub(sub, text)
    if changed:
        out = re.sub(r"\b(?:on|in)\s+(on|in)\s+", r"\1 ", out)
        # "sushi for tonight": "for the night of …", not "for on the night of …"
        out = re.sub(r"\b(for|until|till|by|from|since)\s+(?:on|in)\s+", r"\1 ", out, flags=re.I)
    elif (m := _JUST_DONE.search(out)) and not DATE_WORDS.search(out) and not _HABIT.search(out):
        # "I just got accepted": done by the day it was said
        out, changed = _anchored(out, m, m.end(), f"by {day_text(today)}"), True
    elif (m := _RECENTLY.search(out)) and not DATE_WORDS.search(out) and not _HABIT.search(out):
        before = out[: m.start()]
        done = _DONE.search(before) is not None and _GOING_ON.search(before) is None
        anchor = f"{'by' if done else 'as of'} {day_text(today)}"
        if m["ends"] is not None:  # "learning guitar recently and …": the day takes its place
            rest = out[m.end() :]
            glue = "" if rest.startswith((",", ".", ";", ":", "!", "?")) else " "
            out = f"{before.rstrip()} {anchor}{glue}{rest}".rstrip(" .!")
        else:
            out = _anchored(out, m, m.end(), anchor)
        changed = True
    elif (
        (m := _AS_OF.search(out))
        and not DATE_WORDS.search(out)
        and not _FUTURE.search(out)
        and not _DETERMINER_BEFORE.search(out, 0, m.start())
    ):
        # "I'm currently interning at …": true as of that day. The word stays when it opens
        # a clause whose "I" went unsaid ("Currently training for …"): it tells who speaks
        keep = m.start() == 0 and _SUBJECT_NEXT.match(out, m.end()) is None
        out, changed = (
            _anchored(out, m, m.start() if keep else m.end(), f"as of {day_text(today)}"),
            True,
        )
    return out, changed
