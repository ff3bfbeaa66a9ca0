"""Reading a memory repository: what a commit of its branch holds, without a work tree.

``RepoReader`` holds what a ``MemoryRepo`` knows of its repository (the git store,
the branch, the parse and config caches, the indexer) and reads one commit: memory
files into a :class:`Snapshot`, sessions, the configuration and who commits, and the
recall counters folded into each memory. Nothing here needs a work tree, so bare
repositories read the same. The writing parts of ``MemoryRepo`` build on this class.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from dreamgit.clock import utcnow
from dreamgit.errors import MemoryFileError, MemoryFileWarning, NotFoundError
from dreamgit.gitstore import Identity
from dreamgit.model import Memory, RecallStats
from dreamgit.store import layout, signals
from dreamgit.store.adopt import Adopted
from dreamgit.store.config import read_config
from dreamgit.store.derived import DerivedStore
from dreamgit.store.formats import MemoryFormat, Source, get_format
from dreamgit.store.indexing import Indexer
from dreamgit.store.memorycache import MemoryFiles
from dreamgit.store.signals import with_recalls

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["RepoReader", "Snapshot", "with_recalls"]

T = TypeVar("T")

DEFAULT_IDENTITY = Identity("dreamgit", "dreamgit@localhost")


@dataclass
class Snapshot:
    """The memories at one commit: the readable ones and the files that could not be read."""

    commit: str | None
    memories: list[Memory]
    broken: list[MemoryFileError] = field(default_factory=list)

    def by_id(self) -> dict[str, Memory]:
        """Memories keyed by id."""
        return {m.id: m for m in self.memories}


class RepoReader:
    """A memory repository's git store and branch, and what a commit of it holds."""

    def __init__(self, store: GitStore) -> None:
        self.store = store
        self.branch = layout.MAIN
        self._files = MemoryFiles(store)
        self._config: tuple[str | None, dict[str, Any]] | None = None
        self._counters: tuple[str | None, dict[str, RecallStats]] = (None, {})
        #: What ``init`` found in the folder and which format it chose (None after ``open``).
        self.adopted: Adopted | None = None
        #: Renders MEMORY.md for a commit (None: already right). Given by the layers that
        #: know the rules, when they open the repository (``MemoryRepo.open(index=…)``),
        #: so that every commit changing memories carries the index that lists them.
        self.indexer: Indexer | None = None
        #: Parsed records and the recall index of the last memories tree, persisted.
        self.derived = DerivedStore(store.git_dir)

    def tip(self) -> str | None:
        """The main branch's current commit."""
        return self.store.tip(self.branch)

    def read_text(self, path: str, at: str | None = None) -> str | None:
        """A text file at ``at`` (default: the main tip), or None."""
        commit = at if at is not None else self.tip()
        data = self.store.read_path(commit, path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def list_dir(self, prefix: str, at: str | None = None) -> dict[str, str]:
        """Text files directly under ``prefix``: file name → text."""
        commit = at if at is not None else self.tip()
        found = {}
        for path, blob in self.store.files(commit, prefix).items():
            name = path[len(prefix) :]
            if "/" not in name:
                found[name] = self.store.read(blob).decode("utf-8", errors="replace")
        return found

    @property
    def format(self) -> MemoryFormat:
        """The repository's memory format (``format:`` in the config)."""
        return get_format(self.config())

    def source(self, at: str | None) -> Source:
        """One commit's files as a format reads them."""
        return Source(
            files=self.store.files(at),
            read_blob=self.store.read,
            record=self._files.record,
        )

    def config(self) -> dict[str, Any]:
        """The parsed ``.dreamgit/config.yaml`` at the main tip ({} when absent)."""
        tip = self.tip()
        if self._config is None or self._config[0] != tip:
            self._config = (tip, read_config(self.read_text(layout.CONFIG, tip)))
        return self._config[1]

    def secrets_mode(self) -> str:
        """How credentials in text about to be committed are handled (config ``secrets.mode``)."""
        # Imported at the call: compiling its patterns costs ~30 ms, which readers (recall
        # from an agent's hook on every prompt) never need.
        from dreamgit.store.secrets import secrets_mode

        return secrets_mode(self.config())

    def identity(self) -> Identity:
        """Who commits: config ``author``, then ``GIT_AUTHOR_*``, then dreamgit itself."""
        author = self.config().get("author")
        if isinstance(author, dict) and author.get("name") and author.get("email"):
            return Identity(str(author["name"]), str(author["email"]))
        name, email = os.environ.get("GIT_AUTHOR_NAME"), os.environ.get("GIT_AUTHOR_EMAIL")
        if name and email:
            return Identity(name, email)
        return DEFAULT_IDENTITY

    def snapshot(self, *, now: datetime, at: str | None = None) -> Snapshot:
        """Every memory at ``at`` (default: the main tip); broken files are listed, not raised."""
        commit = at if at is not None else self.tip()
        fmt = self.format
        if fmt.name != "dreamgit":
            found, problems = fmt.scan(self.source(commit), now=now)
            self._files.save()
            fatal = [p for p in problems if not isinstance(p, MemoryFileWarning)]
            if fmt.strict and fatal:
                raise fatal[0]
            return Snapshot(commit, self._overlay_recalls(found, commit), problems)
        memories, broken = self._files.read(self.store.files(commit, layout.MEMORIES), now=now)
        return Snapshot(commit, self._overlay_recalls(memories, commit), broken)

    def _overlay_recalls(self, memories: list[Memory], commit: str | None) -> list[Memory]:
        counters = self.recall_counters(commit)
        if not counters:
            return memories
        return [with_recalls(m, counters.get(m.id)) for m in memories]

    def recall_counters(self, at: str | None = None) -> dict[str, RecallStats]:
        """Each memory's folded recall counters at ``at`` (default: the main tip)."""
        commit = at if at is not None else self.tip()
        blob = self.store.entry_id(commit, layout.RECALL_COUNTERS)
        if blob != self._counters[0]:
            text = None if blob is None else self.store.read(blob).decode("utf-8", "replace")
            self._counters = (blob, signals.parse_counters(text)[0])
        return self._counters[1]

    def memory_ids(self, at: str | None = None) -> set[str]:
        """Ids of the readable memory files at ``at``, without a full snapshot.

        A small blob → id cache answers for known files, so ``add`` stays fast in a
        fresh process; the few new files are parsed directly, many through the parse
        cache (which is then saved only when it grew a lot: saving rewrites it whole).
        """
        if self.format.name != "dreamgit":
            return {m.id for m in self.snapshot(now=utcnow(), at=at).memories}
        return self._files.ids(self.store.files(at, layout.MEMORIES))

    def id_taken(self, ident: str, at: str | None) -> bool:
        """Whether a readable memory file at ``at`` states id ``ident``: asked of the derived
        store (one look-up), else of the files (:meth:`memory_ids`)."""
        found = self.ask_derived(at, lambda derived, tree: derived.states(tree, ident))
        return ident in self.memory_ids(at) if found is None else found

    def ask_derived(self, at: str | None, ask: Callable[[DerivedStore, str], T | None]) -> T | None:
        """``ask(derived store, tree)`` with the store moved to the memory files at ``at``;
        None when the store cannot answer (callers then read the files)."""
        tree = self.sync_derived(at)
        if tree is None:
            return None
        try:
            return ask(self.derived, tree)
        except sqlite3.Error:
            return None

    def sync_derived(self, at: str | None) -> str | None:
        """Move the derived store to the memory files at ``at``; the id it now holds
        them under, or None when it cannot serve (another format, or a database that
        cannot be opened or written: callers then read the files)."""
        if self.format.name != "dreamgit":
            return None
        tree = self.store.entry_id(at, layout.MEMORIES.rstrip("/")) or "none"

        def changes(held: str) -> dict[str, str | None] | None:
            found = self.store.tree_changes(
                _tree_or_none(held), _tree_or_none(tree), layout.MEMORIES
            )
            return None if found is None else {c.path: c.new for c in found}

        try:
            # After a write, one or two files differ: only their rows are read, and they
            # are parsed without loading the whole record cache (~0.1 s at 10,000).
            parsed = self.derived.sync(
                tree,
                lambda: self.store.files(at, layout.MEMORIES),
                self._files.few_records(),
                changes,
            )
            self._files.keep_built(parsed)
        except (sqlite3.Error, OSError):
            self.derived.close()
            return None
        finally:
            self._files.save()
        return tree

    def memories(self, *, now: datetime, topic: str | None = None) -> list[Memory]:
        """Active memories at the main tip, optionally of one topic, ordered by path."""
        found = self.snapshot(now=now).memories
        return [m for m in found if topic is None or m.topic == topic]

    def get_memory(self, memory_id: str, *, now: datetime) -> Memory:
        """One active memory by id, or NotFoundError."""
        for memory in self.snapshot(now=now).memories:
            if memory.id == memory_id:
                return memory
        raise NotFoundError(
            f"no active memory with id {memory_id}",
            hint="list ids with `dreamgit memories`; a forgotten one comes back with "
            "`dreamgit restore ID`",
        )

    def session_paths(self, at: str | None = None) -> dict[str, str]:
        """Session id → path for every session file at ``at``."""
        from dreamgit.store.sessionfile import session_id_from_path

        commit = at if at is not None else self.tip()
        found = {}
        for path in self.store.files(commit, layout.SESSIONS):
            ident = session_id_from_path(path)
            if ident is not None:
                found[ident] = path
        if self.format.name != "dreamgit":
            found.update(self.format.evidence(self.source(commit)))
        return found


def _tree_or_none(tree: str) -> str | None:
    """The derived store's name of a memories tree as a tree id ("none": no such folder)."""
    return None if tree == "none" else tree
