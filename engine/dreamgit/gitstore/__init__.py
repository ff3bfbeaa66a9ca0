"""The plumbing: everything dreamgit asks of git, and the only package that imports pygit2.

Commits are built in memory (tree builders, never the work tree's index) and
written with an expected parent: libgit2 refuses the ref update when the
branch moved, which is the compare-and-swap every writer relies on. Other ref
moves go through a reference transaction that re-reads the ref under its lock.
Work-tree helpers find uncommitted agent edits and bring a checked-out branch's
files up to date without overwriting anything that was changed by hand.

``GitStore`` (``store``) is one class made of one part per job: ``base`` (the
repository and where it lives), ``reading``, ``objects`` (blobs, trees and commits no
ref names yet), ``rewriting`` (what rewriting history needs), ``merging``, ``staging``
(git's ``index.lock`` and the index shown before a branch moves), ``refs`` (moving refs
by compare-and-swap) and ``worktree``; ``values`` holds the records they hand out.
``locks`` holds dreamgit's advisory locks in the git directory (writers taking turns, one
dream at a time) and the waiting on git's own lock files; ``indexstat`` the stat data
staging records for index entries without any; ``offline`` the import of pygit2 without
its HTTPS set-up, for a command that moves nothing over the network. The porcelain,
``store``, builds memories on this package and is never imported by it.

May import: pygit2 and the kernel; never ``store``, the porcelain above it. ``GitStore``
(and with it pygit2) is imported when first named, not with the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dreamgit.gitstore.values import EMPTY_TREE as EMPTY_TREE
from dreamgit.gitstore.values import Change, CommitInfo, Identity, StaleTipError

if TYPE_CHECKING:
    from dreamgit.gitstore.store import GitStore

__all__ = [
    "Change",
    "CommitInfo",
    "GitStore",
    "Identity",
    "StaleTipError",
]


def __getattr__(name: str) -> object:
    """``GitStore`` imported when first named: importing pygit2 costs ~100 ms of CPU, which
    a command that reads and writes through git's own files (``store/leanstore.py``) and
    only needs this package's records and locks never pays."""
    if name == "GitStore":
        from dreamgit.gitstore.offline import import_pygit2

        import_pygit2()  # first: without its HTTPS set-up where the command asked so
        from dreamgit.gitstore.store import GitStore

        return GitStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
