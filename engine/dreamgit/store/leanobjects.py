"""git's loose objects read and written without libgit2; a :class:`Doubt` where that
cannot be done exactly as git would.

``dreamgit add`` writes one blob, the trees on its path and one commit, and importing
pygit2 costs more CPU than the rest of the add (``store/leanstore.py``). A loose object
is ``objects/ab/cdef…``: zlib over ``TYPE SIZE\\0BODY``, named by the SHA-1 of those
bytes. It is written as git writes it: to a temporary file in its folder, then renamed
into place, so a reader never sees half of one; an object already there is left as it
is. A repository of SHA-256 ids, one that shares its objects with a group
(``core.sharedRepository``) and an object held by an alternate, missing or odd are
doubts: the caller takes libgit2's path. Packed objects are read by ``leanpacks``.
"""

from __future__ import annotations

import functools
import zlib
from pathlib import Path

from dreamgit.gitstore.looseobject import write_loose
from dreamgit.store.leandoubt import Doubt
from dreamgit.store.leanpacks import read_packed

__all__ = ["read_kind", "read_object", "write_object"]

#: Larger objects are not what an add reads: libgit2 handles them.
_MAX_OBJECT = 8 * 1024 * 1024
_KINDS = (b"blob", b"tree", b"commit", b"tag")
_HEX = frozenset("0123456789abcdef")


@functools.lru_cache(maxsize=512)
def read_object(git_dir: Path, object_id: str) -> tuple[bytes, bytes]:
    """The kind (``b"blob"``…) and body of an object, loose or packed
    (``store/leanpacks.py``); a Doubt when it cannot be read here. Kept for the process:
    an object's id names its content (an add reads the trees on its path several times)."""
    if len(object_id) != 40 or not _HEX.issuperset(object_id):
        raise Doubt(object_id)
    try:
        # Joined as text: pathlib's joins cost more than the read (dozens an add).
        with open(f"{git_dir}/objects/{object_id[:2]}/{object_id[2:]}", "rb") as file:
            data = zlib.decompressobj().decompress(file.read(), _MAX_OBJECT + 64)
    except FileNotFoundError:
        return read_packed(str(git_dir), object_id, lambda base: read_object(git_dir, base))
    except (OSError, zlib.error):
        raise Doubt(object_id) from None
    header, nul, body = data.partition(b"\0")
    kind, _, size = header.partition(b" ")
    if not nul or kind not in _KINDS or not size.isdigit() or int(size) != len(body):
        raise Doubt(object_id)
    return kind, body


def read_kind(git_dir: Path, object_id: str, kind: bytes) -> bytes:
    """The body of the loose object ``object_id``, which must be of ``kind``."""
    found, body = read_object(git_dir, object_id)
    if found != kind:
        raise Doubt(object_id)
    return body


def write_object(git_dir: Path, kind: bytes, body: bytes) -> str:
    """Store ``body`` as a loose object of ``kind``; its id (``gitstore.looseobject``)."""
    return write_loose(git_dir / "objects", kind, body, level=1)
