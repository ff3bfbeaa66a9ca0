"""A candidate memory found in a session, and the memory fields it suggests.

Gathering turns session text into :class:`Candidate` values; consolidation decides
which become memories. :func:`candidate_memory_fields` gives everything a
:class:`~dreamgit.model.Memory` needs except its id and times, in the shape
Claude Code's auto memory expects: ``name`` a short kebab title, ``description``
one line of at most 150 characters, and a file ``slug``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from dreamgit import lazyre
from dreamgit.extract.speakers import USER
from dreamgit.ids import slugify
from dreamgit.store.secrets import redact_text

__all__ = [
    "TOPICS",
    "Candidate",
    "MemoryFields",
    "candidate_memory_fields",
    "description_of",
    "suggest_slug",
]

#: The topics gathering files candidates under.
TOPICS: tuple[str, ...] = (
    "identity",
    "preferences",
    "tools",
    "projects",
    "decisions",
    "schedule",
    "notes",
    "instructions",
    "facts",
    "events",
    "plans",
    "people",
)

#: Claude's ``metadata.type`` for each topic (a pattern may choose otherwise).
TOPIC_TYPES: dict[str, str] = {
    "identity": "user",
    "preferences": "feedback",
    "tools": "user",
    "projects": "project",
    "decisions": "project",
    "schedule": "user",
    "notes": "user",
    "instructions": "feedback",
    "facts": "user",
    "events": "user",
    "plans": "user",
    "people": "user",
}


@dataclass(frozen=True)
class Candidate:
    """One explicit statement found in a session, phrased as a memory."""

    text: str
    topic: str
    priority: str
    type: str
    tags: tuple[str, ...]
    key: str | None
    confidence: float
    session_id: str
    created: datetime
    #: For change statements: (old term, new term); either side may be None.
    change: tuple[str | None, str | None] | None
    #: Name of the pattern that fired ("switch", "remember+prefer", ...), for the run record.
    pattern: str
    #: What sort of statement it is (preference, instruction, decision, correction, fact,
    #: event, plan, relationship): the gather rules read it as ``kind``.
    kind: str = "fact"
    #: How much the statement says (names, numbers, dates, self-disclosure, its kind).
    salience: float = 0.0
    #: Who said it ("user", or a person's name in a chat between people).
    speaker: str = USER
    #: Which turn of its session it came from.
    turn: int = 0
    #: Whom the text names first ("Dana", "The user"): left out of the file's slug and name.
    subject: str = ""
    #: The words gathering wrote before what was said to report it as someone's ("The
    #: user says"): no part of the statement's content.
    attribution: str = ""


class MemoryFields(TypedDict):
    """The keyword arguments of :class:`~dreamgit.model.Memory` a candidate determines."""

    topic: str
    slug: str
    text: str
    name: str
    description: str
    type: str
    priority: str
    key: str | None
    tags: tuple[str, ...]
    sources: tuple[str, ...]
    confidence: float


_WORD = lazyre.compile(r"[a-z0-9]+")
_NAME_STOP = frozenset(
    {"a", "an", "the", "of", "for", "to", "in", "on", "at", "is", "are", "be", "and", "or"}
    | {"with", "their", "there", "user", "users", "s"}
)
_MAX_SLUG = 48
_MAX_NAME_WORDS = 8
_MAX_DESCRIPTION = 150


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower().replace("'s", "")) if w not in _NAME_STOP]


def suggest_slug(text: str, *, max_len: int = _MAX_SLUG) -> str:
    """A file slug for a memory text: ``[a-z0-9][a-z0-9_-]*``, at most ``max_len`` chars."""
    return slugify(text, max_len=max_len)


# Where a memory's first clause ends: the title is that clause.
_CLAUSE_END = lazyre.compile(
    r",|;|:|\(|\s[-\u2013\u2014]\s|\s(?:so|because|since|which|but|by\s+the\s+way|as\s+always)\b"
)


_DANGLING = frozenset(str.split("on in at to of the a an and or for with from by"))


def _name(text: str) -> str:
    """A short readable title as kebab case: the first clause, its small words kept."""
    clause = _CLAUSE_END.split(text, maxsplit=1)[0]
    words = _WORD.findall(clause.lower().replace("'s", ""))[:_MAX_NAME_WORDS]
    if len(clause.split()) > _MAX_NAME_WORDS:
        while len(words) > 2 and (words[-1].isdigit() or words[-1] in _DANGLING):
            words.pop()  # "… group on 7" reads better as "… group"
    if len(words) < 2:
        words = _words(text)[:_MAX_NAME_WORDS] or ["memory"]
    return "-".join(words)


def description_of(text: str) -> str:
    """A memory's one-line description: its text on one line, at most 150 characters."""
    line = " ".join(text.split()).rstrip(".")
    if len(line) <= _MAX_DESCRIPTION:
        return line
    cut = line[: _MAX_DESCRIPTION - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "…"


#: A session note's lead: its person, maybe the day of its session, and a dash.
_NOTE_LEAD = lazyre.compile(
    r"(?P<who>[^\u2014]+?)(?: \(\d{1,2} [A-Z][a-z]+ \d{4}\))? \u2014 (?=\S)"
)


def _predicate(c: Candidate) -> str:
    """The text without its subject ("Dana uses FastAPI." → "uses FastAPI."; a session
    note "Dana — went to …" or "Dana (3 May 2024) — went to …" → "went to …")."""
    note = _NOTE_LEAD.match(c.text)
    if c.subject and note is not None and note["who"] == c.subject:
        return c.text[note.end() :]
    for lead in (c.subject + "'s ", c.subject + "' ", c.subject + " "):
        if c.subject and c.text.startswith(lead) and len(c.text) > len(lead) + 3:
            return c.text[len(lead) :]
    return c.text


def candidate_memory_fields(c: Candidate) -> MemoryFields:
    """The Memory fields for ``c``: pass as ``Memory(id=..., created=..., updated=..., **f)``."""
    # Names are made from the text as it will be stored: a credential the commit redacts
    # must not live on, lower-cased, in the slug or the title.
    said = redact_text(_predicate(c))[0]
    return MemoryFields(
        topic=c.topic,
        slug=suggest_slug(said),
        text=c.text,
        name=_name(said),
        description=description_of(redact_text(c.text)[0]),
        type=c.type,
        priority=c.priority,
        key=c.key,
        tags=c.tags,
        sources=(c.session_id,),
        confidence=c.confidence,
    )
