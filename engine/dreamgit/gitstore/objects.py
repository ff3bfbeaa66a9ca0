"""Writing objects no ref points at yet: blobs, trees built in memory, unreferenced commits.

Trees come from tree builders (``growing``), never the work tree's index, and only the
folders on the changed paths are rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import pygit2

from dreamgit.gitstore.base import StoreBase
from dreamgit.gitstore.growing import GrowingTree
from dreamgit.gitstore.values import Identity

__all__ = ["ObjectWriter"]


class ObjectWriter(StoreBase):
    """Blobs, trees and commits written without moving a ref."""

    def write_blob(self, data: bytes) -> str:
        """Store bytes as a blob and return its id."""
        return str(self._repo.create_blob(data))

    def build_tree(
        self,
        base: str | None,
        changes: Mapping[str, bytes | None],
        modes: Mapping[str, bytes] | None = None,
    ) -> str:
        """A new tree: ``base``'s tree with files written (bytes) or removed (None);
        ``modes``: the mode of a written path whose file gives one (an agent's file)."""
        # Only the folders on the changed paths are rewritten (tree builders), so the
        # cost follows the change, not the size of the repository.
        tree = None if base is None else self._repo[base].peel(pygit2.Commit).tree
        return GrowingTree(self._repo, tree, keep=False).write(changes, modes)

    def growing_tree(self, base: str | None) -> GrowingTree:
        """``base``'s tree, to be written again and again with changes (see ``growing``)."""
        tree = None if base is None else self._repo[base].peel(pygit2.Commit).tree
        return GrowingTree(self._repo, tree)

    def commit_unreferenced(
        self, *, parents: list[str], tree: str, message: str, who: Identity, when: datetime
    ) -> str:
        """A commit that no branch points at (a preview; git's gc removes it in time)."""
        sig = pygit2.Signature(who.name, who.email, int(when.timestamp()), 0)
        oid = self._repo.create_commit(None, sig, sig, message, pygit2.Oid(hex=tree), parents)
        return str(oid)
