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
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Collection
from pathlib import Path

import pygit2
from pygit2.enums import FileMode
from pygit2.ffi import C, ffi

__all__ = ["record_missing_stat_data", "through_symlink"]

_STAGE_MASK = 0x3000  # GIT_INDEX_ENTRY_STAGEMASK: a conflict's stages are left alone
_NANO = 1_000_000_000


def through_symlink(workdir: Path, path: str) -> bool:
    """Whether any component of ``path`` under ``workdir`` is a symbolic link."""
    here = workdir
    for part in path.split("/"):
        here = here / part
        if here.is_symlink():
            return True
    return False


def _without_stat_data(index: pygit2.Index) -> list[tuple[str, str, int]]:
    """(path, blob id, mode) of the file entries whose stat data are all zero."""
    found = []
    for position in range(C.git_index_entrycount(index._index)):
        entry = C.git_index_get_byindex(index._index, position)
        if (
            entry.ctime.seconds == 0
            and entry.mtime.seconds == 0
            and entry.ino == 0
            and entry.file_size == 0
            and not entry.flags & _STAGE_MASK
            and not entry.flags_extended  # intent-to-add, skip-worktree: git's own
            and entry.mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)
        ):
            path = ffi.string(entry.path).decode("utf-8", "surrogateescape")
            oid = bytes(ffi.buffer(ffi.addressof(entry, "id"))[:]).hex()
            found.append((path, oid, int(entry.mode)))
    return found


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
    executable = bool(found.st_mode & 0o111)
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
    workdir: Path,
    clean_hash: Callable[[str], str],
    skip: Collection[str] = (),
) -> int:
    """Fill in the stat data of ``index``'s entries that have none, where the work-tree file
    holds the entry's blob (``clean_hash``: the blob id git would store for a path).

    Call it only under git's ``index.lock``. ``skip``: paths about to be rewritten.
    Returns how many entries changed.
    """
    recorded = 0
    for path, blob, mode in _without_stat_data(index):
        if path in skip:
            continue
        found = _matching_stat(workdir, path, blob, mode, clean_hash)
        if found is not None:
            _add_with_stat(index, path, blob, mode, found)
            recorded += 1
    return recorded
