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
from dreamgit.packagefiles import package_files
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
    folder = package_files("dreamgit.rules")  # not importlib.resources: ~10 ms an add
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
    """MEMORY.md for ``commit`` when it adds or rewrites one memory file of its parent and
    a cut is kept for the parent; None when the whole index must be rendered."""
    store = repo.store
    parents = store.commit_info(commit).parents
    if len(parents) != 1:
        return None
    # Only the folders whose trees differ are read (libgit2's diff reads all 10,000 entries).
    diff = store.tree_changes(store.tree_id(parents[0]), store.tree_id(commit), "")
    changed = [c for c in diff or [] if repo.format.memory_path(c.path)]
    if len(changed) != 1 or changed[0].new is None:
        return None
    parent_key, key = _key(repo, parents[0]), _key(repo, commit)
    if parent_key is None or key is None or parent_key[1:] != key[1:]:
        return None  # another config or other rules: render it all
    cut = load_cut(store.git_dir, parent_key)
    if cut is None:
        return None
    path, rewritten = changed[0].path, changed[0].old is not None
    placed = _read_placed(repo, path, changed[0].new, parents[0], rewritten=rewritten, now=now)
    if placed is None:
        return None
    entry = index_entry(placed, cut.index_line_chars)
    new = CutEntry(placed.path, entry.id, entry.topic, entry.line, _sort(placed, cut.order))
    head = _head(cut, new, rewritten=rewritten)
    if head is None:
        return None
    total = cut.total + (not rewritten)
    listed = fill_index(
        [IndexEntry(e.id, e.topic, e.line) for e in head],
        total=total,
        index_chars=cut.index_chars,
        max_lines=cut.max_lines,
    )
    if len(listed) == len(head) < total:
        return None  # all the known entries fit: the next one is not known
    kept = IndexCut(
        key=key,
        order=cut.order,
        index_chars=cut.index_chars,
        index_line_chars=cut.index_line_chars,
        max_lines=cut.max_lines,
        listed=tuple(head[: len(listed)]),
        next=head[len(listed)] if len(listed) < len(head) else None,
        total=total,
    )
    save_cut(store.git_dir, kept)
    return index_text(listed, omitted=total - len(listed))


def _head(cut: IndexCut, new: CutEntry, *, rewritten: bool) -> list[CutEntry] | None:
    """The first memories of the order once ``new`` is in it (in place of the file it
    rewrites, when ``rewritten``), best first; None when they cannot be known from the
    cut (the first memory left out was rewritten to rank lower)."""
    known = [e for e in cut.listed if e.path != new.path] if rewritten else list(cut.listed)
    after = cut.next
    if rewritten and after is not None and after.path == new.path:
        if after.rank() < new.rank():
            return None  # what came after it is not known
        after = None  # the rewritten one ranks no lower: it leads what is left out
        return sorted([*known, new], key=CutEntry.rank)
    if after is None or new.rank() < after.rank():
        known = sorted([*known, new], key=CutEntry.rank)
    return known if after is None else [*known, after]


def _read_placed(
    repo: MemoryRepo, path: str, blob: str, parent: str, *, rewritten: bool, now: datetime
) -> Memory | None:
    """The memory a new or rewritten file holds, when it is one the index can place: it
    reads and states its own time; a new file's id is no active memory's, a rewritten
    file was its id's active file and keeps the id."""
    try:
        record = parse_memory_record(decode_text(repo.store.read(blob), path=path), path=path)
        memory = memory_from_record(record, path=path, now=now)
    except MemoryFileError:
        return None
    if not record["created"]:
        return None
    if not rewritten:
        return None if repo.id_taken(memory.id, parent) else memory
    found = repo.ask_derived(parent, lambda derived, tree: derived.active_file(tree, memory.id))
    return memory if found and found[0] == path else None
