"""What a memory sentence states, in the words the frame reader compares.

A memory may report a remark ("Marco says the beta launch moved to 22 January"), speak
for a group ("Ana and others moved to Lisbon") or say a change in a roundabout way ("made
the decision to rewrite the app in Flutter", "got pushed to 15 February", "is migrating
fully to GCP"). :func:`as_fact` rewrites such a sentence into the plain statement it
makes, for ``update.py`` to read; the memory itself is never changed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dreamgit.extract.names import possessive

__all__ = ["as_fact"]

# "made the decision to rewrite the app in Flutter": the rewrite is the fact.
_DECIDED = re.compile(
    r"\b(?:(?:made|took)\s+the\s+decision|decided|(?:is|are)\s+(?:now\s+)?(?:going|planning))"
    r"\s+to\s+(?P<verb>rewrite|port|rebuild|migrate|move|switch|pivot)\b",
    re.IGNORECASE,
)
# "decided to drop the Switch version": an ending, said as a decision.
_DROPS = re.compile(r"\b(?:decided\s+to|(?:is|are|am)\s+going\s+to)\s+drop\b", re.IGNORECASE)
# "is migrating fully to GCP": a switch under way is the change ("is moving to Lisbon next
# month" is a plan: where someone lives changes when they have moved).
_UNDER_WAY = re.compile(
    r"\b(?:is|are|am)\s+(?:now\s+|currently\s+|finally\s+)?(?P<verb>switch|migrat)ing"
    r"(?=\s+(?:fully\s+|completely\s+|entirely\s+)?(?:over\s+)?to\b)",
    re.IGNORECASE,
)
# "Marco says the beta launch moved to 22 January": what is said is the fact.
_SAYS = re.compile(r"^(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+says\s+(?P<said>\S.*)$")
# "The user says the staging database listens on port 5433": the user's own remark is the
# fact as said (what they call "the staging database" is what a hand-written memory calls it).
# So is what an agent wrote in its own notes ("The agent says the user wants the digest at
# 19:30", from an OpenClaw daily note): a later value the user gives is compared with it.
_PARTY_SAYS = re.compile(
    r"^the\s+(?:user|agent)\s+says\s+(?:that\s+)?(?P<said>\S.*)$", re.IGNORECASE
)
# "… moved to port 6543 on the night of 4 March 2026": when the change happened (a "last
# night" made absolute), not the new value, which holds a number of its own.
_CHANGE_WORDS = (
    "moved",
    "changed",
    "switched",
    "went",
    "bumped",
    "raised",
    "lowered",
    "increased",
    "decreased",
    "upgraded",
    "downgraded",
)
_CHANGED_WHEN = re.compile(
    rf"\b(?:{'|'.join(_CHANGE_WORDS)})\s+(?:up\s+|down\s+|back\s+)?to\s+[^,;]*?\d[^,;]*?"
    r"(?P<when>\s+(?:on|since|as\s+of)\s+(?:the\s+(?:morning|afternoon|evening|night)\s+of\s+)?"
    r"\d{1,2}\s+[A-Z][a-z]+\s+\d{4})(?=[.!]?$|[,;])"
)
# "Ana and others moved to Lisbon": said as "we", it moves Ana too.
_AND_OTHERS = re.compile(r"^(?P<who>[A-Z][\w'-]*)\s+and\s+others\b")
# "got pushed to 15 February", "was postponed to …": the thing moved to that date.
_PUSH_WORDS = ("pushed", "postponed", "delayed", "rescheduled", "moved")
_PUSHED = re.compile(
    rf"\b(?:got|was|has\s+been|is|just\s+got)\s+(?:{'|'.join(_PUSH_WORDS)})"
    r"(?:\s+back)?\s+to\b",
    re.IGNORECASE,
)


# "… is Arctic Monkeys as of 25 March 2025", "… hit 5,000 subscribers by 20 March 2025":
# the day it was said to hold or be done by, not part of what is said; but in "must ship
# by 12 May 2025" the day is the deadline itself.
_DAY_SAID = re.compile(r"\s+(?P<how>as\s+of|by)\s+\d{1,2}\s+[A-Z][a-z]+\s+\d{4}\b")
_AHEAD = re.compile(
    r"\b(?:will|'ll|must|need|needs|due|going\s+to|has\s+to|have\s+to|should|deadline)\b",
    re.IGNORECASE,
)


#: Words of which each pattern above needs one (in any case), but the two of a day, which
#: need a year: a text without any, and without a year, is the fact it states.
_CUES = (
    "says",  # _PARTY_SAYS, _SAYS
    "others",  # _AND_OTHERS
    *("decision", "decided", "going", "planning"),  # _DECIDED, _DROPS
    *("switching", "migrating"),  # _UNDER_WAY
    *_PUSH_WORDS,  # _PUSHED
)
#: What the day's patterns need besides a year: "as of" or "by" (_DAY_SAID), or a change
#: (_CHANGED_WHEN).
_DAY_CUES = ("of", "by", *_CHANGE_WORDS)
_YEAR = re.compile(r"\d{4}")


def _plain(text: str) -> bool:
    """Whether ``text`` holds none of the words any pattern of :func:`as_fact` needs, told
    for a text in ASCII (in which a letter's cases are its upper and lower case), the
    patterns not run: the most memories by far, restated once for each check that reads
    them (13 µs each through the patterns at 100,000 memories, 1.5 µs so)."""
    if not text.isascii():
        return False
    low = text.lower()
    for cue in _CUES:
        if cue in low:
            return False
    return not (any(cue in low for cue in _DAY_CUES) and _YEAR.search(text))


def _without_day_said(text: str) -> str:
    deadline = _AHEAD.search(text) is not None
    return _DAY_SAID.sub(lambda m: m.group() if deadline and m["how"] == "by" else "", text)


@lru_cache(maxsize=1 << 16)  # each memory is restated by the newer-value and count checks
def as_fact(text: str) -> str:
    """The statement a memory's ``text`` makes about its subject: a reported remark's
    content ("the beta launch is on 15 January"), "Ana and others moved …" as Ana's move,
    a decision to switch as the switch, a date pushed as the thing moved, without the day
    it was said to hold ("as of 25 March 2025")."""
    return text if _plain(text) else _restated(text)


def _restated(text: str) -> str:
    m = _PARTY_SAYS.match(text)
    if m is not None:
        text = m["said"][:1].upper() + m["said"][1:]
    m = _SAYS.match(text)
    if m is not None:
        # "Ana says the newsletter hit 5,000": the one she speaks of is hers
        text = re.sub(r"^the\s+", possessive(m["who"]) + " ", m["said"], flags=re.IGNORECASE)
    text = _without_day_said(_PUSHED.sub("moved to", text))
    when = _CHANGED_WHEN.search(text)
    if when is not None:
        text = text[: when.start("when")] + text[when.end("when") :]
    text = _DECIDED.sub(lambda m: m["verb"] + "s", text)
    text = _UNDER_WAY.sub(lambda m: m["verb"] + "es", text)
    text = _DROPS.sub("quits", text)
    return _AND_OTHERS.sub(r"\g<who>", text)
