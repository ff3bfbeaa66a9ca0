"""Big trees written as loose objects whose zlib stream stores them uncompressed.

A dream writes a topic folder of thousands of memories once per operation; deflating
that tree (about 110 KB at 2,900 entries) was most of a commit's time, and the next
commit writes it again with one entry changed. Stored without compression, the object
costs a hash and a write, and about a half more disk until git packs it (a pack
compresses it again, as a delta of its neighbour). The object is what git writes with
``core.looseCompression 0``: a valid zlib stream, read by git and libgit2 alike. It is
written to a temporary file and renamed into place, as git does, so a crash leaves no
half-written object.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zlib
from pathlib import Path

import pygit2

__all__ = ["PLAIN_TREE_BYTES", "objects_folder", "write_plain_tree"]

#: Trees of at least this many bytes (about 800 entries) are stored uncompressed.
PLAIN_TREE_BYTES = 32 * 1024


def objects_folder(repo: pygit2.Repository) -> Path | None:
    """``repo``'s own object folder, or None where its objects live elsewhere (a linked
    work tree's common folder, an environment's object directory)."""
    git_dir = Path(repo.path)
    if os.environ.get("GIT_OBJECT_DIRECTORY") or (git_dir / "commondir").exists():
        return None
    objects = git_dir / "objects"
    return objects if objects.is_dir() else None


def write_plain_tree(objects: Path, raw: bytes) -> pygit2.Oid:
    """The tree object ``raw`` (a tree's entries) written to ``objects`` uncompressed."""
    data = b"tree %d\0%s" % (len(raw), raw)
    hexsha = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    folder = objects / hexsha[:2]
    path = folder / hexsha[2:]
    if not path.exists():
        folder.mkdir(exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix="tmp_obj_")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(zlib.compress(data, 0))
            os.chmod(temporary, 0o444)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return pygit2.Oid(hex=hexsha)
