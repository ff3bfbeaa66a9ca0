"""The repository every part of the store works on, and the index-lock state they share.

``StoreBase`` holds the ``pygit2.Repository`` and where its git directory and work
tree are; the other modules of this package each add one kind of work on top of it.
"""

from __future__ import annotations

from pathlib import Path

import pygit2

__all__ = ["StoreBase"]


class StoreBase:
    """A git repository, bare or with a work tree, and what its writers share."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self._repo = repo
        self._index_lock_depth = 0
        #: The commit the index shows while we hold index.lock (None: as it was).
        self._staged: str | None = None
        #: Every commit this store staged in git's index, and one a killed holder of the
        #: index lock left staged: dreamgit's own, whatever their messages say.
        self.staged_here: set[str] = set()
        #: The folder of the repository's own loose objects ("" where they live elsewhere),
        #: found at the first blob read.
        self._loose_objects: str | None = None

    @property
    def git_dir(self) -> Path:
        """The ``.git`` directory (the repository itself when bare)."""
        return Path(self._repo.path)

    @property
    def workdir(self) -> Path | None:
        """The work tree, or None for a bare repository."""
        return None if self._repo.is_bare else Path(self._repo.workdir)
