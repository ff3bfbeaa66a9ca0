"""Big trees written as loose objects whose zlib stream stores them uncompressed.

A dream writes a topic folder of thousands of memories once per operation; deflating
that tree (about 110 KB at 2,900 entries) was most of a commit's time, and the next
commit writes it again with one entry changed. Stored without compression, the object
costs a hash and a write, and about a half more disk until git packs it (a pack
compresses it again, as a delta of its neighbour). The object is what git writes with
``core.looseCompression 0``: a valid zlib stream, read by git and libgit2 alike. It is
written to a temporary file and renamed into place, as git does (``looseobject``), so a
crash leaves no half-written object.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2

from dreamgit.gitstore.looseobject import write_loose

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
    return pygit2.Oid(hex=write_loose(objects, b"tree", raw, level=0, large=True))
