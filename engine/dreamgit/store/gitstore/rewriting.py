"""What rewriting history asks of git: each folder walked once, blobs swapped out, commits copied.

Memos keyed by tree id keep the cost to the distinct folders, not the history's length.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pygit2

from dreamgit.store.gitstore.base import StoreBase

__all__ = ["HistoryRewriter"]


class HistoryRewriter(StoreBase):
    """Trees listed, searched and rewritten by id, and commits copied onto new parents."""

    def tree_files(self, tree: str, seen: set[str], prefix: str = "") -> Iterator[tuple[str, str]]:
        """(path, blob id) of every file under ``tree`` whose folder is not in ``seen`` yet.

        ``seen`` grows with every folder listed, so walking many commits lists each
        distinct folder once: the cost follows what changed, not the history's length.
        """
        if tree in seen:
            return
        seen.add(tree)
        for entry in self._repo[tree].peel(pygit2.Tree):
            if entry.type_str == "tree":
                yield from self.tree_files(str(entry.id), seen, f"{prefix}{entry.name}/")
            elif entry.type_str == "blob":
                yield f"{prefix}{entry.name}", str(entry.id)

    def rewrite_tree(
        self, tree: str, swap: Mapping[str, str | None], memo: dict[str, tuple[str | None, bool]]
    ) -> str | None:
        """``tree`` with each blob named in ``swap`` replaced (by a blob id) or removed (None).

        Folders are rewritten once each (``memo``: old tree → new tree); a folder that
        holds none of the blobs keeps its id. None when the tree ends up empty.
        """
        if tree in memo:
            return memo[tree][0]
        old = self._repo[tree].peel(pygit2.Tree)
        builder = None
        for entry in old:
            oid = str(entry.id)
            if entry.type_str == "tree":
                new = self.rewrite_tree(oid, swap, memo)
            elif oid in swap:
                new = swap[oid]
            else:
                continue
            if new == oid:
                continue
            builder = builder or self._repo.TreeBuilder(old)
            name = str(entry.name)
            if new is None:
                builder.remove(name)
            else:
                builder.insert(name, pygit2.Oid(hex=new), entry.filemode)
        result = tree if builder is None else (str(builder.write()) if len(builder) else None)
        memo[tree] = (result, builder is not None)
        return result

    def tree_holds(self, tree: str, blobs: Mapping[str, object], memo: dict[str, bool]) -> bool:
        """Whether ``tree`` holds any of ``blobs`` at any depth (folders checked once each)."""
        if tree not in memo:
            memo[tree] = any(
                self.tree_holds(str(e.id), blobs, memo)
                if e.type_str == "tree"
                else str(e.id) in blobs
                for e in self._repo[tree].peel(pygit2.Tree)
            )
        return memo[tree]

    def recommit(self, original: str, *, parents: list[str], tree: str, message: str) -> str:
        """A copy of ``original`` with other parents, tree and message; its people and times kept.

        No ref moves: the copy is reachable only once a ref is pointed at it.
        """
        old = self._repo[original].peel(pygit2.Commit)
        oid = self._repo.create_commit(
            None,
            old.author,
            old.committer,
            message,
            pygit2.Oid(hex=tree),
            [pygit2.Oid(hex=p) for p in parents],
        )
        return str(oid)
