"""A file of a commit, read from git's loose objects without libgit2; None on any doubt.

The Claude Code hooks of a bare repository need two small files of the commit HEAD's
branch is at (the configuration and MEMORY.md), and importing pygit2 to read them costs
more than the rest of the hook. Every commit dreamgit writes leaves its objects loose
(``objects/ab/cdef…``, zlib over ``TYPE SIZE\\0BODY``) until git packs them, so the commit,
the trees on the path and the blob are usually files that the standard library reads.
Anything else answers None and the caller takes the full path: an object that is packed
or missing (or held by an alternate), one whose header, type or size is not what is
expected, a path through a non-tree, a symbolic link, a submodule, a file absent from
the commit. Nothing is written.
"""

from __future__ import annotations

import zlib
from pathlib import Path

__all__ = ["committed_file"]

_TREE_MODE = b"40000"
_FILE_MODES = (b"100644", b"100755")
#: Larger objects are not what a hook reads: the full path handles them.
_MAX_OBJECT = 8 * 1024 * 1024


def committed_file(git_dir: Path, commit: str, path: str) -> bytes | None:
    """The content of ``path`` (``a/b.md``) in ``commit``, from loose objects, or None."""
    width = len(commit) // 2  # 20 bytes for SHA-1, 32 for SHA-256 ids
    body = _loose(git_dir, commit, b"commit")
    if body is None or not body.startswith(b"tree "):
        return None
    tree_id = body[5 : 5 + 2 * width].decode("ascii", errors="replace")
    *folders, name = path.split("/")
    for folder in folders:
        inner = _entry(_loose(git_dir, tree_id, b"tree"), folder, _TREE_MODE, width)
        if inner is None:
            return None
        tree_id = inner
    tree = _loose(git_dir, tree_id, b"tree")
    for mode in _FILE_MODES:
        blob_id = _entry(tree, name, mode, width)
        if blob_id is not None:
            return _loose(git_dir, blob_id, b"blob")
    return None


def _entry(tree: bytes | None, name: str, mode: bytes, width: int) -> str | None:
    """The id of the entry ``name`` with ``mode`` in a tree's body, or None."""
    if tree is None:
        return None
    wanted = mode + b" " + name.encode("utf-8") + b"\0"
    at = 0
    while at < len(tree):
        end = tree.find(b"\0", at)
        if end < 0 or end + 1 + width > len(tree):
            return None  # a truncated tree: not ours to judge
        if tree[at : end + 1] == wanted:
            return tree[end + 1 : end + 1 + width].hex()
        at = end + 1 + width
    return None


def _loose(git_dir: Path, object_id: str, kind: bytes) -> bytes | None:
    """The body of a loose object of ``kind``, or None."""
    if len(object_id) not in (40, 64) or not all(c in "0123456789abcdef" for c in object_id):
        return None
    try:
        with (git_dir / "objects" / object_id[:2] / object_id[2:]).open("rb") as file:
            data = zlib.decompressobj().decompress(file.read(), _MAX_OBJECT + 64)
    except (OSError, zlib.error):
        return None
    header, nul, body = data.partition(b"\0")
    kind_found, _, size = header.partition(b" ")
    if not nul or kind_found != kind or not size.isdigit() or int(size) != len(body):
        return None
    return body
