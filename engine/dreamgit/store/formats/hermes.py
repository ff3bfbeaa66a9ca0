"""Hermes agent memory: ``MEMORY.md`` and ``USER.md``, entries separated by a ``§`` line.

Every entry is one memory (``USER.md`` holds what the agent knows about the
user). A dream rewrites entries in place and writes each file as Hermes does,
``"\\n§\\n".join(entries)``, so Hermes's drift guard accepts it. Each file has a
character budget (Hermes's defaults: 2,200 and 1,375; ``hermes:`` in the config
changes them). Entries have no front matter: what dreamgit knows of them (id,
times, sources, priority) is kept in ``.dreamgit/hermes.json``, keyed by id with
a hash of the entry's text, so ids stay stable across runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from dreamgit.errors import ConfigError, MemoryFileError
from dreamgit.ids import memory_id, slugify
from dreamgit.model import Memory
from dreamgit.store.formats.base import Budget, Changes, MemoryFormat, Source, Texts
from dreamgit.store.formats.reinsert import reinsert
from dreamgit.store.formats.sidecar import (
    dump_sidecar,
    fields_from,
    meta_of,
    read_sidecar,
    restored_meta,
)

__all__ = ["SEPARATOR", "HermesFormat", "split_entries"]

SEPARATOR = "\n§\n"
MEMORY, USER = "MEMORY.md", "USER.md"
SIDECAR = ".dreamgit/hermes.json"
DEFAULT_LIMITS = {MEMORY: 2200, USER: 1375}
#: Topics of what the agent knows about the user (USER.md); the rest goes to MEMORY.md.
_USER_TOPICS = frozenset(
    {"user", "identity", "preferences", "people", "facts", "tools", "instructions"}
)


@dataclass(frozen=True)
class Entry:
    """One entry as the file holds it: its text (stripped) and the line it starts on."""

    text: str
    line: int


def split_entries(text: str, *, path: str) -> tuple[list[Entry], str]:
    """The entries of a Hermes file and its trailing newline; bad shapes raise with the line.

    A ``§`` anywhere but alone on its line is refused (Hermes would split or
    misread the entry), and so is a file of several paragraphs with no ``§`` at
    all (it is not a Hermes file, or its separators were lost).
    """
    trailing = "\n" if text.endswith("\n") else ""
    body = text[: len(text) - len(trailing)]
    if not body.strip():
        return [], trailing
    entries, line = [], 1
    for chunk in body.split(SEPARATOR):
        for k, row in enumerate(chunk.split("\n")):
            if "§" in row:
                raise MemoryFileError(
                    path,
                    "'§' inside an entry: Hermes separates entries with a line holding only §",
                    line=line + k,
                    hint="put the § on a line of its own, or write the section sign as 'section'",
                )
        lead = len(chunk) - len(chunk.lstrip("\n"))
        entries.append(Entry(chunk.strip(), line + chunk[:lead].count("\n")))
        line += chunk.count("\n") + 2
    if len(entries) == 1 and "\n\n" in entries[0].text.strip():
        second = body.index("\n\n", body.index(entries[0].text[:1]))
        raise MemoryFileError(
            path,
            "has several paragraphs but no '§' line between entries",
            line=body[:second].count("\n") + 3,
            hint="separate Hermes entries with a line holding only §",
        )
    return entries, trailing


def _join(texts: list[str], trailing: str) -> str:
    return SEPARATOR.join(texts) + (trailing if texts else "")


def _sha(file: str, text: str) -> str:
    return hashlib.sha256(f"{file}\x1f{text}".encode()).hexdigest()[:16]


class HermesFormat(MemoryFormat):
    """Hermes agent memory (``~/.hermes/memories/``)."""

    name = "hermes"
    title = "Hermes agent memory (MEMORY.md / USER.md, entries separated by §)"
    index_path = ""
    index_style = ""
    diary_path = ".dreamgit/DREAMS.md"
    agent_paths = (MEMORY, USER, "sessions/")
    rules = "conservative"
    strict = True
    sidecar_path = SIDECAR
    shared_files = True
    #: Hermes writes each file under an fcntl lock on ``<file>.lock`` beside it.
    lock_files = (f"{MEMORY}.lock", f"{USER}.lock")

    def __init__(self, limits: Mapping[str, int] | None = None) -> None:
        self.limits = dict(DEFAULT_LIMITS if limits is None else limits)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> HermesFormat:
        """The format with the character budgets of ``hermes:`` in the config."""
        settings = config.get("hermes") or {}
        if not isinstance(settings, dict):
            raise ConfigError(".dreamgit/config.yaml: hermes must be a mapping")
        limits = dict(DEFAULT_LIMITS)
        for key, file in (("memory_char_limit", MEMORY), ("user_char_limit", USER)):
            value = settings.get(key)
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(
                    f".dreamgit/config.yaml: hermes.{key} must be a positive number of "
                    f"characters, not {value!r}"
                )
            limits[file] = value
        return cls(limits)

    def memory_path(self, path: str) -> bool:
        """``MEMORY.md`` and ``USER.md``."""
        return path in (MEMORY, USER)

    def role(self, path: str) -> str:
        """Each file's entries, and its budget."""
        if path in self.limits:
            return (
                "entries separated by §, one memory each: a dream rewrites entries in place, "
                f"within {self.limits[path]:,} characters"
            )
        return super().role(path)

    def count(self, source: Source) -> int:
        """Entries in both files."""
        total = 0
        for file in (MEMORY, USER):
            text = source.text(file)
            if text:
                total += len(split_entries(text, path=file)[0])
        return total

    def scan(self, source: Source, *, now: datetime) -> tuple[list[Memory], list[MemoryFileError]]:
        """Every entry of both files, with the ids and fields the sidecar remembers."""
        meta = read_sidecar(source.text(SIDECAR), path=SIDECAR)
        by_sha = {(m.get("file"), m.get("sha")): i for i, m in meta.items()}
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        used: set[str] = set()
        for file in (MEMORY, USER):
            text = source.text(file)
            if text is None:
                continue
            try:
                entries, _ = split_entries(text, path=file)
            except MemoryFileError as exc:
                broken.append(exc)
                continue
            seen: dict[str, int] = {}
            for entry in entries:
                # An entry's id never depends on where it stands: removing the entry
                # before it must not rename it. Repeats are told apart by their count.
                seen[entry.text] = seen.get(entry.text, 0) + 1
                ident = by_sha.get((file, _sha(file, entry.text)))
                if ident is None or ident in used:
                    ident = memory_id("hermes", file, entry.text, str(seen[entry.text]))
                used.add(ident)
                memories.append(_memory(ident, file, entry.text, meta.get(ident, {}), now))
        return memories, broken

    def place(self, memory: Memory, taken: Container[str]) -> Memory:
        """Facts about the user go to USER.md, everything else to MEMORY.md."""
        about_user = memory.topic in _USER_TOPICS
        file = USER if about_user else MEMORY
        return replace(memory, file=file, topic="user" if about_user else "memory")

    def add(self, texts: Texts, memory: Memory) -> Changes:
        """Append the entry to its file."""
        entries, trailing = self._entries(texts, memory.file)
        return {
            memory.file: _join([*entries, _clean(memory.text)], trailing),
            **self._meta(texts, put=memory),
        }

    def update(self, texts: Texts, old: Memory, new: Memory) -> Changes:
        """Rewrite the entry in place."""
        entries, trailing = self._entries(texts, old.file)
        position = entries.index(old.text) if old.text in entries else len(entries)
        entries[position : position + 1] = [_clean(new.text)]
        return {old.file: _join(entries, trailing), **self._meta(texts, put=new)}

    def remove(self, texts: Texts, memory: Memory) -> Changes:
        """Drop the entry (the file stays, perhaps empty)."""
        entries, trailing = self._entries(texts, memory.file)
        if memory.text in entries:
            entries.remove(memory.text)
        return {memory.file: _join(entries, trailing), **self._meta(texts, drop=memory.id)}

    def restore(self, texts: Texts, memory: Memory, held: Texts) -> Changes:
        """The entry back between the entries around it, and its sidecar fields."""
        old, old_trailing = self._entries(held, memory.file)
        now, trailing = self._entries(texts, memory.file)
        mine = {k for k, entry in enumerate(old) if entry == memory.text}
        entries = reinsert(old, now, mine)
        return {
            memory.file: _join(entries, trailing if now else old_trailing),
            **restored_meta(texts.get(SIDECAR), held.get(SIDECAR), memory.id, SIDECAR),
        }

    def budgets(self) -> list[Budget]:
        """One character budget per file."""
        return [Budget(file, chars=limit) for file, limit in self.limits.items()]

    def usage(self, texts: Texts, budget: Budget) -> int:
        """Characters as Hermes counts them: the entries joined by the separator."""
        return len(SEPARATOR.join(self._entries(texts, budget.path)[0]))

    def _entries(self, texts: Texts, file: str) -> tuple[list[str], str]:
        entries, trailing = split_entries(texts.get(file) or "", path=file)
        return [e.text for e in entries], trailing

    def _meta(self, texts: Texts, *, put: Memory | None = None, drop: str = "") -> Changes:
        text = texts.get(SIDECAR)
        meta = read_sidecar(text, path=SIDECAR)
        meta.pop(drop, None)
        if put is not None:
            meta[put.id] = meta_of(put, _sha(put.file, _clean(put.text)))
        if not meta and text is None:
            return {}  # nothing to remember yet: no sidecar in the agent's folder
        return {SIDECAR: dump_sidecar(meta)}


def _clean(text: str) -> str:
    """Entry text Hermes will read back as one entry: no separator line inside it."""
    lines = [row.replace("§", "section") for row in text.strip().split("\n")]
    return "\n".join(lines)


def _memory(ident: str, file: str, text: str, meta: Mapping[str, Any], now: datetime) -> Memory:
    about_user = file == USER
    return Memory(
        id=ident,
        topic="user" if about_user else "memory",
        slug=slugify(text),
        text=text,
        type="user" if about_user else "reference",
        file=file,
        **fields_from(meta, now),
    )
