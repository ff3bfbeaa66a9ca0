"""Objects read from git's pack files without libgit2; a Doubt where that cannot be done.

Once git packs a repository (``git gc``, a clone) its objects live in
``objects/pack/pack-X.pack``, found through ``pack-X.idx`` (documented in git's
``Documentation/gitformat-pack.txt``): version 2 of the index holds a fan-out table of
256 counts, the sorted object ids, their checksums and their offsets in the pack (a
large offset in a table of its own). An entry in the pack is a header (type and size in
a variable-length number) and zlib data: the object itself, or a delta against a base
named by its offset in the same pack or by its id. A delta is the base's and the
result's sizes, then instructions that copy a range of the base or insert bytes.
Anything else is a doubt (``leandoubt.Doubt``): another index version, a pack that
went away (a repack meanwhile), a delta chain longer than git would make, sizes that
do not add up. Nothing is written.
"""

from __future__ import annotations

import functools
import mmap
import os
import zlib
from collections.abc import Callable
from typing import NamedTuple

from dreamgit.leanhash import sha1
from dreamgit.store.leandoubt import Doubt

__all__ = ["read_packed"]

_KINDS = {1: b"commit", 2: b"tree", 3: b"blob", 4: b"tag"}
_OFS_DELTA = 6
_REF_DELTA = 7
#: git's default ``pack.depth`` is 50; a longer chain is not one git made.
_MAX_DEPTH = 64
_MAX_OBJECT = 8 * 1024 * 1024
_IDX_HEADER = b"\377tOc\0\0\0\2"


class _Pack(NamedTuple):
    """One pack: its index's object ids, offsets and large offsets, and its data."""

    entries: int
    fanout: bytes
    ids: bytes
    offsets: bytes
    large: bytes
    data: mmap.mmap


def read_packed(
    git_dir: str, object_id: str, base_of: Callable[[str], tuple[bytes, bytes]]
) -> tuple[bytes, bytes]:
    """The kind and body of ``object_id`` from the repository's packs; ``base_of`` reads
    the base of a delta named by id (it may be loose)."""
    raw = bytes.fromhex(object_id)
    for pack in _packs(git_dir):
        offset = _offset(pack, raw)
        if offset is None:
            continue
        try:
            kind, body = _object_at(pack, offset, base_of, 0)
        except (IndexError, ValueError):
            raise Doubt(f"a pack entry cut short: {object_id}") from None
        # Checked as its id says it must be: any misreading is a doubt, not an answer.
        header = b"%s %d\0" % (kind, len(body))
        if sha1(header + body, usedforsecurity=False).digest() != raw:
            raise Doubt(f"a pack entry that is not {object_id}")
        return kind, body
    raise Doubt(object_id)


@functools.lru_cache(maxsize=8)
def _packs(git_dir: str) -> tuple[_Pack, ...]:
    """The repository's packs, read once a process (a pack that goes away later makes
    its reads fail, and fail over to libgit2)."""
    folder = f"{git_dir}/objects/pack"
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".idx"))
    except FileNotFoundError:
        return ()
    except OSError:
        raise Doubt("objects/pack") from None
    return tuple(_pack(f"{folder}/{name}") for name in names)


def _pack(idx_path: str) -> _Pack:
    try:
        with open(idx_path, "rb") as file:
            idx = file.read()
        with open(idx_path[: -len(".idx")] + ".pack", "rb") as file:
            data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        raise Doubt(idx_path) from None
    if not idx.startswith(_IDX_HEADER) or len(idx) < 8 + 1024:
        raise Doubt(idx_path)
    fanout = idx[8 : 8 + 1024]
    count = int.from_bytes(fanout[-4:], "big")
    ids_at = 8 + 1024
    offsets_at = ids_at + 24 * count  # ids, then a 4-byte checksum each
    large_at = offsets_at + 4 * count
    if len(idx) < large_at + 40 or data[:4] != b"PACK":
        raise Doubt(idx_path)
    return _Pack(
        count,
        fanout,
        idx[ids_at : ids_at + 20 * count],
        idx[offsets_at:large_at],
        idx[large_at:-40],
        data,
    )


