"""One new memory's line placed in MEMORY.md, without ranking every memory again.

The index lists the first memories of the rules' order that fit its budget. After a
render, :func:`remember_cut` keeps where it cut (``store.indexcut``); a commit that
then adds one memory file gets its index from :func:`place_added`, which ranks only
the listed memories, the new one and the first one left out. That is the full
render's answer whenever the order sits on fields a memory alone decides (priority,
updated, created, chars): the new memory either lands among the known best or after
them, and the first memory left out still does not fit (adding a memory before it
only takes room). Where that cannot be known so (another order, a memory without a
time of its own, whose key moves with the clock, a config that extends other files,
a commit that changes more than one memory), there is no cut, and the caller renders
the whole index.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from dreamgit.dream.index import (
    CLAUDE_INDEX_LINES,
    IndexEntry,
    IndexResult,
    fill_index,
    index_entry,
    index_text,
)
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory, priority_rank
from dreamgit.store import layout
from dreamgit.store.indexcut import CutEntry, IndexCut, load_cut, save_cut
from dreamgit.store.memoryfile import decode_text, memory_from_record, parse_memory_record
from dreamgit.store.repo import MemoryRepo
from dreamgit.version import __version__

__all__ = ["PLAIN_ORDER_FIELDS", "place_added", "remember_cut"]

#: Order fields whose value a memory alone decides, whatever the time: a cut kept for
#: an order on these holds until the memories change.
PLAIN_ORDER_FIELDS: dict[str, Callable[[Memory], float]] = {
    "priority": lambda m: priority_rank(m.priority),
    "updated": lambda m: m.updated.timestamp(),
    "created": lambda m: m.created.timestamp(),
    "chars": lambda m: len(m.text),
}

#: ``extends:`` naming anything but the bundled default (read from elsewhere: not keyed).
_OTHER_EXTENDS = re.compile(
    r"(?m)^[ \t]*extends[ \t]*:(?![ \t]*[\"']?default[\"']?[ \t]*(?:#.*)?$)"
)


def _sort(memory: Memory, order: Sequence[tuple[str, bool]]) -> tuple[float, ...]:
    """``memory``'s values for ``order``, descending ones negated (as ``index_key``)."""
    values = (PLAIN_ORDER_FIELDS[name](memory) for name, _ in order)
    return tuple(-v if descending else v for v, (_, descending) in zip(values, order, strict=True))


def _bundled_rules() -> str:
    """What the bundled rule files are, as a fingerprint (names, sizes, change times)."""
    folder = importlib.resources.files("dreamgit.rules")
    parts = [__version__]
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if item.name.endswith(".yaml"):
            if isinstance(item, Path):
                stat = item.stat()
                parts.append(f"{item.name}:{stat.st_size}:{stat.st_mtime_ns}")
            else:  # inside an archive: its files change only with the version
                parts.append(item.name)
    return ";".join(parts)


def _key(repo: MemoryRepo, commit: str) -> tuple[str, ...] | None:
    """What a render of the index at ``commit`` reads, or None when it reads more than
    can be named (a config that extends other rule files)."""
    config = repo.store.entry_id(commit, layout.CONFIG)
    if config is not None and _OTHER_EXTENDS.search(repo.read_text(layout.CONFIG, commit) or ""):
        return None
    memories = repo.store.entry_id(commit, layout.MEMORIES.rstrip("/")) or "none"
    return (memories, config or "none", _bundled_rules())


