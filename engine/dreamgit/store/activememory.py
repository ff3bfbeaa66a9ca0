"""One active memory found by its id, without reading every memory.

The derived store knows which file states an id and is the active one (the first by
path, as a full read decides); that one file is read and parsed. Where the store
cannot answer (another format, a database that cannot be used), every memory is read.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit.model import Memory
from dreamgit.store.memoryfile import decode_text, memory_from_record, parse_memory_record
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import with_recalls

__all__ = ["active_memory"]


def active_memory(repo: MemoryRepo, ident: str, at: str | None, *, now: datetime) -> Memory | None:
    """The active memory with id ``ident`` at commit ``at``, as a snapshot reads it, or None."""
    found = repo.ask_derived(at, lambda derived, tree: derived.active_file(tree, ident))
    if found is None:
        return repo.snapshot(now=now, at=at).by_id().get(ident)
    if not found:
        return None
    path, blob = found
    record = parse_memory_record(decode_text(repo.store.read(blob), path=path), path=path)
    memory = memory_from_record(record, path=path, now=now)
    return with_recalls(memory, repo.recall_counters(at).get(ident))
