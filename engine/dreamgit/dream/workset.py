"""The memory state a dream plans against, and the operations it records.

Planning is pure: each phase reads the :class:`WorkingSet`, appends
:class:`Operation` values and applies them to the set, so the next phase sees
their effect. Each operation carries the exact file changes its commit will
make; ``review`` prints the operations and ``run`` commits them, so what review
shows is what run applies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Iterable, KeysView, Mapping
from dataclasses import dataclass, field, replace

from dreamgit.model import Memory
from dreamgit.records import DeferredRecord, MemorySnap, OpRecord
from dreamgit.store.formats import MemoryFormat, Texts

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
    """An operation that did not fit the run's limits; a later run picks it up. ``more``
    counts the operations of its kind, rule and reason deferred past the ones listed by
    name (a store far over its budgets defers a prune per memory it holds too many)."""

    op: str
    rule: str
    memories: list[str]
    reason: str
    more: int = 0

    def to_json(self) -> DeferredRecord:
        """The deferred item as the run record lists it."""
        item: DeferredRecord = {
            "op": self.op,
            "rule": self.rule,
            "memories": self.memories,
            "reason": self.reason,
        }
        if self.more:
            item["more"] = self.more
        return item


def snap(memory: Memory) -> MemorySnap:
    """A memory as the record shows it before or after an operation."""
    return {"id": memory.id, "text": memory.text, "path": memory.path}


class WorkingSet:
    """Active memories by id, with the current text of each file (read lazily).

    The repository's format turns each change into file changes, so the phases
    never know whether a memory is a file of its own or an entry of a shared file.
    """

    def __init__(
        self,
        memories: Iterable[Memory],
        read_file: Callable[[str], str],
        fmt: MemoryFormat | None = None,
        files: Iterable[str] = (),
    ) -> None:
        self.active: dict[str, Memory] = {m.id: m for m in memories}
        self.format = fmt if fmt is not None else MemoryFormat()
        self.texts = Texts(lambda path: read_file(path))
        #: How many active memories each file holds (a shared file holds several), so a
        #: removal knows whether its file still holds any without a scan of the set; its
        #: keys are :attr:`paths`, and a file the dream emptied leaves them.
        self._held: Counter[str] = Counter(m.path for m in self.active.values())
        #: The paths by folder, for :meth:`slugs` without a scan of every path.
        self._folders: dict[str, set[str]] = {}
        for path in self._held:
            self._folders.setdefault(path.rpartition("/")[0], set()).add(path)
        #: Every path in the tree or written this run (a new file must not land on one):
        #: the paths held, those emptied, and the tree's others. Over 100,000 memories
        #: the two sets of every path this stood for beside ``_held`` were ~8 MB.
        self.taken = _Taken(self._held, frozenset(files))

    @property
    def paths(self) -> KeysView[str]:
        """The files of the active memories, and those written this run that still hold
        one (a file a promotion moved its memory out of stays)."""
        return self._held.keys()

    def text_of(self, memory: Memory) -> str:
        """The current file text of an active memory."""
        return self.texts.get(memory.path) or ""

    def slugs(self, topic: str) -> set[str]:
        """Slugs in use in a topic (active files and files written this run)."""
        prefix = f"memories/{topic}/"
        inside = self._folders.get(prefix[:-1], set())
        return {p[len(prefix) : -3] for p in inside if p.startswith(prefix)}

    def place(self, memory: Memory) -> Memory:
        """``memory`` where the format puts a new one (its file decided)."""
        if memory.id in self.active:
            return replace(
                memory, file=self.active[memory.id].file, slug=self.active[memory.id].slug
            )
        return self.format.place(memory, self.taken)

    def fits(self, memory: Memory) -> bool:
        """True when adding ``memory`` keeps every file within the agent's budgets."""
        placed = self.place(memory)
        budgets = [b for b in self.format.budgets() if b.path == placed.path and b.chars]
        if not budgets:
            return True
        trial = Texts(self.texts.get)
        trial.put(self.format.add(self.texts, placed))
        return all(self.format.usage(trial, b) <= (b.chars or 0) for b in budgets)

    def over_budget(self) -> list[tuple[str, int, int]]:
        """Files over a character budget the agent enforces: (path, used, limit)."""
        over = []
        for budget in self.format.budgets():
            if budget.chars is None or budget.path == self.format.index_path:
                continue
            used = self.format.usage(self.texts, budget)
            if used > budget.chars:
                over.append((budget.path, used, budget.chars))
        return over

    def file_for_new(self, memory: Memory) -> dict[str, bytes | None]:
        """Add a new memory to the set; returns its file changes."""
        placed = self.place(memory)
        if placed.id in self.active and self.format.shared_files:  # written earlier this run
            changes = self.format.update(self.texts, self.active[placed.id], placed)
        else:
            changes = self.format.add(self.texts, placed)
        self._put(placed)
        return self.texts.put(changes)

    def file_for_update(self, old: Memory, new: Memory) -> dict[str, bytes | None]:
        """Replace a memory's fields (same file); returns its file changes."""
        new = replace(new, file=old.file, slug=old.slug) if old.file else new
        changes = self.format.update(self.texts, old, new)
        self._put(new)
        return self.texts.put(changes)

    def file_for_promotion(self, memory: Memory) -> dict[str, bytes | None]:
        """Make a staged memory durable (OpenClaw: into MEMORY.md); its file changes.

        The hook promotion by recall signals calls; formats where every memory is
        durable already return no change.
        """
        changes = self.format.promote(self.texts, memory)
        if changes and self.format.durable_path:
            self._drop(memory.id)
            self._put(replace(memory, file=self.format.durable_path, priority="core"))
        return self.texts.put(changes)

    def file_for_removal(self, memory: Memory) -> dict[str, bytes | None]:
        """Take a memory out of the active set; returns its file changes."""
        current = self._drop(memory.id) or memory
        changes = self.format.remove(self.texts, current)
        if not self._held[current.path]:
            self._held.pop(current.path, None)
            self.taken.emptied.add(current.path)
            self._folders.get(current.path.rpartition("/")[0], set()).discard(current.path)
        return self.texts.put(changes)

    def _drop(self, ident: str) -> Memory | None:
        """Take ``ident`` out of the active set (its file stays in ``paths``)."""
        gone = self.active.pop(ident, None)
        if gone is not None:
            self._held[gone.path] -= 1
        return gone

    def _put(self, memory: Memory) -> None:
        former = self.active.get(memory.id)
        if former is not None:  # replaced where it stands: the set's order is kept
            self._held[former.path] -= 1
        self.active[memory.id] = memory
        self._held[memory.path] += 1
        self._folders.setdefault(memory.path.rpartition("/")[0], set()).add(memory.path)


class _Taken(Container[str]):
    """The paths a new file must not take: those holding active memories (``held``'s
    keys), those emptied this run, and the tree's other files (``files``)."""

    def __init__(self, held: Mapping[str, int], files: frozenset[str]) -> None:
        self._held, self._files = held, files
        self.emptied: set[str] = set()

    def __contains__(self, path: object) -> bool:
        return path in self._held or path in self.emptied or path in self._files
