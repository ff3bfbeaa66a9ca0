"""The variables each prompt template receives, built from memories and sessions.

Templates get plain dicts, lists and strings, never library objects, so an
override can only read what is documented at the top of each bundled template.
Only session transcripts are evidence for new memories: text dreamgit itself
generated is never sent as evidence, and lines copied from a ``MEMORY.md``
index into a transcript (agents load the index at the start of a session) are
cut out before a session is sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from dreamgit.clock import format_time
from dreamgit.llm.proposals import Thresholds
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory, Session, priority_rank

__all__ = [
    "consolidate_context",
    "gather_context",
    "memory_view",
    "session_view",
    "strip_generated",
    "supersede_context",
]

# A MEMORY.md line: "- [Title](memories/topic/slug.md) — hook".
_INDEX_LINE = re.compile(
    r"^\s*[-*] \[[^\]\n]*\]\(memories/[a-z0-9][a-z0-9_-]*/[^)\s]+\.md\).*$\n?", re.M
)


def strip_generated(text: str) -> str:
    """Session text without lines copied from a dreamgit-generated MEMORY.md index."""
    return _INDEX_LINE.sub("", text)


def memory_view(memory: Memory) -> dict[str, Any]:
    """What a template sees of a memory."""
    return {
        "id": memory.id,
        "topic": memory.topic,
        "priority": memory.priority,
        "key": memory.key,
        "type": memory.type,
        "created": format_time(memory.created),
        "updated": format_time(memory.updated),
        "text": memory.text.strip(),
    }


def session_view(session: Session) -> dict[str, Any]:
    """What a template sees of a session: its transcript without generated index lines."""
    return {
        "id": session.id,
        "created": format_time(session.created),
        "summary": session.summary,
        "text": strip_generated(session.text).strip(),
    }


def _thresholds(thresholds: Thresholds) -> dict[str, Any]:
    return asdict(thresholds)


def gather_context(
    sessions: Sequence[Session],
    memories: Iterable[Memory],
    *,
    now: datetime,
    thresholds: Thresholds,
    max_adds: int,
) -> dict[str, Any]:
    """Variables of ``gather``: the new sessions and the memories already known."""
    known = [memory_view(m) for m in memories]
    allowed = [p for p in PRIORITIES if priority_rank(p) <= priority_rank(thresholds.max_priority)]
    return {
        "now": format_time(now),
        "sessions": [session_view(s) for s in sessions],
        "memories": known,
        "topics": sorted({m["topic"] for m in known}),
        "types": list(MEMORY_TYPES),
        "priorities": allowed,
        "thresholds": _thresholds(thresholds),
        "max_adds": max_adds,
    }


def consolidate_context(
    group: Sequence[Memory],
    *,
    now: datetime,
    thresholds: Thresholds,
    sessions: Sequence[Session] = (),
) -> dict[str, Any]:
    """Variables of ``consolidate``: a group of similar memories, oldest first.

    ``sessions`` are this run's sessions the group's memories came from: what a
    removal may quote as evidence.
    """
    ordered = sorted(group, key=lambda m: (m.created, m.id))
    return {
        "now": format_time(now),
        "group": [memory_view(m) for m in ordered],
        "sessions": [session_view(s) for s in sorted(sessions, key=lambda s: (s.created, s.id))],
        "thresholds": _thresholds(thresholds),
    }


def supersede_context(
    newer: Memory, older: Sequence[Memory], *, now: datetime, thresholds: Thresholds
) -> dict[str, Any]:
    """Variables of ``supersede``: a newer memory and the older ones it may replace."""
    ordered = sorted(older, key=lambda m: (m.created, m.id))
    return {
        "now": format_time(now),
        "newer": memory_view(newer),
        "older": [memory_view(m) for m in ordered],
        "thresholds": _thresholds(thresholds),
    }
