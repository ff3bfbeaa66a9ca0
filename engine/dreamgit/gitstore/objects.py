"""Writing objects no ref points at yet: blobs, trees built in memory, unreferenced commits.

Trees come from tree builders, never the work tree's index, and only the folders on
the changed paths are rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import pygit2
from pygit2.enums import FileMode

from dreamgit import faults
from dreamgit.gitstore.base import StoreBase
from dreamgit.gitstore.values import EMPTY_TREE, Identity

__all__ = ["ObjectWriter"]


class ObjectWriter(StoreBase):
    """Blobs, trees and commits written without moving a ref."""

    def write_blob(self, data: bytes) -> str:
        """Store bytes as a blob and return its id."""
        return str(self._repo.create_blob(data))

    def build_tree(self, base: str | None, changes: Mapping[str, bytes | None]) -> str:
        """A new tree: ``base``'s tree with files written (bytes) or removed (None)."""
        # Only the folders on the changed paths are rewritten (tree builders), so the
        # cost follows the change, not the size of the repository.
        tree = None if base is None else self._repo[base].peel(pygit2.Commit).tree
        faults.checkpoint("object-write", path=self.git_dir / "objects")
        return str(self._write_tree(tree, changes) or EMPTY_TREE)

    def _write_tree(
        self, tree: pygit2.Tree | None, changes: Mapping[str, bytes | None]
    ) -> pygit2.Oid | None:
        """``tree`` with ``changes`` (paths relative to it); None when it ends up empty."""
        builder = self._repo.TreeBuilder() if tree is None else self._repo.TreeBuilder(tree)
        nested: dict[str, dict[str, bytes | None]] = {}
        for path, data in changes.items():
            name, slash, rest = path.partition("/")
            if slash:
                nested.setdefault(name, {})[rest] = data
            elif data is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, self._repo.create_blob(data), FileMode.BLOB)
        for name, inner in nested.items():
            old = tree / name if tree is not None and name in tree else None
            sub = old.peel(pygit2.Tree) if old is not None and old.type_str == "tree" else None
            oid = self._write_tree(sub, inner)
            if oid is not None:
                builder.insert(name, oid, FileMode.TREE)
            elif builder.get(name) is not None:
                builder.remove(name)
        return builder.write() if len(builder) else None

    def commit_unreferenced(
        self, *, parents: list[str], tree: str, message: str, who: Identity, when: datetime
    ) -> str:
        """A commit that no branch points at (a preview; git's gc removes it in time)."""
        sig = pygit2.Signature(who.name, who.email, int(when.timestamp()), 0)
        oid = self._repo.create_commit(None, sig, sig, message, pygit2.Oid(hex=tree), parents)
        return str(oid)
