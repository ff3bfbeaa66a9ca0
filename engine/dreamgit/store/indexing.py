"""Putting a freshly rendered ``MEMORY.md`` into a tree that changes memories.

The rendering itself needs the rules (it lives in ``dream.reindex``); this
layer only knows when to ask for it and how to put the answer in the tree, so
that a write and the index that lists its result are one commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore, Identity

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
    index_path: str = layout.INDEX,
    is_memory: Callable[[str], bool] = lambda path: path.startswith(layout.MEMORIES),
) -> str:
    """``tree`` with MEMORY.md rewritten for the memories in it, when there is an indexer.

    Skipped when ``changes`` touch no memory file (``is_memory``: the format's), or
    write the index themselves (an agent's own edit of the index is kept as it is).
    ``parents`` are the commit's to be, so the renderer reads the memories at a commit
    of this tree.
    """
    if indexer is None or not index_path:
        return tree
    if changes is not None and (index_path in changes or not any(map(is_memory, changes))):
        return tree
    probe = store.commit_unreferenced(
        parents=list(parents),
        tree=tree,
        message="probe: the index for this tree",
        who=who,
        when=when,
    )
    index = indexer(probe)
    return tree if index is None else store.build_tree(probe, {index_path: index})
