"""What rewriting history asks of git: each folder walked once, blobs swapped out, commits copied.

Memos keyed by tree id keep the cost to the distinct folders, not the history's length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import pygit2

from dreamgit.gitstore.base import StoreBase

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
        self,
        tree: str,
        swap: Mapping[str, str | None],
        memo: dict[str, tuple[str | None, bool]],
        rename: Callable[[str], str] | None = None,
    ) -> str | None:
        """``tree`` with each blob named in ``swap`` replaced (by a blob id) or removed (None).

        ``rename`` gives each file or folder name its new name (a name that would
        clash with another in its folder gets ``-2``, ``-3``…). Folders are rewritten
        once each (``memo``: old tree → new tree); a folder that holds none of the
        blobs and no name to change keeps its id. None when the tree ends up empty.
        """
        if tree in memo:
            return memo[tree][0]
        old = self._repo[tree].peel(pygit2.Tree)
        builder = None
        names = {str(entry.name) for entry in old}
        for entry in old:
            oid, name = str(entry.id), str(entry.name)
            if entry.type_str == "tree":
                new = self.rewrite_tree(oid, swap, memo, rename)
            else:
                new = swap.get(oid, oid)
            moved = rename(name) if rename is not None else name
            if new == oid and moved == name:
                continue
            builder = builder or self._repo.TreeBuilder(old)
            builder.remove(name)
            if new is None:
                continue
            if moved != name:
                moved = _free_name(moved, names)
                names.add(moved)
            builder.insert(moved, pygit2.Oid(hex=new), entry.filemode)
        result = tree if builder is None else (str(builder.write()) if len(builder) else None)
        memo[tree] = (result, builder is not None)
        return result

    def tree_names(self, tree: str, test: Callable[[str], bool], memo: dict[str, bool]) -> bool:
        """Whether any file or folder name under ``tree`` passes ``test`` (folders once each)."""
        if tree not in memo:
            memo[tree] = any(
                test(str(e.name))
                or (e.type_str == "tree" and self.tree_names(str(e.id), test, memo))
                for e in self._repo[tree].peel(pygit2.Tree)
            )
        return memo[tree]

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


def _free_name(name: str, taken: set[str]) -> str:
    """``name``, or ``stem-2.ext``, ``stem-3.ext``… whichever its folder does not hold."""
    stem, dot, ext = name.rpartition(".") if "." in name[1:] else (name, "", "")
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{stem}-{n}{dot}{ext}"
    return candidate
