"""Putting a freshly rendered ``MEMORY.md`` into a tree that changes memories.

The rendering itself needs the rules (it lives in ``dream.reindex``); this
layer only knows when to ask for it and how to put the answer in the tree, so
that a write and the index that lists its result are one commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from dreamgit.store import layout
from dreamgit.store.gitstore import GitStore, Identity

__all__ = ["Indexer", "tree_with_index"]

#: Renders MEMORY.md for a commit; None when the file there is already right.
Indexer = Callable[[str], bytes | None]


def tree_with_index(
    store: GitStore,
    indexer: Indexer | None,
    tree: str,
    *,
    changes: Mapping[str, bytes | None] | None,
    parents: Sequence[str],
    who: Identity,
    when: datetime,
) -> str:
    """``tree`` with MEMORY.md rewritten for the memories in it, when there is an indexer.

    Skipped when ``changes`` touch no memory file, or write MEMORY.md themselves
    (an agent's own edit of the index is kept as it is). ``parents`` are the
    commit's to be, so the renderer reads the memories at a commit of this tree.
    """
    if indexer is None:
        return tree
    if changes is not None and (
        layout.INDEX in changes or not any(p.startswith(layout.MEMORIES) for p in changes)
    ):
        return tree
    probe = store.commit_unreferenced(
        parents=list(parents),
        tree=tree,
        message="probe: the index for this tree",
        who=who,
        when=when,
    )
    index = indexer(probe)
    return tree if index is None else store.build_tree(probe, {layout.INDEX: index})
