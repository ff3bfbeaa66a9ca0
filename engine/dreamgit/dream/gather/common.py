"""What the extraction patterns share: the draft they return and the pieces of regex.

Every pattern looks at one *clause* already put in a canonical shape by
``extract.py`` and its helpers: the user as "I" (or "we"), fillers, hedges and wrappers such as
"remember that" or "actually," removed, curly quotes straightened, no final
punctuation. A pattern answers a list of :class:`Draft` (usually one) or an
empty list. Captures are bounded (``{1,60}``) and anchored so that no pattern can
take more than linear-ish time on a clause, whose length is capped anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.language import UPPER_LETTERS
from dreamgit.dream.gather.phrasing import ADVERBS
from dreamgit.extract.lexicon import Tool, find_tools, lookup_tool

__all__ = ["Context", "Draft"]


@dataclass(frozen=True)
class Context:
    """What a pattern may know besides the clause itself."""

    created: datetime
    greeted: bool = False  # the sentence began with "hi", "hello": "I'm Dana" is a name


@dataclass(frozen=True)
class Draft:
    """A pattern's finding, before wrappers (correction, remember) and bookkeeping."""

    text: str
    topic: str
    pattern: str
    key: str | None = None
    change: tuple[str | None, str | None] | None = None
    priority: str = "normal"
    type: str | None = None


_ADV = "|".join(sorted(ADVERBS))
#: "I", "we", "I've", "we're", "I am", followed by up to three adverbs (and "no longer").
SUBJ = (
    rf"^(?P<subj>i|we)(?:'m|'re|'ve|\s+am|\s+are|\s+have)?"
    rf"(?P<adv>(?:\s+(?:{_ADV}|no\s+longer)){{0,3}})\s+"
)
#: What may follow a captured name or place: the end, punctuation or a lower-case word
#: (names and places are runs of capitalised words, so a lower-case word ends one).
END = r"(?=$|\s*[,;(.!?]|\s+(?-i:[a-z0-9]))"
_UP = f"[{UPPER_LETTERS}]"
NAME = (
    rf"(?-i:{_UP}[\w'.-]*(?:\s+(?:{_UP}[\w'.-]*|de|da|van|von|der|del|la|le|di|du|bin|al))"
    r"{0,3})"
)
PLACE = (
    rf"(?-i:{_UP}[\w'.-]*(?:(?:\s+|,\s*|\s+(?:de|do|da|am|an der|upon|on|sur)\s+)"
    rf"{_UP}[\w'.-]*){{0,3}})"
)
ORG = rf"(?-i:[0-9{UPPER_LETTERS}][\w&'.+-]*(?:\s+(?:{_UP}[\w&'.+-]*|&|of|and|for|the|de)){{0,4}})"

_PRONOUN_START = lazyre.compile(
    r"^(?:it|its|it's|this|that|these|those|them|they|he|she|him|her|there|here|one|ones"
    r"|so|which|what|whatever|something|anything|everything|stuff|things?)\b",
    re.IGNORECASE,
)
_ARTICLE = lazyre.compile(r"^(?:the|using|use|a|an)\s+", re.IGNORECASE)
_TRAIL = " \t.,;:!?\"'`)("
_TIME_TAIL = lazyre.compile(
    r"\s+(?:now|these\s+days|nowadays|again|too|as\s+well|instead|exclusively|only|mostly"
    r"|daily|every\s+day|full[- ]time|anymore|any\s+more)$",
    re.IGNORECASE,
)


def dangling(text: str) -> bool:
    """True when ``text`` starts with a pronoun or filler: not self-contained."""
    return bool(_PRONOUN_START.match(text.strip()))


def clean_term(term: str) -> str:
    """A tool term without articles and punctuation; "" when it is not a usable term."""
    term = term.strip(_TRAIL)
    term = _ARTICLE.sub("", term, count=1).strip(_TRAIL)
    term = _TIME_TAIL.sub("", term).strip(_TRAIL)
    if not term or dangling(term) or len(term.split()) > 4 or len(term) > 40:
        return ""
    return term


def tool_of(term: str) -> Tool | None:
    """The single known tool a term names or contains, if exactly one."""
    tool = lookup_tool(term)
    if tool is not None:
        return tool
    found = {t for t, _, _ in find_tools(term, trusted=True)}
    return found.pop() if len(found) == 1 else None


def tool_like(term: str) -> bool:
    """A term that names a tool: a known one, or a capitalised name."""
    return tool_of(term) is not None or term[:1].isupper()


def spelled(term: str) -> str:
    """A term in its usual spelling when it is a known tool ("fastapi" → "FastAPI")."""
    tool = lookup_tool(term)
    if tool is not None and term.islower():
        return tool.display
    return term


def extend_term(term: str, rest: str) -> tuple[str, str]:
    """Grow ``term`` into ``rest`` when that spells a longer tool ("Ruby" + "on Rails")."""
    words = rest.split()
    for n in range(min(3, len(words)), 0, -1):
        longer = f"{term} {' '.join(words[:n])}"
        if lookup_tool(longer) is not None:
            return longer, " ".join(words[n:])
    return term, rest


def slug_word(text: str) -> str:
    """``text`` as a key segment: lower case, words joined by dashes."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))[:40]
