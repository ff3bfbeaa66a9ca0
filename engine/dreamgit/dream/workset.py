"""The memory state a dream plans against, and the operations it records.

Planning is pure: each phase reads the :class:`WorkingSet`, appends
:class:`Operation` values and applies them to the set, so the next phase sees
their effect. Each operation carries the exact file changes its commit will
make; ``review`` prints the operations and ``run`` commits them, so what review
shows is what run applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from dreamgit.model import Memory
from dreamgit.records import DeferredRecord, MemorySnap, OpRecord
from dreamgit.store.memoryfile import render_memory, rewrite_memory

__all__ = ["Deferred", "Operation", "WorkingSet"]

#: Operations that change memories; they count against the run's limits.
MEMORY_OPS = frozenset({"add", "reinforce", "merge", "supersede", "prune", "replace", "remove"})


@dataclass
class Operation:
    """One planned change, committed on the dream branch as one commit."""

    op: str
    phase: str
    rule: str
    memories: list[str]
    summary: str
    changes: dict[str, bytes | None]
    before: list[MemorySnap] = field(default_factory=list)
    after: list[MemorySnap] = field(default_factory=list)
    new_chars: int = 0
    source: str = "rules"
    model: str | None = None
    detail: str = ""

    def to_json(self, *, n: int, commit: str | None) -> OpRecord:
        """The operation as the run record lists it."""
        data: OpRecord = {
            "n": n,
            "op": self.op,
            "phase": self.phase,
            "rule": self.rule,
            "memories": list(self.memories),
            "commit": commit,
            "summary": self.summary,
            "before": self.before,
            "after": self.after,
            "source": self.source,
        }
        if self.model:
            data["model"] = self.model
        if self.detail:
            data["detail"] = self.detail
        return data


@dataclass(frozen=True)
class Deferred:
    """An operation that did not fit the run's limits; a later run picks it up."""

    op: str
    rule: str
    memories: list[str]
    reason: str

    def to_json(self) -> DeferredRecord:
        """The deferred item as the run record lists it."""
        return {"op": self.op, "rule": self.rule, "memories": self.memories, "reason": self.reason}


def snap(memory: Memory) -> MemorySnap:
    """A memory as the record shows it before or after an operation."""
    return {"id": memory.id, "text": memory.text, "path": memory.path}


class WorkingSet:
    """Active memories by id, with the current text of each file (read lazily)."""

    def __init__(self, memories: Iterable[Memory], read_file: Callable[[str], str]) -> None:
        self.active: dict[str, Memory] = {m.id: m for m in memories}
        self._read_file = read_file
        self._texts: dict[str, str] = {}
        self.paths: set[str] = {m.path for m in self.active.values()}

    def text_of(self, memory: Memory) -> str:
        """The current file text of an active memory."""
        if memory.path not in self._texts:
            self._texts[memory.path] = self._read_file(memory.path)
        return self._texts[memory.path]

    def slugs(self, topic: str) -> set[str]:
        """Slugs in use in a topic (active files and files written this run)."""
        prefix = f"memories/{topic}/"
        return {p[len(prefix) : -3] for p in self.paths if p.startswith(prefix)}

    def file_for_new(self, memory: Memory) -> dict[str, bytes | None]:
        """Add a new memory to the set; returns its file change."""
        text = render_memory(memory)
        self._put(memory, text)
        return {memory.path: text.encode("utf-8")}

    def file_for_update(self, old: Memory, new: Memory) -> dict[str, bytes | None]:
        """Replace a memory's fields (same path); returns its file change."""
        text = rewrite_memory(self.text_of(old), new, path=old.path)
        self._put(new, text)
        return {new.path: text.encode("utf-8")}

    def file_for_removal(self, memory: Memory) -> dict[str, bytes | None]:
        """Take a memory out of the active set; returns its file change."""
        del self.active[memory.id]
        self._texts.pop(memory.path, None)
        self.paths.discard(memory.path)
        return {memory.path: None}

    def _put(self, memory: Memory, text: str) -> None:
        self.active[memory.id] = memory
        self._texts[memory.path] = text
        self.paths.add(memory.path)
