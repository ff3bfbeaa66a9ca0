"""The fields of the one memory that a group of near-duplicates is merged into.

Nothing is invented: the survivor keeps the id of the earliest memory, the text of the
most informative member, the union of sources and tags, the highest priority and the
earliest creation time. The caller writes the survivor and retires the others (they
stay restorable from history); this module only decides the values, so ``review`` and
``run`` agree on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dreamgit.model import Memory, priority_rank
from dreamgit.textsim import features

__all__ = ["MergedFields", "merge_ids", "merge_memories"]


@dataclass(frozen=True)
class MergedFields:
    """What the merged memory looks like; ``absorbed`` are the ids merged into ``id``."""

    id: str
    topic: str
    text: str
    representative: str  #: id of the member whose text (and name/description) is kept
    priority: str
    key: str | None
    tags: tuple[str, ...]
    sources: tuple[str, ...]
    created: datetime
    updated: datetime
    confidence: float
    recalls: int
    absorbed: tuple[str, ...]


def _informativeness(m: Memory) -> tuple[int, int, datetime, str]:
    # More content words first, then the longer text, then the older, then the smaller id:
    # a total order, so the choice never depends on the order of the group.
    return (-len(features(m.text)), -len(m.text.strip()), m.created, m.id)


def merge_memories(group: Sequence[Memory], *, now: datetime) -> MergedFields:
    """Fields of the memory that replaces ``group`` (two or more near-duplicates).

    Raises ValueError for fewer than two memories, repeated ids, mixed topics or
    conflicting keys: the duplicate finder never groups those.
    """
    survivor, absorbed = merge_ids(group)
    keys = sorted({m.key.strip() for m in group if m.key and m.key.strip()})
    best = min(group, key=_informativeness)
    return MergedFields(
        id=survivor.id,
        topic=survivor.topic,
        text=best.text,
        representative=best.id,
        priority=max((m.priority for m in group), key=priority_rank),
        key=keys[0] if keys else None,
        tags=tuple(sorted({t for m in group for t in m.tags})),
        sources=tuple(sorted({s for m in group for s in m.sources})),
        created=survivor.created,
        updated=now,
        confidence=max(m.confidence for m in group),
        recalls=sum(m.recalls for m in group),
        absorbed=absorbed,
    )


def merge_ids(group: Sequence[Memory]) -> tuple[Memory, tuple[str, ...]]:
    """The member ``group`` is merged into (the earliest) and the ids of the others, in
    order: who merges, without the merged values (a merge the run's limits defer needs
    no more). Raises ValueError as :func:`merge_memories` says."""
    if len(group) < 2:
        raise ValueError("a merge needs at least two memories")
    ids = [m.id for m in group]
    if len(set(ids)) != len(ids):
        raise ValueError(f"a merge group repeats a memory id: {', '.join(sorted(ids))}")
    topics = sorted({m.topic for m in group})
    if len(topics) > 1:
        raise ValueError(f"cannot merge memories from different topics: {', '.join(topics)}")
    keys = sorted({m.key.strip() for m in group if m.key and m.key.strip()})
    if len(keys) > 1:
        raise ValueError(f"cannot merge memories with different keys: {', '.join(keys)}")
    survivor = min(group, key=lambda m: (m.created, m.id))
    return survivor, tuple(sorted(i for i in ids if i != survivor.id))
