"""The records dreamgit works on: memories, sessions and priorities.

These are plain frozen values. Reading and writing them as files lives in
``memoryfile.py`` and ``sessionfile.py``; deciding what to do with them lives in
the dream phases. Times are timezone-aware UTC datetimes throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.clock import format_time

__all__ = ["PRIORITIES", "Memory", "Session", "priority_rank"]

#: Priorities from least to most durable. Their order is what rules compare.
PRIORITIES: tuple[str, ...] = ("ephemeral", "low", "normal", "high", "core")

#: Claude Code's memory types (``metadata.type``).
MEMORY_TYPES: tuple[str, ...] = ("user", "feedback", "project", "reference")


def priority_rank(priority: str) -> int:
    """Position of a priority name in :data:`PRIORITIES` (ephemeral is 0, core is 4)."""
    return PRIORITIES.index(priority)


@dataclass(frozen=True)
class Memory:
    """One memory: a file ``memories/<topic>/<slug>.md`` with front matter and a body."""

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
    confidence: float = 1.0
    recalls: int = 0
    #: Front-matter keys that are not ours, kept so a rewrite preserves them.
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: The file that holds it when the repository's format says so (another agent's
    #: layout: a flat Claude Code file, a Hermes MEMORY.md entry); "" is dreamgit's own.
    file: str = ""

    @property
    def path(self) -> str:
        """Path of the file holding the memory inside the repository."""
        return self.file or f"memories/{self.topic}/{self.slug}.md"

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values (``memories --json``, ``diff``)."""
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
            "text": self.text,
        }


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
