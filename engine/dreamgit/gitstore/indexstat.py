"""Stat data for index entries that hold none, recorded only where the file provably matches.

An entry staged from a blob id (as dreamgit stages the files it writes) has zero
``stat`` data, and nothing refreshes it in an agent's folder: git and libgit2 then
hash its file at every look at the work tree (~0.4 s more per ``status`` at 10,000
memories). pygit2 has no setter for an entry's stat fields, so the entry is written
again through libgit2's ``git_index_add`` with them filled in, as libgit2's own
``git_index_add_bypath`` fills them. What is staged never changes: the stat data are
recorded only for a regular file whose content hashes to the entry's blob, and whose
``ctime`` and ``mtime`` are in a second that was over before the file was looked at, so a
later edit bears a newer second that git (which compares whole seconds) sees. A file
written this very second keeps zero stat data until a later staging.

Such entries are found in the index file's bytes: an entry without stat data starts
with 24 zero bytes, its mode, 12 zero bytes, which a byte search finds in ~0.2 ms where
walking libgit2's 10,000 entries costs ~3 ms; each place found is checked against
libgit2's own entry, and any that cannot be (an index of version 4, whose paths are
shortened, or a path that names no entry) has the whole index walked instead, as has an
index where hundreds are found.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pygit2
from pygit2.enums import FileMode
from pygit2.ffi import C, ffi

from dreamgit.gitstore.permissions import owner_may_run

__all__ = ["record_missing_stat_data", "through_symlink"]

_STAGE_MASK = 0x3000  # GIT_INDEX_ENTRY_STAGEMASK: a conflict's stages are left alone
_EXTENDED = 0x4000  # an entry of version 3 with two more bytes of flags before its path
_NANO = 1_000_000_000
_INDEX_HEADER = 12  # "DIRC", the version, the count
_ENTRY_FIXED = 62  # stat data (40 bytes), a SHA-1 id (20), flags (2); then the path
#: More places found than this (a clone whose entries dreamgit staged): walking every
#: entry once is cheaper than looking each place's path up (~27 against ~49 ms at 10,000).
_LOOKED_UP_AT_MOST = 256
#: An entry's first 40 bytes when its stat data are all zero: ctime, mtime, dev and ino,
#: the mode (a file's or an executable's), then uid, gid and size.
_ZERO_STAT_HEADERS = tuple(
    bytes(24) + int(mode).to_bytes(4, "big") + bytes(12)
    for mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)
)


def through_symlink(workdir: Path, path: str) -> bool:
    """Whether any component of ``path`` under ``workdir`` is a symbolic link."""
    here = workdir
    for part in path.split("/"):
        here = here / part
        if here.is_symlink():
            return True
    return False


def _without_stat_data(
    index: pygit2.Index, data: bytes, skip: Collection[str]
) -> list[tuple[str, str, int]]:
    """(path, blob id, mode) of the file entries whose stat data are all zero, in the
    index's order, but for ``skip``; ``data``: the index file ``index`` was read from."""
    places = _zero_stat_places(data)
    if len(places) > _LOOKED_UP_AT_MOST:
        return [e for e in _walk_without_stat_data(index) if e[0] not in skip]
    found: dict[bytes, tuple[str, str, int]] = {}
    for at in places:
        raw = _path_at(data, at)
        if raw in found or (raw is not None and raw.decode("utf-8", "surrogateescape") in skip):
            continue
        entry = ffi.NULL if raw is None else C.git_index_get_bypath(index._index, raw, 0)
        if raw is None or entry == ffi.NULL:  # no entry there: the slow way decides
            return [e for e in _walk_without_stat_data(index) if e[0] not in skip]
        if _unstatted(entry):
            found[raw] = _described(entry)
    return list(found.values())


def _zero_stat_places(data: bytes) -> list[int]:
    """Where ``data`` holds an entry header without stat data, in order (some places may
    be no entry at all: each is checked)."""
    places: list[int] = []
    for header in _ZERO_STAT_HEADERS:
        at = data.find(header, _INDEX_HEADER)
        while at != -1:
            places.append(at)
            at = data.find(header, at + 1)
    return sorted(places)


def _path_at(data: bytes, at: int) -> bytes | None:
    """The path of the entry at ``at`` of an index of version 2 or 3 (None: version 4)."""
    if int.from_bytes(data[4:8], "big") not in (2, 3):
        return None
    start = at + _ENTRY_FIXED
    if int.from_bytes(data[start - 2 : start], "big") & _EXTENDED:
        start += 2
    end = data.find(b"\0", start)
    return None if end <= start else data[start:end]


