"""Whether a work tree's files under the agent's paths are the committed ones, without libgit2.

The lean status (``dream/leanstatus.py``) answers for a repository with a work tree only
when the full path would count no uncommitted edit there. That holds when three things
do, each checked as git's own status checks them and each a doubt otherwise: the index
stages exactly the committed files under those paths (same paths, same blob ids); every
such file is the staged one, by its ``stat`` data where that still matches its index
entry (size, times to the nanosecond, inode, owner; not racily clean, changed as the
index was written) and else by hashing its content as git does (dreamgit's own writes
stage files without ``stat`` data), unless git might filter the content (line endings,
attributes) or there are too many; and no other file lies under those paths (an
untracked one may be an edit, or ignored: the full path tells). A symbolic link, a file
that cannot be read, a mode git would not stage: a doubt. Nothing is written.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from dreamgit.store.gitindex import IndexEntry, read_index

__all__ = ["committed_in_work_tree"]

_EXECUTABLE = 0o100755
_REGULAR = 0o100644
#: More files than this whose ``stat`` data changed: the full path reads them.
_MAX_HASHED = 2000


def committed_in_work_tree(
    git_dir: Path, workdir: Path, prefixes: tuple[str, ...], committed: Mapping[str, str]
) -> bool:
    """Whether every file under ``prefixes`` (``memories/`` a folder, ``MEMORY.md`` a
    file) in ``workdir`` holds what ``committed`` (path → blob id: the commit's files
    under those prefixes) says, and no other file is there."""
    id_bytes = len(next(iter(committed.values()), "0" * 40)) // 2
    index = read_index(git_dir, id_bytes)
    if index is None:
        return False
    wanted = tuple(prefix.encode() for prefix in prefixes)
    staged = {path: entry for path, entry in index.entries.items() if path.startswith(wanted)}
    if len(staged) != len(committed):
        return False
    for path, entry in staged.items():
        if committed.get(path.decode("utf-8", "replace")) != entry.object_id.hex():
            return False  # staged is not committed: a change someone staged
    root = os.fsencode(workdir)
    walk = _Walk(staged, index.written_ns)
    for prefix in wanted:
        if not walk.take(root, prefix):
            return False
    if walk.seen != len(staged):
        return False  # a staged file missing from the work tree: deleted
    if walk.unsure and (len(walk.unsure) > _MAX_HASHED or _filters_possible(git_dir, committed)):
        return False
    return all(_hashes_to(os.path.join(root, path), entry.object_id) for path, entry in walk.unsure)


class _Walk:
    """The files under the prefixes, each matched to its staged entry: by ``stat`` data
    alone where it still matches, else kept to hash (git's second look)."""

    def __init__(self, staged: Mapping[bytes, IndexEntry], written_ns: int) -> None:
        self.staged = staged
        self.written_ns = written_ns
        self.seen = 0
        self.unsure: list[tuple[bytes, IndexEntry]] = []

    def take(self, root: bytes, prefix: bytes) -> bool:
        """Match the files under ``prefix`` (a file when it has no final ``/``); False on
        any doubt."""
        if not prefix.endswith(b"/"):
            try:
                found = os.lstat(os.path.join(root, prefix))
            except FileNotFoundError:
                return True
            except OSError:
                return False
            return self._match(prefix, found)
        pending = [prefix]
        while pending:
            folder = pending.pop()
            try:
                entries = list(os.scandir(os.path.join(root, folder)))
            except FileNotFoundError:
                if folder == prefix:
                    continue  # no such folder: nothing there to be an edit
                return False
            except OSError:
                return False
            for entry in entries:
                path = folder + entry.name
                if entry.is_dir(follow_symlinks=False):
                    pending.append(path + b"/")
                elif not self._match(path, entry.stat(follow_symlinks=False)):
                    return False
        return True

    def _match(self, path: bytes, found: os.stat_result) -> bool:
        entry = self.staged.get(path)
        if entry is None or not stat.S_ISREG(found.st_mode):
            return False  # untracked, or a link, a folder where a file was, a device
        if (entry.mode == _EXECUTABLE) != bool(found.st_mode & 0o100) or entry.mode not in (
            _EXECUTABLE,
            _REGULAR,
        ):
            return False
        self.seen += 1
        if not _same_stat(entry, found, self.written_ns):
            self.unsure.append((path, entry))
        return True


def _same_stat(entry: IndexEntry, found: os.stat_result, written_ns: int) -> bool:
    """Whether ``stat`` data alone says the file is the one ``entry`` staged: not when it
    changed as the index was written (racily clean: same data, other content)."""
    mtime_ns = found.st_mtime_ns
    return (
        mtime_ns < written_ns
        and (entry.mtime_s, entry.mtime_ns) == divmod(mtime_ns, 1_000_000_000)
        and (entry.ctime_s, entry.ctime_ns) == divmod(found.st_ctime_ns, 1_000_000_000)
        and entry.size == found.st_size & 0xFFFFFFFF
        and entry.ino == found.st_ino & 0xFFFFFFFF
        and entry.uid == found.st_uid & 0xFFFFFFFF
        and entry.gid == found.st_gid & 0xFFFFFFFF
    )


def _filters_possible(git_dir: Path, committed: Mapping[str, str]) -> bool:
    """Whether git might clean a file's content before hashing it (line endings, a
    filter): then its raw bytes are not what the full path compares."""
    if any(path.endswith(".gitattributes") for path in committed):
        return True
    if (git_dir / "info" / "attributes").exists() or (git_dir.parent / ".gitattributes").exists():
        return True
    try:
        config = (git_dir / "config").read_text(encoding="utf-8").lower()
    except (OSError, UnicodeDecodeError):
        return True
    return any(word in config for word in ("autocrlf", "eol", "filter", "attributesfile"))


def _hashes_to(path: bytes, object_id: bytes) -> bool:
    """Whether the file at ``path`` holds the blob ``object_id`` names, as git hashes it."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return False
    digest = hashlib.sha1 if len(object_id) == 20 else hashlib.sha256
    return digest(b"blob %d\0" % len(data) + data).digest() == object_id