def remember_cut(
    repo: MemoryRepo,
    commit: str,
    memories: Sequence[Memory],
    result: IndexResult,
    *,
    order: Sequence[tuple[str, bool]],
    index_chars: int,
    index_line_chars: int,
    now: datetime,
) -> None:
    """Keep where ``result`` (the full render at ``commit``) cut the order, when a later
    add can use it: the order's fields are plain and no memory reads its time as now."""
    if any(name not in PLAIN_ORDER_FIELDS for name, _ in order):
        return
    key = _key(repo, commit)
    if key is None or _timeless(repo, commit, memories, now):
        return
    by_id = {m.id: m for m in memories}

    def cut_entry(ident: str) -> CutEntry:
        memory = by_id[ident]
        entry = index_entry(memory, index_line_chars)
        return CutEntry(memory.path, entry.id, entry.topic, entry.line, _sort(memory, order))

    cut = IndexCut(
        key=key,
        order=tuple(order),
        index_chars=index_chars,
        index_line_chars=index_line_chars,
        max_lines=CLAUDE_INDEX_LINES,
        listed=tuple(cut_entry(i) for i in result.included),
        next=cut_entry(result.omitted[0]) if result.omitted else None,
        total=len(memories),
    )
    save_cut(repo.store.git_dir, cut)


def _timeless(repo: MemoryRepo, commit: str, memories: Sequence[Memory], now: datetime) -> bool:
    """Whether a memory at ``commit`` states no time of its own (it reads as ``now``, so
    its place in the order moves with the clock)."""
    maybe = [m for m in memories if m.created == now]
    if not maybe:
        return False
    blobs = repo.store.files(commit, layout.MEMORIES)
    record = repo.source(commit).record
    return any(not record(m.path, blobs[m.path])["created"] for m in maybe)


def place_added(repo: MemoryRepo, commit: str, *, now: datetime) -> str | None:
    """MEMORY.md for ``commit`` when it adds one memory file to its parent and a cut is
    kept for the parent; None when the whole index must be rendered."""
    store = repo.store
    parents = store.commit_info(commit).parents
    if len(parents) != 1:
        return None
    # Only the folders whose trees differ are read (libgit2's diff reads all 10,000 entries).
    diff = store.tree_changes(store.tree_id(parents[0]), store.tree_id(commit), "")
    changed = [c for c in diff or [] if repo.format.memory_path(c.path)]
    if len(changed) != 1 or changed[0].old is not None or changed[0].new is None:
        return None
    parent_key, key = _key(repo, parents[0]), _key(repo, commit)
    if parent_key is None or key is None or parent_key[1:] != key[1:]:
        return None  # another config or other rules: render it all
    cut = load_cut(store.git_dir, parent_key)
    if cut is None:
        return None
    added = _read_added(repo, changed[0].path, changed[0].new, parents[0], now=now)
    if added is None:
        return None
    entry = index_entry(added, cut.index_line_chars)
    new = CutEntry(added.path, entry.id, entry.topic, entry.line, _sort(added, cut.order))
    known = list(cut.listed)
    if cut.next is None or new.rank() < cut.next.rank():
        known = sorted([*known, new], key=CutEntry.rank)
    total = cut.total + 1
    listed = fill_index(
        [IndexEntry(e.id, e.topic, e.line) for e in known],
        total=total,
        index_chars=cut.index_chars,
        max_lines=cut.max_lines,
    )
    # Stopped inside the known entries: the first left out is known. Else the first one
    # the kept cut left out is still out (what came before it only took room).
    after = known[len(listed)] if len(listed) < len(known) else cut.next
    kept = IndexCut(
        key=key,
        order=cut.order,
        index_chars=cut.index_chars,
        index_line_chars=cut.index_line_chars,
        max_lines=cut.max_lines,
        listed=tuple(known[: len(listed)]),
        next=after,
        total=total,
    )
    save_cut(store.git_dir, kept)
    return index_text(listed, omitted=total - len(listed))


def _read_added(
    repo: MemoryRepo, path: str, blob: str, parent: str, *, now: datetime
) -> Memory | None:
    """The memory a new file holds, when it is one the index can place: it reads, it
    states its own time and no active memory has its id."""
    try:
        record = parse_memory_record(decode_text(repo.store.read(blob), path=path), path=path)
        memory = memory_from_record(record, path=path, now=now)
    except MemoryFileError:
        return None
    if not record["created"] or repo.id_taken(memory.id, parent):
        return None
    return memory