def _offset(pack: _Pack, raw: bytes) -> int | None:
    """Where the object ``raw`` (20 bytes) starts in the pack, or None when not there."""
    first = raw[0]
    low = int.from_bytes(pack.fanout[4 * first - 4 : 4 * first], "big") if first else 0
    high = int.from_bytes(pack.fanout[4 * first : 4 * first + 4], "big")
    while low < high:
        middle = (low + high) // 2
        found = pack.ids[20 * middle : 20 * middle + 20]
        if found == raw:
            offset = int.from_bytes(pack.offsets[4 * middle : 4 * middle + 4], "big")
            if offset & 0x80000000:
                at = 8 * (offset & 0x7FFFFFFF)
                if at + 8 > len(pack.large):
                    raise Doubt("a large offset past its table")
                return int.from_bytes(pack.large[at : at + 8], "big")
            return offset
        if found < raw:
            low = middle + 1
        else:
            high = middle
    return None


def _object_at(
    pack: _Pack, offset: int, base_of: Callable[[str], tuple[bytes, bytes]], depth: int
) -> tuple[bytes, bytes]:
    if depth > _MAX_DEPTH or offset >= len(pack.data):
        raise Doubt("a delta chain git would not make")
    data = pack.data
    byte = data[offset]
    kind, size, shift, at = (byte >> 4) & 7, byte & 15, 4, offset + 1
    while byte & 0x80:
        byte = data[at]
        size |= (byte & 0x7F) << shift
        shift, at = shift + 7, at + 1
    if size > _MAX_OBJECT:
        raise Doubt("an object larger than an add reads")
    if kind in _KINDS:
        return _KINDS[kind], _inflate(data, at, size)
    if kind == _OFS_DELTA:
        byte = data[at]
        back, at = byte & 0x7F, at + 1
        while byte & 0x80:
            byte = data[at]
            back, at = ((back + 1) << 7) | (byte & 0x7F), at + 1
        base_kind, base = _object_at(pack, offset - back, base_of, depth + 1)
    elif kind == _REF_DELTA:
        base_kind, base = base_of(bytes(data[at : at + 20]).hex())
        at += 20
    else:
        raise Doubt(f"a pack entry of type {kind}")
    return base_kind, _apply(base, _inflate(data, at, size))


def _inflate(data: mmap.mmap, at: int, size: int) -> bytes:
    """``size`` bytes inflated from the zlib stream at ``at``."""
    inflater = zlib.decompressobj()
    out = b""
    step = max(4096, size + 64)
    try:
        while len(out) < size and not inflater.eof and at < len(data):
            out += inflater.decompress(data[at : at + step], size + 1 - len(out))
            at += step
            if inflater.unconsumed_tail:
                break
    except zlib.error:
        raise Doubt("a pack entry that does not inflate") from None
    if len(out) != size:
        raise Doubt("a pack entry of another size than its header says")
    return out


def _apply(base: bytes, delta: bytes) -> bytes:
    """``base`` with the copy and insert instructions of ``delta`` applied."""
    source, at = _size(delta, 0)
    target, at = _size(delta, at)
    if source != len(base):
        raise Doubt("a delta against a base of another size")
    parts: list[bytes] = []
    while at < len(delta):
        op = delta[at]
        at += 1
        if op & 0x80:
            start = length = 0
            for bit in range(4):
                if op & (1 << bit):
                    start |= delta[at] << (8 * bit)
                    at += 1
            for bit in range(3):
                if op & (0x10 << bit):
                    length |= delta[at] << (8 * bit)
                    at += 1
            length = length or 0x10000
            if start + length > len(base):
                raise Doubt("a delta copying past its base")
            parts.append(base[start : start + length])
        elif op:
            parts.append(delta[at : at + op])
            at += op
        else:
            raise Doubt("a delta instruction git never writes")
    out = b"".join(parts)
    if len(out) != target:
        raise Doubt("a delta of another size than it says")
    return out


def _size(delta: bytes, at: int) -> tuple[int, int]:
    """A delta's little-endian variable-length size at ``at``, and where it ends."""
    size = shift = 0
    while True:
        if at >= len(delta):
            raise Doubt("a truncated delta")
        byte = delta[at]
        size |= (byte & 0x7F) << shift
        shift, at = shift + 7, at + 1
        if not byte & 0x80:
            return size, at
