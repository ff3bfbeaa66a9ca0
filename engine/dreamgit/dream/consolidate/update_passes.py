"""Updates that cross subjects, and the helpers every update check shares.

``update.py`` compares memories of one subject and relation. Some newer values reach
further: "Priya's board meeting was pushed to 15 February" moves the date of "Priya has
a big board meeting on 30 January" (the thing is the newer one's subject and the older
one's object); "no longer uses Poetry" said beside "uses uv now" leaves for the tool in
use; "Correction: it moved to port 6543" changes the latest value with the same noun,
whoever it was said of. Each pass looks at a bounded number of earlier memories
(:data:`WINDOW`), so the work grows with the number of memories.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from dreamgit.extract.frame import Frame
from dreamgit.extract.lexicon import lookup_tool
from dreamgit.model import Memory
from dreamgit.textsim import canonical_word

__all__ = [
    "PERIOD",
    "PRONOUNS",
    "WINDOW",
    "by_time",
    "canon_words",
    "changes_count",
    "endings_in",
    "ends_a_tool",
    "indefinite",
    "moved_dates",
    "moved_in",
    "moves_date",
    "overlap",
    "pronoun_changes",
    "pronoun_changes_in",
    "replaced_endings",
    "same_thing",
    "show",
    "tool_kind",
]

Framed = list[tuple[Memory, Frame]]
Groups = dict[frozenset[str], Framed]

#: Earlier memories of one subject and relation looked at per memory (newest first).
WINDOW = 64


def canon_words(words: str) -> frozenset[str]:
    """The canonical forms of space-separated words."""
    return frozenset(map(canonical_word, str.split(words)))


def by_time(m: Memory) -> tuple[str, str]:
    """Time order of memories: created, then id."""
    return (m.created.isoformat(), m.id)


def show(words: Iterable[str]) -> str:
    """Words for a reason, sorted; "nothing" for none."""
    return " ".join(sorted(words)) or "nothing"


def tool_kind(words: Iterable[str], *, whole: bool = False) -> set[str]:
    """The kinds of one-at-a-time tools ``words`` name; any kind when the move is ``whole``
    ("migrating fully to GCP": a second cloud is no longer beside the first)."""
    kinds = set()
    for w in words:
        tool = lookup_tool(w)
        if tool is not None and (whole or tool.exclusive or "framework" in tool.category):
            kinds.add(tool.category)
    return kinds


#: Change verbs that move when a thing happens ("was pushed to 15 February").
_DATE_MOVES = canon_words("push postpone delay reschedule move shift")


def moved_dates(
    by_subject: Groups,
) -> Iterator[tuple[Memory, Memory, str]]:
    """ "Priya's board meeting was pushed to 15 February" after "Priya has a big board
    meeting on 30 January": the thing is the newer one's subject and the older one's object,
    both of one owner."""
    for subject, group in by_subject.items():
        movers = [(m, f) for m, f in group if moves_date(f)]
        yield from moved_in(subject, movers, by_subject.__contains__, lambda s: by_subject[s])


def moves_date(frame: Frame) -> bool:
    """Whether ``frame`` says the date of a thing moved ("was pushed to 15 February")."""
    return bool(frame.change and frame.head in _DATE_MOVES and frame.dates)


def moved_in(
    subject: frozenset[str],
    movers: Framed,
    held: Callable[[frozenset[str]], bool],
    tail: Callable[[frozenset[str]], Framed],
) -> Iterator[tuple[Memory, Memory, str]]:
    """:func:`moved_dates` of one subject's ``movers`` (its memories that move a date, in
    order): each owner ``held`` (a subject of one word of ``subject``), the last
    :data:`WINDOW` of its memories (``tail``) looked at."""
    for memory, frame in movers:
        for owner in (frozenset({w}) for w in sorted(subject) if held(frozenset({w}))):
            thing = subject - owner
            for old, old_frame in tail(owner)[-WINDOW:]:
                was, now = old_frame.numbers | old_frame.dates, frame.numbers | frame.dates
                if old.created >= memory.created or old_frame.event or not old_frame.dates:
                    continue
                if thing and thing <= old_frame.object and was != now:
                    yield (
                        old,
                        memory,
                        f"{frame.relation_text}: {show(was - now)} → {show(now - was)}",
                    )


def replaced_endings(
    by_subject: Groups,
) -> Iterator[tuple[Memory, Memory, str]]:
    """:func:`endings_in` of every subject's memories."""
    for group in by_subject.values():
        yield from endings_in(group)


def endings_in(group: Framed) -> Iterator[tuple[Memory, Memory, str]]:
    """ "no longer uses Poetry" beside "uses uv now", said then or later: the tool of that
    kind in use now says what the ending said, so the ending leaves (one memory for the
    current value). Said in one breath, both have one time: the order does not matter."""
    endings = [(m, f) for m, f in group if ends_a_tool(f)]
    for old, old_frame in endings[-WINDOW:]:
        kinds = tool_kind(old_frame.object)
        if not kinds:
            continue
        for memory, frame in reversed(group[-WINDOW:]):
            same = (frame.head, frame.particle) == (old_frame.head, old_frame.particle)
            if not same or frame.negated or frame.event or memory.created < old.created:
                continue
            if frame.object & old_frame.object or not kinds & tool_kind(frame.object):
                continue
            yield (
                old,
                memory,
                f"{frame.relation_text}: {show(old_frame.object)} → " + show(frame.object),
            )
            break


def ends_a_tool(frame: Frame) -> bool:
    """Whether ``frame`` may end what a tool in use says (:func:`endings_in`)."""
    return bool(frame.negated and not frame.event and frame.object)


