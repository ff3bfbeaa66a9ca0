"""The records dreamgit works on: memories, sessions and priorities.

These are plain frozen values. Reading and writing them as files lives in
``memoryfile.py`` and ``sessionfile.py``; deciding what to do with them lives in
the dream phases. Times are timezone-aware UTC datetimes throughout.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.clock import format_time

__all__ = [
    "AGENT_WRITTEN",
    "PRIORITIES",
    "SESSION_NOTE",
    "Memory",
    "RecallStats",
    "Session",
    "plural",
    "priority_rank",
]

#: Priorities from least to most durable. Their order is what rules compare.
PRIORITIES: tuple[str, ...] = ("ephemeral", "low", "normal", "high", "core")

#: The tag of a session the agent wrote itself (an OpenClaw daily note): its unmarked
#: first person ("I", "me", "my") is the agent, never the user.
AGENT_WRITTEN = "agent-written"

#: The tag a session note carries (``dream.session_notes``), here so that what only tells
#: a note from a memory (the index's lines) need not import the extractors notes use.
SESSION_NOTE = "session-note"

#: Claude Code's memory types (``metadata.type``).
MEMORY_TYPES: tuple[str, ...] = ("user", "feedback", "project", "reference")


#: ``Memory(extra=…)`` left out: a new dict each time, as ``field(default_factory=dict)``.
_NEW_DICT: Any = object()
#: ``Memory``'s fields in their order, as its ``repr`` shows them.
_FIELDS = (
    "id", "topic", "slug", "text", "created", "updated", "name", "description", "type",
    "priority", "key", "tags", "sources", "supersedes", "valid_from", "valid_to",
    "superseded_by", "confidence", "recalls", "recall", "extra", "file",
)  # fmt: skip


def priority_rank(priority: str) -> int:
    """Position of a priority name in :data:`PRIORITIES` (ephemeral is 0, core is 4)."""
    return PRIORITIES.index(priority)


@dataclass(frozen=True)
class RecallStats:
    """What the recorded recalls of one memory add up to (folded in by a dream).

    ``queries`` holds hashes of the distinct queries that returned the memory and
    ``days`` the distinct UTC days it was recalled on (the newest 16 of each are
    kept, as OpenClaw does); ``total_score`` sums the relevance (0 to 1) of every hit.
    """

    count: int = 0
    queries: tuple[str, ...] = ()
    days: tuple[str, ...] = ()
    first: datetime | None = None
    last: datetime | None = None
    total_score: float = 0.0
    max_score: float = 0.0

    @property
    def mean_score(self) -> float:
        """Mean relevance of the hits (0 when never recalled)."""
        return self.total_score / self.count if self.count else 0.0


@dataclass(frozen=True, init=False, repr=False, eq=False, slots=True)
class Memory:
    """One memory: a file ``memories/<topic>/<slug>.md`` with front matter and a body.

    A frozen dataclass whose ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` are
    written here as ``dataclass`` would generate them (a test holds them to a generated
    twin): generating them for 22 fields cost every process ~2 ms of CPU at import.
    Its fields are slots, and ``extra`` is made when first asked for: a dream holds
    every memory of the store at once (each object 344 -> 217 bytes: 13 MB at 100,000).
    """

    id: str
    topic: str
    slug: str
    text: str
    created: datetime
    updated: datetime
    name: str = ""
    description: str = ""
    type: str = "user"
    priority: str = "normal"
    key: str | None = None
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    #: When what it says became true (None: when it was created, see :attr:`valid_since`).
    valid_from: datetime | None = None
    #: On a retired version only: when it stopped being true, and which memories said so.
    valid_to: datetime | None = None
    superseded_by: tuple[str, ...] = ()
    confidence: float = 1.0
    recalls: int = 0
    #: Recorded recall signals (None: never recalled since recalls were recorded).
    recall: RecallStats | None = field(default=None, compare=False, hash=False)
    #: Front-matter keys that are not ours, kept so a rewrite preserves them.
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: The file that holds it when the repository's format says so (another agent's
    #: layout: a flat Claude Code file, a Hermes MEMORY.md entry); "" is dreamgit's own.
    file: str = ""

    def __init__(
        self,
        id: str,
        topic: str,
        slug: str,
        text: str,
        created: datetime,
        updated: datetime,
        name: str = "",
        description: str = "",
        type: str = "user",
        priority: str = "normal",
        key: str | None = None,
        tags: tuple[str, ...] = (),
        sources: tuple[str, ...] = (),
        supersedes: tuple[str, ...] = (),
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        superseded_by: tuple[str, ...] = (),
        confidence: float = 1.0,
        recalls: int = 0,
        recall: RecallStats | None = None,
        extra: dict[str, Any] = _NEW_DICT,
        file: str = "",
    ) -> None:
        # frozen: each slot set through its descriptor (``_SETTERS``), as dataclass's own
        # __init__ sets fields with object.__setattr__, without its look-up of the name
        (
            set_id,
            set_topic,
            set_slug,
            set_text,
            set_created,
            set_updated,
            set_name,
            set_description,
            set_type,
            set_priority,
            set_key,
            set_tags,
            set_sources,
            set_supersedes,
            set_valid_from,
            set_valid_to,
            set_superseded_by,
            set_confidence,
            set_recalls,
            set_recall,
            set_file,
        ) = _SETTERS
        set_id(self, id)
        set_topic(self, topic)
        set_slug(self, slug)
        set_text(self, text)
        set_created(self, created)
        set_updated(self, updated)
        set_name(self, name)
        set_description(self, description)
        set_type(self, type)
        set_priority(self, priority)
        set_key(self, key)
        set_tags(self, tags)
        set_sources(self, sources)
        set_supersedes(self, supersedes)
        set_valid_from(self, valid_from)
        set_valid_to(self, valid_to)
        set_superseded_by(self, superseded_by)
        set_confidence(self, confidence)
        set_recalls(self, recalls)
        set_recall(self, recall)
        _EXTRA.__set__(self, None if extra is _NEW_DICT else extra)
        set_file(self, file)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as the call that makes it: a frozen dataclass with slots gets its own
        # __getstate__/__setstate__ from Python 3.11.2's dataclasses whatever the class
        # defines, and that __setstate__ cannot set ``extra`` (a property over its slot).
        # (Any, not type[Memory]: in this class ``type`` is a field's name.)
        return Memory, tuple(getattr(self, name) for name in _FIELDS)

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"{self.__class__.__qualname__}({shown})"

    def _compared(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.topic,
            self.slug,
            self.text,
            self.created,
            self.updated,
            self.name,
            self.description,
            self.type,
            self.priority,
            self.key,
            self.tags,
            self.sources,
            self.supersedes,
            self.valid_from,
            self.valid_to,
            self.superseded_by,
            self.confidence,
            self.recalls,
            self.file,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared() == other._compared()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared())

    @property
    def valid_since(self) -> datetime:
        """When what it says became true: ``valid_from``, else when it was created."""
        return self.valid_from or self.created

    @property
    def path(self) -> str:
        """Path of the file holding the memory inside the repository."""
        return self.file or f"memories/{self.topic}/{self.slug}.md"

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values (``memories --json``, ``diff``); the validity
        fields only when the memory has them."""
        validity: dict[str, Any] = {}
        if self.valid_from is not None:
            validity["valid_from"] = format_time(self.valid_from)
        if self.valid_to is not None:
            validity["valid_to"] = format_time(self.valid_to)
        if self.superseded_by:
            validity["superseded_by"] = list(self.superseded_by)
        return {
            "id": self.id,
            "topic": self.topic,
            "path": self.path,
            "name": self.name,
            "description": self.description,
            "type": self.type,
            "priority": self.priority,
            "key": self.key,
            "tags": list(self.tags),
            "created": format_time(self.created),
            "updated": format_time(self.updated),
            "sources": list(self.sources),
            "supersedes": list(self.supersedes),
            "confidence": self.confidence,
            "recalls": self.recalls,
            **validity,
            "text": self.text,
        }


#: The slot ``extra`` is held in (None until it is first asked for).
_EXTRA: Any = vars(Memory)["extra"]
#: Each other field's slot setter, in ``_FIELDS``' order: ``Memory.__init__`` sets a
#: field through it, a third cheaper than ``object.__setattr__`` finding the slot by
#: name (a dream makes every memory of the store: ~0.07 s at 100,000).
_SETTERS: tuple[Any, ...] = tuple(vars(Memory)[f].__set__ for f in _FIELDS if f != "extra")


def _extra(memory: Memory) -> dict[str, Any]:
    """A memory's ``extra``: a new dict, made the first time it is asked for (nearly
    every memory has none, and an empty dict each cost 72 bytes)."""
    found: dict[str, Any] | None = _EXTRA.__get__(memory, Memory)
    if found is None:
        found = {}
        _EXTRA.__set__(memory, found)
    return found


# Not a field's descriptor any more: the property reads and fills the slot.
setattr(Memory, "extra", property(_extra))  # noqa: B010 (mypy: no class variable of a slot)


@dataclass(frozen=True)
class Session:
    """One session transcript ``sessions/YYYY/MM/DD/<id>.md``."""

    id: str
    created: datetime
    text: str
    summary: str = ""
    tags: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        """Path of the session file inside the repository."""
        c = self.created
        return f"sessions/{c:%Y}/{c:%m}/{c:%d}/{self.id}.md"


def plural(count: int, noun: str) -> str:
    """``1 memory``, ``2 memories``, ``0 sessions``: a count with its noun agreeing."""
    if count == 1:
        return f"{count} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"
