"""``GitStore``: the parts of the store joined into one class, and the two ways to get one."""

from __future__ import annotations

from pathlib import Path

import pygit2

from dreamgit.errors import NotARepositoryError
from dreamgit.gitstore.merging import Merger
from dreamgit.gitstore.objects import ObjectWriter
from dreamgit.gitstore.refs import RefWriter
from dreamgit.gitstore.rewriting import HistoryRewriter
from dreamgit.gitstore.worktree import WorkTree

__all__ = ["GitStore"]


class GitStore(RefWriter, WorkTree, ObjectWriter, HistoryRewriter, Merger):
    """A git repository, bare or with a work tree, seen as branches of trees of blobs."""

    @classmethod
    def init(cls, path: Path, *, bare: bool = False, branch: str = "main") -> GitStore:
        """Create a repository whose first branch is ``branch``."""
        path.mkdir(parents=True, exist_ok=True)
        return cls(pygit2.init_repository(str(path), bare=bare, initial_head=branch))

    @classmethod
    def open(cls, path: Path) -> GitStore:
        """Open the repository at ``path`` (its work tree or its git directory)."""
        if not path.exists():
            raise NotARepositoryError(
                f"{path}: no such directory", hint=f"create one with `dreamgit init {path}`"
            )
        try:
            repo = pygit2.Repository(str(path), pygit2.enums.RepositoryOpenFlag.NO_SEARCH)
        except pygit2.GitError:
            raise NotARepositoryError(
                f"{path} is not a git repository",
                hint=f"create a memory repository with `dreamgit init {path}`, "
                "or pass --repo with the right path",
            ) from None
        return cls(repo)
