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
_BILLION = 1_000_000_000
_LOW32 = 0xFFFFFFFF
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
    if {path.decode("utf-8", "replace"): e.object_id.hex() for path, e in staged.items()} != (
        committed
    ):
        return False  # staged is not committed: a change someone staged
    if any(entry.mode not in (_EXECUTABLE, _REGULAR) for entry in staged.values()):
        return False  # a link or a submodule: not a file to compare
    unsure: list[tuple[bytes, IndexEntry]] = []
    seen = 0
    root = os.fsencode(workdir)
    for prefix in wanted:
        found = _walk(root, prefix, staged, index.written_ns, unsure)
        if found is None:
            return False
        seen += found
    if seen != len(staged):
        return False  # a staged file missing from the work tree: deleted
    if unsure and (len(unsure) > _MAX_HASHED or _filters_possible(git_dir, committed)):
        return False
    return all(_hashes_to(os.path.join(root, path), entry.object_id) for path, entry in unsure)


def _walk(
    root: bytes,
    prefix: bytes,
    staged: Mapping[bytes, IndexEntry],
    written_ns: int,
    unsure: list[tuple[bytes, IndexEntry]],
) -> int | None:
    """How many files lie under ``prefix`` (a file when it has no final ``/``), each a
    staged one; those whose ``stat`` data alone does not say they are unchanged go to
    ``unsure``, to be hashed. None on any doubt.

    One loop without a call per file: it runs over every memory at every status."""
    one_file = not prefix.endswith(b"/")
    # A file is looked for in its folder's listing, as the files of a folder are.
    pending = (
        [prefix.rpartition(b"/")[0] + b"/" if b"/" in prefix else b""] if one_file else [prefix]
    )
    seen = 0
    get = staged.get
    if not one_file and os.path.islink(os.path.join(root, prefix.rstrip(b"/"))):
        return None  # the folder leads elsewhere: what git makes of it, the full path says
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(os.path.join(root, folder) if folder else root))
        except FileNotFoundError:
            if folder == prefix or one_file:
                continue  # no such folder: nothing there to be an edit
            return None
        except OSError:
            return None
        for item in entries:
            path = folder + item.name
            if one_file:
                if path != prefix:
                    continue  # the file's neighbours in the top folder
            elif item.is_dir(follow_symlinks=False):
                pending.append(path + b"/")
                continue
            entry = get(path)
            if entry is None:
                return None  # untracked: an edit, or ignored (the full path tells)
            found = item.stat(follow_symlinks=False)
            mode = found.st_mode
            if not stat.S_ISREG(mode) or bool(mode & 0o100) != (entry.mode == _EXECUTABLE):
                return None  # a link, a device, a changed executable bit
            seen += 1
            mtime_ns = found.st_mtime_ns
            if (
                mtime_ns >= written_ns  # racily clean: same data, other content
                or mtime_ns != entry.mtime_s * _BILLION + entry.mtime_ns
                or found.st_ctime_ns != entry.ctime_s * _BILLION + entry.ctime_ns
                or found.st_size & _LOW32 != entry.size
                or found.st_ino & _LOW32 != entry.ino
                or found.st_uid & _LOW32 != entry.uid
                or found.st_gid & _LOW32 != entry.gid
            ):
                unsure.append((path, entry))
    return seen


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
