"""What a memory says to compare for updates: its frames, its age, a promotion.

A memory's fact is read as frames (:func:`frames_by_subject`): the sentence (a change
when it ends in "now" or is a rewrite), the tool it says was left, the place moved from,
and the frame of each later clause ("…, so now Ana has three kids"). The frames are
grouped by subject, oldest first, so that :mod:`.update` compares only memories about
one subject; a promotion ("got promoted to Staff Engineer") is kept with the role.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from dreamgit.dream.consolidate.restate import as_fact
from dreamgit.dream.consolidate.update_passes import PERIOD, by_time, canon_words, indefinite
from dreamgit.dream.consolidate.update_readings import Reading, kept_reading, prefetch_readings
from dreamgit.extract.frame import Frame, parse_frame
from dreamgit.extract.shared_sets import EMPTY
from dreamgit.extract.signature import signature
from dreamgit.model import Memory
from dreamgit.textsim import canonical_word

__all__ = ["ROLE_RELATIONS", "Framed", "age", "frames_by_subject", "read_memory"]

#: A memory with one frame of what it says.
Framed = list[tuple[Memory, Frame]]

#: Verbs that put a thing on another tool: a change of what it is built with.
_REWRITES = canon_words("rewrite port rebuild")

# "is 29 years old", "is 30 now"; "turned 30" (not "turned 30 minutes late").
_AGE_IS = re.compile(r"^(?P<n>[\w-]+)(?:\s+years?\s+old)?(?:\s+now)?$")
_AGE_TURNED = re.compile(
    r"^(?P<n>[\w-]+)\b(?!\s+(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?)\b)"
)


def age(frame: Frame) -> str | None:
    """The age a frame gives its subject ("is 29 years old", "turned 30"), else None."""
    if frame.particle or frame.head not in ("be", "turn"):
        return None
    m = (_AGE_IS if frame.head == "be" else _AGE_TURNED).match(frame.value_text)
    numbers = signature(m["n"]).numbers if m is not None else frozenset()
    return next(iter(numbers)) if len(numbers) == 1 else None


# "uses Docusaurus (switched from GitBook)": the tool it was on before (a place one moved
# from is the move's business: "moved from Hanoi" ends no job held there).
_SWITCHED_FROM = re.compile(
    r"\b(?:switch|switched|switching|migrated|migrating)\s+"
    r"(?:away\s+)?from\s+(?P<old>[^,;.()]+?)(?=\s+to\b|[,;.()]|$)",
    re.IGNORECASE,
)
# "lives in Lisbon (moved there from Berlin)", "moved from Berlin to Lisbon": a named place.
_MOVED_FROM = re.compile(
    r"\b(?:moved|relocated)\s+(?:there\s+|here\s+|away\s+)?from\s+"
    r"(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
)
# "David got promoted to Staff Engineer by 22 February": the role he holds now.
_PROMOTED = re.compile(
    r"\b(?:got|was|has\s+been|have\s+been)\s+(?:just\s+)?promoted\s+to\s+(?:an?\s+|the\s+)?"
    r"(?P<role>[^,;.]+?)(?:\s+(?:by|on|in|at|after|because|for|based)\b.*)?[.!]?$",
    re.IGNORECASE,
)
#: What a role is said with: "is a senior DevOps engineer", "works as a nurse".
ROLE_RELATIONS = frozenset({("be", ""), ("work", "as")})


def _promotion(fact: str) -> frozenset[str]:
    """The words of the role ``fact`` says its subject was promoted to, else nothing."""
    m = _PROMOTED.search(fact) if "promoted" in fact.lower() else None  # most: no promotion
    if m is None:
        return EMPTY
    return frozenset(canonical_word(w.lower()) for w in m["role"].split())


# "… had their third baby, so now Ana has three kids": what holds now, said at the end.
_NOW_TAIL = re.compile(
    r"[,;]\s+(?:so\s+|and\s+)?(?:now\s+(?P<rest>(?:[A-Z]\S*|the\s+user)\s+\S.*)"
    r"|(?P<said>(?:(?:the|my|our|their)\s+)?[a-z]+\s+(?:is|are|has|have)\s+now\s+\S.*))$"
)


# "… is at 11 people now": a value said to hold now is a change, wherever "now" stands.
_NOW_END = re.compile(r"\b(?:now|currently|these\s+days)[.!]?$", re.IGNORECASE)
#: The endings of a text _NOW_END finds, case folded (the pattern, ignoring case, reads a
#: long s, U+017F, as an "s" too).
_NOW_ENDINGS = tuple(w + mark for w in ("now", "currently", "days") for mark in ("", ".", "!"))


def _said_now(text: str) -> bool:
    """Whether ``text`` ends in "now", "currently" or "these days" (its last words looked
    at first: most facts end in none of them, and the pattern searches the whole text)."""
    end = text.strip()
    return end[-12:].casefold().endswith(_NOW_ENDINGS) and _NOW_END.search(end) is not None


def _frames(fact: str, sentence: Frame | None) -> list[Frame]:
    """What a memory's ``fact`` (its :func:`as_fact`, framed as ``sentence``) says of its
    subject to compare: the sentence (a change when it ends in "now", or a rewrite), the
    tool it says was left, and the frame of a closing "so now …" clause (a change by what
    it says)."""
    frame = sentence
    if frame is not None and _said_now(fact):
        frame = replace(frame, change=True)
    if frame is not None and frame.head in _REWRITES:
        frame = replace(frame, change=True, event=False)  # "rewrote the app in Flutter"
    leaving = "from" in fact.lower()  # what both patterns need: most facts have neither
    before = _SWITCHED_FROM.search(fact) if leaving else None
    if frame is not None and before is not None:
        left = frozenset(canonical_word(w.lower()) for w in before["old"].split())
        frame = replace(frame, left=left)
    away = _MOVED_FROM.search(fact) if leaving else None
    if frame is not None and away is not None:
        place = frozenset(canonical_word(w.lower()) for w in away["place"].split())
        frame = replace(frame, moved_from=place)
    if frame is not None and frame.dates and PERIOD.search(fact):
        frame = replace(frame, period=True)
    frames = [frame]
    m = _NOW_TAIL.search(fact) if "," in fact or ";" in fact else None
    if m is not None:
        rest = m["rest"] or m["said"]
        tail = parse_frame(rest[:1].upper() + rest[1:])
        frames.append(None if tail is None else replace(tail, change=True))
    for clause in _later_clauses(fact):
        later = parse_frame(clause[:1].upper() + clause[1:])
        if later is None or later.subject & _STAND_INS or indefinite(later):
            # "…, he is 8 years old", "…; a build takes 9 minutes": whom "he" or "a build"
            # means is the sentence's business (the first clause's project, not any build)
            continue
        if _said_now(clause):
            later = replace(later, change=True)
        frames.append(later)
    return [f for f in frames if f is not None and (not f.event or age(f) is not None)]


#: Subjects that stand for someone or something named before them.
_STAND_INS = frozenset({"he", "she", "they", "it", "this", "that", "we", "you", "him", "her"})
# "Releases are cut from the release branch; code freeze is on Friday": each clause is a
# statement of its own ("…, and the code freeze is at 16:00" too).
_CLAUSES = re.compile(
    r"\s*;\s+|(?<=[a-z0-9)])[.!]\s+(?=[A-Z])"
    r"|,\s+(?:and|but)\s+(?=(?:the|our|my|their|its|his|her)\s)"
)


def _later_clauses(fact: str) -> list[str]:
    """The clauses of ``fact`` after its first (a split needs a ";", a "," or a "." or "!"
    with a space after it: most facts have none)."""
    if ";" in fact or "," in fact or "!" in fact or "." in fact[:-1]:
        return _CLAUSES.split(fact)[1:]
    return []


def frames_by_subject(
    memories: Sequence[Memory],
) -> tuple[dict[frozenset[str], Framed], list[tuple[Memory, Frame, frozenset[str]]]]:
    """Each memory's frames by subject, oldest first, and the promotions said (each
    memory's reading kept between runs: ``update_readings``)."""
    by_subject: dict[frozenset[str], Framed] = {}
    promoted: list[tuple[Memory, Frame, frozenset[str]]] = []
    prefetch_readings([m.text for m in memories])
    for memory in sorted(memories, key=by_time):
        frames, sentence, role = read_memory(memory)
        for frame in frames:
            by_subject.setdefault(frame.subject, []).append((memory, frame))
        if sentence is not None:
            promoted.append((memory, sentence, role))
    return by_subject, promoted


def read_memory(memory: Memory) -> Reading:
    """What ``memory`` says to compare (kept between runs: ``update_readings``)."""
    return kept_reading(memory.text, _reading)


def _reading(text: str) -> Reading:
    """What a memory's ``text`` says to compare: its frames, and the sentence's frame and
    the role's words when it tells of a promotion (else None and nothing)."""
    fact = as_fact(text)
    sentence = parse_frame(fact)
    role = _promotion(fact)
    promoted = sentence if role and sentence is not None else None
    # the one empty set: a reading of each memory is held, and few tell of a promotion
    return _frames(fact, sentence), promoted, role if promoted is not None else EMPTY
