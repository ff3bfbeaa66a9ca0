"""What a memory format is: where an agent keeps its memories and how one is read and written.

A repository has one format. The dream works on :class:`~dreamgit.model.Memory`
values and asks the format for the file changes each operation makes, through a
:class:`Texts` view that holds the files as the run has changed them so far; it
never learns which format it runs on. A format with one memory per file returns
one path per change; a format that keeps many memories in one file (Hermes)
rewrites that file and its sidecar under ``.dreamgit/``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory, Session
from dreamgit.store.memoryfile import render_memory, rewrite_memory
from dreamgit.store.sessionfile import parse_session

__all__ = ["Budget", "MemoryFormat", "Source", "Texts"]

Changes = dict[str, str | None]


class Texts:
    """The text of files at one commit, with the changes a run made on top (read lazily)."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self._read = read
        self._texts: dict[str, str | None] = {}

    def get(self, path: str) -> str | None:
        """The current text of ``path`` (None: no such file)."""
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def put(self, changes: Mapping[str, str | None]) -> dict[str, bytes | None]:
        """Record ``changes`` as the new current texts; returns them as file changes."""
        self._texts.update(changes)
        return {p: None if t is None else t.encode("utf-8") for p, t in changes.items()}

    def forget(self, path: str) -> None:
        """Drop the cached text of ``path`` (it is read again when asked)."""
        self._texts.pop(path, None)


@dataclass(frozen=True)
class Source:
    """One commit of a repository as a format reads it: its files and their bytes."""

    files: Mapping[str, str]
    read_blob: Callable[[str], bytes]
    #: A cached front-matter parse of a memory file: (path, blob) → record, or raises.
    record: Callable[[str, str], dict[str, object]]

    def text(self, path: str) -> str | None:
        """A file's text (UTF-8, bad bytes replaced), or None when absent."""
        blob = self.files.get(path)
        return None if blob is None else self.read_blob(blob).decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Budget:
    """A limit the agent enforces on one file: at most ``chars`` characters (or lines)."""

    path: str
    chars: int | None = None
    lines: int | None = None


class MemoryFormat:
    """The native layout's answers; other formats override what differs."""

    name = "dreamgit"
    #: One line for `init` and the README: what the format is.
    title = "dreamgit (memories/<topic>/<slug>.md)"
    #: The index file a dream maintains, and how ("dreamgit", "claude-code" or "" for none).
    index_path = "MEMORY.md"
    index_style = "dreamgit"
    #: The human-readable diary of runs.
    diary_path = "DREAMS.md"
    #: Folders and files an agent writes by hand (uncommitted edits there are committed first).
    agent_paths: tuple[str, ...] = ("memories/", "sessions/", "notes/", "MEMORY.md")
    #: The bundled rule set a new repository of this format extends.
    rules = "default"
    #: When True, a file the format cannot read stops the command instead of being skipped.
    strict = False
    #: Where metadata the agent's files cannot hold is kept.
    sidecar_path = ""
    #: True when one file holds many memories (a change rewrites the whole file).
    shared_files = False
    #: Where promotion puts a staged memory ("" where every memory is durable already).
    durable_path = ""
    #: Lock files the agent takes while it writes its files; dreamgit takes them too
    #: while it writes the work tree, and never commits them.
    lock_files: tuple[str, ...] = ()

    def memory_path(self, path: str) -> bool:
        """True when ``path`` holds memories in this format."""
        return path.startswith("memories/") and path.endswith(".md")

    def role(self, path: str) -> str:
        """What dreamgit does with ``path`` in this format, in a few words for ``init``."""
        if self.memory_path(path):
            return "a memory: rewritten only by dreams and your commands, every version in git"
        if path.startswith("sessions/"):
            return "a session: evidence a dream reads, never changed"
        return "not memory: left as it is"

    def count(self, source: Source) -> int:
        """How many memories the commit holds, as cheaply as the format allows."""
        return sum(1 for p in source.files if self.memory_path(p))

    def scan(self, source: Source, *, now: datetime) -> tuple[list[Memory], list[MemoryFileError]]:
        """Every memory at the commit, and the files that could not be read."""
        raise NotImplementedError  # the native scan lives in MemoryRepo.snapshot

    def place(self, memory: Memory, taken: Container[str]) -> Memory:
        """``memory`` with the file a new memory goes to (``taken``: paths in use)."""
        return memory

    def add(self, texts: Texts, memory: Memory) -> Changes:
        """The changes that write a new memory."""
        return {memory.path: render_memory(memory)}

    def update(self, texts: Texts, old: Memory, new: Memory) -> Changes:
        """The changes that rewrite ``old`` as ``new`` (same memory, same file)."""
        return {new.path: rewrite_memory(texts.get(old.path) or "", new, path=old.path)}

    def remove(self, texts: Texts, memory: Memory) -> Changes:
        """The changes that take a memory out of the active set."""
        return {memory.path: None}

    def forget(self, texts: Texts, memory: Memory) -> Changes:
        """The changes a person's ``forget`` makes: the memory leaves the active set, and
        whatever else the format keeps about it (a line of its index) goes with it."""
        return self.remove(texts, memory)

    def restore(self, texts: Texts, memory: Memory, held: Texts) -> Changes:
        """The changes that bring ``memory`` back as ``held`` (the files of a commit that
        had it) kept it, where it stood, with the format's index true for it."""
        raise NotImplementedError  # the native restore lives in store.operations

    def budgets(self) -> list[Budget]:
        """The per-file limits the agent enforces (none for the native layout)."""
        return []

    def overflow(self, texts: Texts, paths: Iterable[str]) -> str | None:
        """What is over its budget among ``paths`` as ``texts`` hold them, or None."""
        for budget in self.budgets():
            if budget.path in paths and budget.chars is not None:
                used = self.usage(texts, budget)
                if used > budget.chars:
                    return (
                        f"{budget.path} would hold {used:,} characters, over the "
                        f"{budget.chars:,} its agent loads"
                    )
        return None

    def usage(self, texts: Texts, budget: Budget) -> int:
        """How much of ``budget`` the file uses now."""
        text = texts.get(budget.path) or ""
        return len(text) if budget.chars is not None else text.count("\n")

    def evidence(self, source: Source) -> dict[str, str]:
        """Evidence besides ``sessions/`` (OpenClaw's daily notes): session id → path."""
        return {}

    def read_session(self, ident: str, path: str, text: str, fallback: datetime) -> Session:
        """One piece of evidence as a session (a session file, unless the format says else)."""
        return parse_session(text, path=path, fallback_time=fallback)

    def promote(self, texts: Texts, memory: Memory) -> Changes:
        """The changes that make a staged memory durable (none where every memory is)."""
        return {}

    def reflection(self, texts: Texts, entry: str, now: datetime) -> Changes:
        """Where a run's diary entry goes when the format has no diary file of its own."""
        raise NotImplementedError(f"{self.name} keeps its diary in {self.diary_path}")
