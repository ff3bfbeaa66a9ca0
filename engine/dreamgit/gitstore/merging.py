"""Three-way merges and reverts in memory: a tree id, or the paths that conflict."""

from __future__ import annotations

import pygit2
from pygit2.enums import MergeFlag

from dreamgit.gitstore.base import StoreBase
from dreamgit.gitstore.values import EMPTY_TREE

__all__ = ["Merger"]


class Merger(StoreBase):
    """Merges and reverts that touch no ref and no work tree."""

    # Rename detection is off in merges and reverts: memory files share most of their
    # front matter, so git would take two different memories for one renamed file and
    # apply a change meant for one to the other.

    def merge(
        self, ours: str, theirs: str, *, ours_wins: tuple[str, ...] = ()
    ) -> tuple[str | None, list[str]]:
        """Three-way merge of two commits in memory: (tree id, []) or (None, conflicting paths).

        A conflict only in paths listed in ``ours_wins`` (generated files the caller
        rewrites anyway) takes ours for them; any other conflict is reported.
        """
        index = self._repo.merge_commits(ours, theirs, flags=MergeFlag(0))
        if ours_wins and index.conflicts is not None:
            conflicts = list(index.conflicts)
            paths = {e.path for entries in conflicts for e in entries if e is not None}
            if paths <= set(ours_wins):
                for _ancestor, mine, _theirs in conflicts:
                    path = next(e.path for e in (_ancestor, mine, _theirs) if e is not None)
                    del index.conflicts[path]
                    if mine is not None:
                        index.add(pygit2.IndexEntry(mine.path, mine.id, mine.mode))
                    elif path in index:
                        index.remove(path)
        return self._tree_or_conflicts(index)

    def revert(self, commit: str, onto: str) -> tuple[str | None, list[str]]:
        """The tree of ``onto`` with ``commit`` undone, or (None, conflicting paths)."""
        bad = self._repo[commit].peel(pygit2.Commit)
        parent: pygit2.Tree | str = (
            self._repo[bad.parent_ids[0]].peel(pygit2.Commit).tree if bad.parent_ids else EMPTY_TREE
        )
        index = self._repo.merge_trees(
            bad.tree, self._repo[onto].peel(pygit2.Commit).tree, parent, flags=MergeFlag(0)
        )
        return self._tree_or_conflicts(index)

    def _tree_or_conflicts(self, index: pygit2.Index) -> tuple[str | None, list[str]]:
        if index.conflicts is not None:
            paths: set[str] = set()
            for entries in index.conflicts:
                paths.update(e.path for e in entries if e is not None)
            return None, sorted(paths)
        return str(index.write_tree(self._repo)), []
