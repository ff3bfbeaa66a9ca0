"""git's index with some paths staged anew, written as libgit2 writes it, without libgit2.

Every move of the checked-out branch shows the new commit in git's index first
(``gitstore/staging.py``): the changed paths are staged with their new blob ids and no
``stat`` data (mode 100644, every other field zero, as ``pygit2.IndexEntry(path, id,
BLOB)`` gives), the removed ones dropped, and libgit2 writes the whole file again. Its
import and its index cost ~40 ms of an add at 10,000 memories. :func:`staged_index`
gives the same bytes for the one shape of index it knows: version 2, SHA-1, every entry
at stage 0, and no extension but the cache of tree ids (``TREE``), which it keeps with
the trees on each changed path invalidated, as libgit2 does. Any other index — a split
or sparse one, an untracked cache, version 3 or 4, a bad checksum, an entry in the way
of a changed path (a file where a folder is staged, or the reverse) — is None: libgit2
writes it. Nothing is written here; the caller holds ``index.lock`` and renames the
bytes into place.
"""

from __future__ import annotations

import hashlib
import struct
from bisect import bisect_left
from collections.abc import Callable, Mapping

__all__ = ["staged_index"]

_HEADER = struct.Struct(">4sLL")
#: ``stat`` data (10 words), the object id and the flags: 62 bytes before the path.
_ENTRY = struct.Struct(">10L20sH")
_FLAGS_AT = 60
#: The stage bits and the extended bit: neither is in an index this writes.
_STAGE_OR_EXTENDED = 0x3000 | 0x4000
_NAME_MASK = 0x0FFF
_BLOB_MODE = 0o100644
_TREE = b"TREE"


class _CachedTree:
    """One node of the ``TREE`` extension: a folder's name, how many entries its tree
    covers (-1: invalidated), its id (absent when invalidated) and its subfolders."""

    def __init__(self, name: bytes, count: int, tree_id: bytes, children: list[_CachedTree]):
        self.name, self.count, self.tree_id, self.children = name, count, tree_id, children

    def invalidate(self, path: bytes) -> None:
        """Invalidate this tree and each cached folder on ``path``'s way down."""
        node: _CachedTree | None = self
        *folders, _file = path.split(b"/")
        while node is not None:
            node.count, node.tree_id = -1, b""
            if not folders:
                return
            name = folders.pop(0)
            node = next((child for child in node.children if child.name == name), None)

    def write(self, out: list[bytes]) -> None:
        out.append(b"%s\0%d %d\n%s" % (self.name, self.count, len(self.children), self.tree_id))
        for child in self.children:
            child.write(out)


def staged_index(data: bytes, edits: Mapping[str, str | None]) -> bytes | None:
    """The index file ``data`` with each path of ``edits`` staged at its blob id (hex) or
    removed (None), byte for byte as libgit2 writes it; None when this index is not one
    this writer knows (its SHA-1 checksum not verified included)."""
    body, checksum = data[:-20], data[-20:]
    if len(data) < _HEADER.size + 20 or hashlib.sha1(body).digest() != checksum:
        return None  # torn, or written by something else
    try:
        return _staged(body, edits)
    except (struct.error, ValueError, IndexError):  # a doubt: libgit2 writes it
        return None


def _staged(body: bytes, edits: Mapping[str, str | None]) -> bytes:
    """The index ``body`` (its checksum taken off) with ``edits`` staged, checksummed.

    An add at 10,000 memories changes two paths: the entries are not read one by one
    but found where they start (a walk over the flags words) and each changed path by a
    binary search over the sorted entries; the rest is copied in slices."""
    signature, version, count = _HEADER.unpack_from(body)
    if signature != b"DIRC" or version != 2:
        raise ValueError("version")
    starts, end = _entry_starts(body, count)
    tree = _cached_tree(body, end)

    def path_at(start: int) -> bytes:
        length = ((body[start + _FLAGS_AT] & 0x0F) << 8) | body[start + _FLAGS_AT + 1]
        first = start + _ENTRY.size
        return body[first : body.index(b"\0", first) if length == _NAME_MASK else first + length]

    def offset(k: int) -> int:
        return starts[k] if k < count else end

    out = [b""]  # the header, once the count is known
    copied, total = 0, count  # the entries before ``copied`` are in ``out``
    for path in sorted(path.encode("utf-8") for path in edits):
        blob = edits[path.decode("utf-8")]
        at = bisect_left(starts, path, lo=copied, key=path_at)
        staged = at < count and path_at(starts[at]) == path
        if blob is None and not staged:
            continue  # nothing to remove: libgit2 leaves its cached trees as they are
        out.append(body[offset(copied) : offset(at)])
        copied = at + 1 if staged else at
        if blob is None:
            total -= 1
        else:
            object_id = bytes.fromhex(blob)
            if len(object_id) != 20:
                raise ValueError("object id")
            if not staged and _in_the_way(starts, path, path_at):
                raise ValueError("a file where a folder is staged, or the reverse")
            out.append(_entry(path, object_id))
            total += 0 if staged else 1
        if tree is not None:
            tree.invalidate(path)
    out.append(body[offset(copied) : end])
    out[0] = _HEADER.pack(b"DIRC", 2, total)
    if tree is not None:
        written: list[bytes] = []
        tree.write(written)
        extension = b"".join(written)
        out.append(_TREE + struct.pack(">L", len(extension)) + extension)
    data = b"".join(out)
    return data + hashlib.sha1(data).digest()


