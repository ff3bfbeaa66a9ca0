"""One loose git object written as git writes it, and a loose blob read, without libgit2.

The lean add (``store/leanobjects.py``) writes its blobs, trees and commits this way, and
a dream its big trees stored uncompressed (``plainobjects``). Atomic: a temporary file in
the object's folder renamed into place; an object already there is kept. A blob is read
from its file and checked as libgit2 checks it (its bytes hash to its id): reading each
of 100,000 memory files so cost 1.0 s of CPU where libgit2's object database took 1.4.
"""

from __future__ import annotations

import os
import time
import zlib
from pathlib import Path

from dreamgit.leanhash import sha1

__all__ = ["read_loose_blob", "write_loose"]

#: Bytes asked of the file per read: a loose memory file fits in one.
_CHUNK = 64 * 1024


def write_loose(objects: Path, kind: bytes, body: bytes, *, level: int, large: bool = False) -> str:
    """Store ``body`` as a loose object of ``kind`` in the folder ``objects``, its zlib
    stream compressed at ``level`` (0: stored as it is); its id. ``large``: a body of
    hundreds of kilobytes or more (a dream's big trees), hashed by OpenSSL's SHA-1, which
    uses the processor's SHA instructions where it has them (about eight times as fast as
    CPython's own, which took 0.24 s for the 59 topic trees of a dream at 100,000);
    loading OpenSSL costs what hashing about a megabyte the other way does, so the small
    objects of an ``add`` are hashed without it."""
    data = b"%s %d\0%s" % (kind, len(body), body)
    if large:
        import hashlib  # here, not at the top: an add never loads OpenSSL

        object_id = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    else:
        object_id = sha1(data, usedforsecurity=False).hexdigest()
    folder = objects / object_id[:2]
    path = folder / object_id[2:]
    if path.exists():
        return object_id
    folder.mkdir(exist_ok=True)
    # A name of the shape git gives its own (importing tempfile costs more than the write).
    temp = folder / f"tmp_obj_{os.getpid()}_{time.monotonic_ns()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(zlib.compress(data, level))
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return object_id


def read_loose_blob(objects: str, object_id: str) -> bytes | None:
    """The body of the blob ``object_id`` stored loose in the folder ``objects`` when its
    bytes hash to its id, as libgit2 checks them; None when it is not there (packed,
    elsewhere), not a blob, or not whole: the caller asks libgit2, which says why."""
    try:
        fd = os.open(f"{objects}/{object_id[:2]}/{object_id[2:]}", os.O_RDONLY)
    except (OSError, ValueError):  # ValueError: a NUL in the id
        return None
    try:
        chunks = [os.read(fd, _CHUNK)]
        while len(chunks[-1]) == _CHUNK:
            chunks.append(os.read(fd, _CHUNK))
        raw = zlib.decompress(b"".join(chunks) if len(chunks) > 1 else chunks[0])
    except (OSError, zlib.error):
        return None
    finally:
        os.close(fd)
    size, nul, body = raw[5:].partition(b"\0")
    if raw[:5] != b"blob " or not nul or not size.isdigit() or int(size) != len(body):
        return None
    if sha1(raw, usedforsecurity=False).hexdigest() != object_id:
        return None
    return body