#: Subjects that stand for the thing last spoken of ("it moved to port 6543"), in one
#: order: the changes said of them are read in this order in every process (a set of
#: sets iterates in an order that follows the process's string hashes).
PRONOUNS = (frozenset({"it"}), frozenset({"this"}), frozenset({"that"}))


def pronoun_changes(
    by_subject: Groups,
) -> Iterator[tuple[Memory, Memory, str, str]]:
    """:func:`pronoun_changes_in` of the changes said of "it", each looked at beside the
    :data:`WINDOW` frames of other subjects said last before it."""
    changes = [
        (m, f) for subject in PRONOUNS for m, f in by_subject.get(subject, ()) if changes_count(f)
    ]
    if not changes:
        return
    timeline = sorted(
        (
            (m, f)
            for subject, group in by_subject.items()
            if subject not in PRONOUNS
            for m, f in group
        ),
        key=lambda pair: by_time(pair[0]),
    )
    starts = [m.created for m, _f in timeline]

    def before(memory: Memory) -> Framed:
        end = bisect_left(starts, memory.created)
        return timeline[max(0, end - WINDOW) : end]

    yield from pronoun_changes_in(changes, before)


def changes_count(frame: Frame) -> bool:
    """Whether a frame said of "it" changes a count ("it moved to port 6543")."""
    said = (frame.change or frame.rejected) and frame.numbers and frame.object
    return bool(said and not frame.dates)


def pronoun_changes_in(
    changes: Framed, before: Callable[[Memory], Framed]
) -> Iterator[tuple[Memory, Memory, str, str]]:
    """ "Correction: it moved to port 6543" after "the staging database listens on port
    5433": a change said of "it" retires the latest earlier memory, of any subject, whose
    value has the same noun with another number ("port 5433"), among the frames said
    ``before`` it (oldest first). Each comes with the newer memory's text naming what "it"
    stands for (the older one's subject as written there), or "" where the stand-in cannot
    be found in it."""
    for memory, frame in changes:
        for old, old_frame in reversed(before(memory)):
            if old_frame.event or old_frame.indefinite or not old_frame.numbers:
                continue
            if frame.object & old_frame.value and frame.numbers != old_frame.numbers:
                reason = (
                    f"{frame.relation_text} ({show(old_frame.subject)}): "
                    f"{show(old_frame.numbers - frame.numbers)} → "
                    f"{show(frame.numbers - old_frame.numbers)}"
                )
                yield old, memory, reason, _named(memory.text, frame, old.text, old_frame)
                break


def _named(text: str, frame: Frame, old_text: str, old_frame: Frame) -> str:
    """``text`` with its stand-in ("it moved to port 6543") replaced by the subject of the
    memory it corrects, as written there ("the staging database"); "" when either cannot be
    found (a subject implied, or the stand-in not right before the relation)."""
    if old_frame.implicit:
        return ""
    subject = re.search(rf"\b{re.escape(old_frame.subject_text)}\b", old_text, re.IGNORECASE)
    stand_in = re.search(
        rf"\b(?:{'|'.join(sorted(frame.subject))})\s+(?={re.escape(frame.relation_text)}\b)",
        text,
        re.IGNORECASE,
    )
    if subject is None or stand_in is None:
        return ""
    written = subject.group()
    if written.split(" ", 1)[0] in ("The", "A", "An"):
        written = written[:1].lower() + written[1:]  # a capital only where the stand-in had one
    if stand_in.group()[:1].isupper():
        written = written[:1].upper() + written[1:]
    return f"{text[: stand_in.start()]}{written} {text[stand_in.end() :]}"


def overlap(old: Frame, new: Frame) -> bool:
    """Whether two spans of days share a month and a day: one span, corrected."""
    return bool(old.dates & new.dates and old.numbers & new.numbers)


def indefinite(frame: Frame) -> bool:
    """Whether the subject opens with "a" / "an": any one of its kind, not a named one."""
    return frame.subject_text.split(" ", 1)[0] in ("a", "an")


@lru_cache(maxsize=1 << 16)
def _subject_words(written: str, subject: frozenset[str]) -> Counter[str]:
    """The words of a subject as ``written``, each as often as it is written (shared by
    every frame that writes it so: not to be changed). The newer-value check asks it of
    each pair of frames it compares, 700,000 times over 100,000 memories, of a few
    thousand subjects."""
    words = (w.removesuffix("'s") for w in written.split())
    return Counter(w for w in words if w in subject or canonical_word(w) in subject)


def same_thing(old: Frame, new: Frame) -> bool:
    """Whether two frames of one subject set name one thing: "the budget for Tidal Cloud"
    and "the budget for Tidal" share their words but not their count ("Tidal Cloud" is
    another project than "Tidal"); "the Atlas budget" and "the budget for Atlas" agree."""
    if old.implicit or new.implicit or old.subject != new.subject:
        return True
    if old.subject_text == new.subject_text:
        return True  # written alike, the same words as often
    subject = old.subject
    return _subject_words(old.subject_text, subject) == _subject_words(new.subject_text, subject)


#: "is away from 3 to 9 June", "… between 14 and 17 February": a span of days.
PERIOD = re.compile(
    r"\b(?:from|between)\s+(?:\w+\s+){0,2}?\d{1,2}(?:st|nd|rd|th)?\b.{0,24}?"
    r"\b(?:to|and|until|through)\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s*(?:to|until|through|-|\u2013)\s*(?:[A-Z][a-z]+\s+)?\d{1,2}\b"
    r"|\b[A-Z][a-z]+\s+\d{1,2}\s+(?:to|until|through|-|\u2013)\s+[A-Z][a-z]+\s+\d{1,2}\b"
)