def _entry(path: bytes, object_id: bytes) -> bytes:
    """A new entry as libgit2 writes one given only a path and a blob id: mode 100644,
    the rest of the ``stat`` data zero, NUL-padded to a multiple of 8 bytes."""
    fixed = _ENTRY.pack(
        0, 0, 0, 0, 0, 0, _BLOB_MODE, 0, 0, 0, object_id, min(len(path), _NAME_MASK)
    )
    size = (_ENTRY.size + len(path) + 8) & ~7
    return (fixed + path).ljust(size, b"\0")


def _in_the_way(starts: list[int], path: bytes, path_at: Callable[[int], bytes]) -> bool:
    """Whether a staged file is a folder on ``path``'s way, or lies inside ``path``
    (``starts``: where each entry starts, in path order; ``path_at``: its path)."""
    parts = path.split(b"/")
    for k in range(1, len(parts)):
        folder = b"/".join(parts[:k])
        at = bisect_left(starts, folder, key=path_at)
        if at < len(starts) and path_at(starts[at]) == folder:
            return True
    inside = path + b"/"
    at = bisect_left(starts, inside, key=path_at)
    return at < len(starts) and path_at(starts[at]).startswith(inside)


def _entry_starts(body: bytes, count: int) -> tuple[list[int], int]:
    """Where each entry starts, and the offset after the last: each entry's size is
    read off its flags word (the path's length), nothing else is."""
    starts: list[int] = []
    append = starts.append
    offset = _HEADER.size
    for _ in range(count):
        high = body[offset + _FLAGS_AT]
        if high & _STAGE_OR_EXTENDED >> 8:
            raise ValueError("a conflict or an extended entry")
        length = ((high & 0x0F) << 8) | body[offset + _FLAGS_AT + 1]
        if length == _NAME_MASK:
            length = body.index(b"\0", offset + _ENTRY.size) - offset - _ENTRY.size
        append(offset)
        offset += (_ENTRY.size + length + 8) & ~7
    return starts, offset


def _cached_tree(body: bytes, offset: int) -> _CachedTree | None:
    """The ``TREE`` extension after the entries (None when there is none); any other
    extension is a doubt."""
    if offset == len(body):
        return None
    signature = body[offset : offset + 4]
    (length,) = struct.unpack_from(">L", body, offset + 4)
    start = offset + 8
    if signature != _TREE or start + length != len(body):
        raise ValueError("an extension other than the cached trees")
    tree, end = _read_tree(body, start)
    if end != len(body):
        raise ValueError("a torn cached tree")
    return tree


def _read_tree(body: bytes, start: int) -> tuple[_CachedTree, int]:
    """One cached tree and its subtrees from ``start``, and the offset after them."""
    nul = body.index(b"\0", start)
    newline = body.index(b"\n", nul)
    count_text, children_text = body[nul + 1 : newline].split(b" ")
    count, children = int(count_text), int(children_text)
    if count < -1 or children < 0 or b"%d %d" % (count, children) != body[nul + 1 : newline]:
        raise ValueError("a cached tree written otherwise")
    offset = newline + 1
    tree_id = b""
    if count >= 0:
        tree_id = body[offset : offset + 20]
        offset += 20
    found = []
    for _ in range(children):
        child, offset = _read_tree(body, offset)
        found.append(child)
    return _CachedTree(body[start:nul], count, tree_id, found), offset
