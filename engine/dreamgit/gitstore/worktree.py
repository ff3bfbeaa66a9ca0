"""The checked-out files: uncommitted agent edits found, and files brought up to a new commit.

Files are compared as git would clean them (``core.autocrlf``, ``.gitattributes``);
nothing changed by hand is overwritten and no path through a symlink is written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pygit2
from pygit2.enums import FileStatus

from dreamgit.gitstore.indexstat import through_symlink
from dreamgit.gitstore.permissions import git_mode, keep_permissions
from dreamgit.gitstore.staging import IndexStager

__all__ = ["WorkTree"]


class WorkTree(IndexStager):
    """Agent edits read from the work tree, and the work tree synced to a commit."""

    def worktree_edits(self, prefixes: tuple[str, ...]) -> dict[str, bytes | None]:
        """Uncommitted changes under ``prefixes``: new or changed files, and deleted tracked ones.

        A file that matches the branch tip is not an edit, even if the index
        lags behind (an interrupted sync leaves exactly that).
        """
        workdir = self.workdir
        if workdir is None:
            return {}
        edits: dict[str, bytes | None] = {}
        committed: dict[str, str] | None = None  # the tip's files: read once a path needs them
        for path, flags in sorted(self._repo.status(untracked_files="all").items()):
            if not path.startswith(prefixes) or flags & FileStatus.IGNORED:
                continue
            if through_symlink(workdir, path.rstrip("/")):
                continue  # not the repository's file: what lies outside is not an edit
            if committed is None:
                # Walking the whole tip tree costs ~20 ms at 10,000 memories, on every
                # write in a work tree; a clean work tree (the usual case) never needs it.
                committed = self.files(self.tip(self.checked_out_branch() or ""))
            file = workdir / path
            if file.is_file() and not file.is_symlink():
                clean = self._clean_hash(workdir, path)
                if committed.get(path) != clean:
                    edits[path] = self._clean_bytes(path, file.read_bytes(), clean)
            elif not file.exists() and path in committed and path in self._repo.index:
                edits[path] = None
        return edits

    def worktree_modes(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The mode git would stage each path's work-tree file with (``git_mode``), for
        each that is a regular file reached through no symlink. None at all where git
        trusts no executable bit (``core.fileMode`` false): a new file is then committed
        plain and an edited one keeps its mode, as ``git add`` stages them."""
        workdir = self.workdir
        if workdir is None or not self._trusts_executable_bit():
            return {}
        found = {}
        for path in paths:
            mode = None if through_symlink(workdir, path) else git_mode(workdir / path)
            if mode is not None:
                found[path] = mode
        return found

    def _trusts_executable_bit(self) -> bool:
        try:
            return bool(self._repo.config.get_bool("core.fileMode"))
        except KeyError:  # git's default
            return True
        except pygit2.GitError:  # a value git would refuse too: the default mode rule
            return False

    def files_still_at(self, old: str | None, new: str) -> list[str]:
        """Paths changed from ``old`` to ``new`` whose work-tree files still hold ``old``'s
        version: a commit made from git's index, or without the work tree, left them."""
        workdir = self.workdir
        if workdir is None:
            return []
        return [
            change.path
            for change in self.diff(old, new)
            if change.old is not None
            and not through_symlink(workdir, change.path)
            and (workdir / change.path).is_file()
            and self._clean_hash(workdir, change.path) == change.old
        ]

    def _clean_bytes(self, path: str, data: bytes, clean: str) -> bytes:
        """What git would commit for a work-tree file (``data`` when no filter changes it)."""
        if str(pygit2.hash(data)) == clean:
            return data
        return bytes(self._repo[self._repo.create_blob_fromworkdir(path)].peel(pygit2.Blob).data)

    def _replace_file(self, file: Path, data: bytes) -> None:
        # Written aside and renamed in, so a writer killed here leaves the old file or
        # the new one, never a torn file that would be taken for a hand edit.
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.git_dir / f"dreamgit-write-{os.getpid()}.tmp"
        tmp.write_bytes(data)
        keep_permissions(tmp, file)  # an executable stays one, as in the commit
        try:
            os.replace(tmp, file)
        except OSError:  # the git directory lives on another file system
            tmp.unlink(missing_ok=True)
            file.write_bytes(data)

    def sync_worktree(self, old: str | None, new: str) -> list[str]:
        """Bring the checked-out files from ``old`` to ``new``; returns paths left alone.

        A file is rewritten only where it still holds ``old``'s content, so
        nothing changed by hand is overwritten; the index follows each file
        (git's ``index.lock`` is held meanwhile, see :meth:`index_locked`).
        """
        workdir = self.workdir
        if workdir is None:
            return []
        with self.index_locked():
            return self._sync_locked(workdir, old, new)

    def _sync_locked(self, workdir: Path, old: str | None, new: str) -> list[str]:
        skipped = []
        for change in self.diff(old, new):
            file = workdir / change.path
            if through_symlink(workdir, change.path):
                # A symlinked folder (or file) leads out of the work tree: never write there.
                skipped.append(change.path)
                continue
            current = self._clean_hash(workdir, change.path) if file.is_file() else None
            if current not in (change.old, change.new):
                # The hand edit stays; the index shows the new commit's version, so the
                # edit is a change against the branch and `git commit` cannot undo it.
                skipped.append(change.path)
            elif change.new is None:
                file.unlink(missing_ok=True)
            elif current != change.new:
                self._replace_file(file, self.read(change.new))
        if self._staged != new:
            self._stage_index(self._staged or old, new)
        return skipped