def _walk_without_stat_data(index: pygit2.Index) -> list[tuple[str, str, int]]:
    return [
        _described(entry)
        for entry in (
            C.git_index_get_byindex(index._index, position)
            for position in range(C.git_index_entrycount(index._index))
        )
        if _unstatted(entry)
    ]


def _unstatted(entry: Any) -> bool:
    """A file's entry (no conflict's side, nothing git marks) whose stat data are all zero:
    the bytes ``_ZERO_STAT_HEADERS`` finds."""
    return (
        entry.ctime.seconds == 0
        and entry.ctime.nanoseconds == 0
        and entry.mtime.seconds == 0
        and entry.mtime.nanoseconds == 0
        and entry.dev == 0
        and entry.ino == 0
        and entry.uid == 0
        and entry.gid == 0
        and entry.file_size == 0
        and not entry.flags & _STAGE_MASK
        and not entry.flags_extended  # intent-to-add, skip-worktree: git's own
        and entry.mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)
    )


def _described(entry: Any) -> tuple[str, str, int]:
    path = ffi.string(entry.path).decode("utf-8", "surrogateescape")
    oid = bytes(ffi.buffer(ffi.addressof(entry, "id"))[:]).hex()
    return path, oid, int(entry.mode)


def _matching_stat(
    workdir: Path, path: str, blob: str, mode: int, clean_hash: Callable[[str], str]
) -> os.stat_result | None:
    """The file's stat data if it is a regular file holding ``blob``, old enough to trust."""
    if through_symlink(workdir, path):
        return None
    # read before the file is: an edit after this lstat bears this second or a later one,
    # which the recorded data (older than it) cannot match; read after the hash, an edit
    # between the lstat and the clock could share the recorded second
    second = int(time.time())
    try:
        found = os.lstat(workdir / path)
    except OSError:
        return None
    executable = owner_may_run(found.st_mode)
    if not stat.S_ISREG(found.st_mode) or executable != (mode == FileMode.BLOB_EXECUTABLE):
        return None
    if clean_hash(path) != blob:
        return None
    if found.st_ctime_ns // _NANO >= second or found.st_mtime_ns // _NANO >= second:
        return None
    return found


def _add_with_stat(
    index: pygit2.Index, path: str, blob: str, mode: int, found: os.stat_result
) -> None:
    """Write the entry again with ``found``'s stat data, as libgit2 fills them from a file."""
    entry = ffi.new("git_index_entry *")
    entry.ctime.seconds, entry.ctime.nanoseconds = divmod(found.st_ctime_ns, _NANO)
    entry.mtime.seconds, entry.mtime.nanoseconds = divmod(found.st_mtime_ns, _NANO)
    entry.dev = found.st_rdev & 0xFFFFFFFF  # what libgit2's git_index_entry__init_from_stat records
    entry.ino = found.st_ino & 0xFFFFFFFF
    entry.mode = mode
    entry.uid = found.st_uid & 0xFFFFFFFF
    entry.gid = found.st_gid & 0xFFFFFFFF
    entry.file_size = found.st_size & 0xFFFFFFFF
    ffi.buffer(ffi.addressof(entry, "id"))[:] = bytes.fromhex(blob)
    encoded = ffi.new("char[]", path.encode("utf-8", "surrogateescape"))
    entry.path = encoded
    if C.git_index_add(index._index, entry) != 0:
        raise pygit2.GitError(f"could not record the stat data of {path}")


def record_missing_stat_data(
    index: pygit2.Index,
    data: bytes,
    workdir: Path,
    clean_hash: Callable[[str], str],
    skip: Collection[str] = (),
) -> int:
    """Fill in the stat data of ``index``'s entries that have none, where the work-tree file
    holds the entry's blob (``clean_hash``: the blob id git would store for a path).

    ``data``: the index file ``index`` was read from (its entries are found there). Call
    it only under git's ``index.lock``. ``skip``: paths about to be rewritten (or changed
    in ``index`` since it was read). Returns how many entries changed.
    """
    recorded = 0
    for path, blob, mode in _without_stat_data(index, data, skip):
        found = _matching_stat(workdir, path, blob, mode, clean_hash)
        if found is not None:
            _add_with_stat(index, path, blob, mode, found)
            recorded += 1
    return recorded
