"""git's index file (``.git/index``) read without libgit2; None on any doubt.

A status in a repository with a work tree must know whether the checked-out files are
the committed ones, and ``pygit2`` costs ~80 ms of imports before it can say. The index
holds, for each tracked file, the blob id staged and the file's ``stat`` data when it was
staged: git's own status takes a file whose ``stat`` still matches as unchanged. This
reads versions 2, 3 and 4 of the format (documented in git's
``Documentation/gitformat-index.txt``): a 12-byte header (``DIRC``, version, count), the
entries (62 bytes of ``stat`` data, object id and flags, then the path: NUL-padded to a
multiple of 8 bytes in versions 2 and 3, prefix-compressed in version 4), extensions,
and a checksum of everything before it. Anything this reader does not vouch for is a
doubt: a bad checksum (a file being rewritten), a merge conflict, an entry marked
skip-worktree or intent-to-add, a split or sparse index. Nothing is written.
"""

from __future__ import annotations

import hashlib
import os
import struct
from functools import partial
from pathlib import Path
from typing import NamedTuple

__all__ = ["Index", "IndexContent", "IndexEntry", "index_content", "parse_index", "read_index"]

_HEADER = struct.Struct(">4sLL")
_EXTENDED = 0x4000
_STAGE = 0x3000
_NAME_MASK = 0x0FFF
#: skip-worktree and intent-to-add, in the second flags word.
_DOUBTFUL_EXTENDED = 0x4000 | 0x2000
#: A split index's link and a sparse index's marker: entries live elsewhere.
_DOUBTFUL_EXTENSIONS = (b"link", b"sdir")


class IndexEntry(NamedTuple):
    """One staged file: its ``stat`` data as git stored it, its blob id (raw bytes)
    and its flags."""

    ctime_s: int
    ctime_ns: int
    mtime_s: int
    mtime_ns: int
    dev: int
    ino: int
    mode: int
    uid: int
    gid: int
    size: int
    object_id: bytes
    flags: int


class Index(NamedTuple):
    """An index file's entries by path (bytes, as git stores it), when it was written
    (nanoseconds: a file changed since then may still match its entry) and its checksum
    (the hash of its content, verified: equal checksums, equal content)."""

    entries: dict[bytes, IndexEntry]
    written_ns: int
    checksum: bytes


class IndexContent(NamedTuple):
    """An index file's content before its checksum, when it was written (nanoseconds)
    and its checksum, verified."""

    body: bytes
    written_ns: int
    checksum: bytes

    @property
    def version(self) -> int:
        """The index format's version (2, 3 or 4 for one git writes)."""
        return int(_HEADER.unpack_from(self.body)[1])


def index_content(git_dir: Path, id_bytes: int = 20) -> IndexContent | None:
    """``git_dir``'s index file, its checksum verified (equal checksums, equal content),
    or None (no index, a torn one, one written by something else)."""
    try:
        with (git_dir / "index").open("rb") as file:
            written_ns = os.fstat(file.fileno()).st_mtime_ns
            data = file.read()
    except OSError:
        return None
    if len(data) < _HEADER.size + id_bytes:
        return None
    body, checksum = data[:-id_bytes], data[-id_bytes:]
    digest = hashlib.sha1 if id_bytes == 20 else hashlib.sha256
    if digest(body).digest() != checksum:
        return None  # torn, or written by something else
    return IndexContent(body, written_ns, checksum)


def read_index(git_dir: Path, id_bytes: int = 20) -> Index | None:
    """``git_dir``'s index, or None on any doubt (no index included). ``id_bytes``: 20
    for SHA-1 repositories, 32 for SHA-256 ones."""
    content = index_content(git_dir, id_bytes)
    return None if content is None else parse_index(content, id_bytes)


def parse_index(content: IndexContent, id_bytes: int = 20) -> Index | None:
    """The entries of an index file's verified ``content``, or None on any doubt."""
    body = content.body
    signature, version, count = _HEADER.unpack_from(body)
    if signature != b"DIRC" or version not in (2, 3, 4):
        return None
    try:
        found = _entries(body, version, count, id_bytes)
    except (struct.error, ValueError, IndexError):
        return None
    if found is None:
        return None
    entries, offset = found
    if not _extensions_plain(body, offset):
        return None
    return Index(entries, content.written_ns, content.checksum)


def _entries(
    body: bytes, version: int, count: int, id_bytes: int
) -> tuple[dict[bytes, IndexEntry], int] | None:
    """The entries and the offset after them, or None when one is a doubt."""
    fixed = struct.Struct(f">10L{id_bytes}sH")  # stat data, object id, flags
    unpack, size, find = fixed.unpack_from, fixed.size, body.index
    # The named tuple built from the unpacked values without a Python-level call per
    # entry (``IndexEntry._make`` is one): 10,000 entries are read for every status.
    make = partial(tuple.__new__, IndexEntry)
    entries: dict[bytes, IndexEntry] = {}
    offset = _HEADER.size
    previous = b""
    for _ in range(count):
        start = offset
        values = unpack(body, offset)
        offset += size
        flags = values[-1]
        if flags & _STAGE:
            return None  # a merge in conflict
        if flags & _EXTENDED:
            if version < 3:
                return None
            (extended,) = struct.unpack_from(">H", body, offset)
            offset += 2
            if extended & _DOUBTFUL_EXTENDED:
                return None
        if version == 4:
            strip, offset = _varint(body, offset)
            end = find(b"\0", offset)
            if strip > len(previous):
                return None
            name = previous[: len(previous) - strip] + body[offset:end]
            offset = end + 1
            previous = name
        else:
            length = flags & _NAME_MASK
            end = find(b"\0", offset) if length == _NAME_MASK else offset + length
            if body[end] != 0:
                return None  # the length the flags give is not the path's
            name = body[offset:end]
            offset = start + ((end - start) // 8 + 1) * 8  # 1 to 8 NULs pad the entry
        entries[name] = make(values)
    return entries, offset


def _varint(body: bytes, offset: int) -> tuple[int, int]:
    """git's offset encoding (each continuation adds one before shifting), as version 4
    writes how many bytes of the previous path to drop."""
    byte = body[offset]
    offset += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = body[offset]
        offset += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, offset


def _extensions_plain(body: bytes, offset: int) -> bool:
    """Whether the extensions after the entries hold nothing that moves entries
    elsewhere (each is a 4-byte signature, a 4-byte length and its data)."""
    while offset < len(body):
        if offset + 8 > len(body):
            return False
        signature = body[offset : offset + 4]
        (length,) = struct.unpack_from(">L", body, offset + 4)
        if signature in _DOUBTFUL_EXTENSIONS:
            return False
        offset += 8 + length
    return offset == len(body)
