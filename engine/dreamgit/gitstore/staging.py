"""Holding git's own ``index.lock`` and showing a commit in the index before its branch moves.

While the lock is held, ``git add`` and ``git commit`` fail, and every move of
the checked-out branch stages the new commit first, so a plain ``git commit`` that
reads the index after the move commits on top of dreamgit's new tip with its files.
One that read the index before the staging writes what it read back once the lock is
free (git does so even when its own commit then fails, and does it to its own
``git add`` too): the next ``git commit`` drops the change from the branch, but not
from the work tree, and dreamgit's next write commits it back (``store.followed``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from dreamgit.gitstore.indexstat import record_missing_stat_data
from dreamgit.gitstore.locks import create_lock_file
from dreamgit.gitstore.reading import Reader

__all__ = ["IndexStager"]


class IndexStager(Reader):
    """The index lock, re-entrant, and the staging that moves of the checked-out branch do."""

    @contextmanager
    def index_locked(self) -> Iterator[None]:
        """Hold git's own ``index.lock`` (re-entrant), as ``git add`` and ``git commit`` do.

        While it is held, every move of the checked-out branch stages the new
        commit in the index *before* the ref moves (see :meth:`_stage`). ``git
        commit`` reads HEAD, then the index (before it locks it), then moves HEAD
        by compare-and-swap: whichever moment it reads, it either sees the new
        index, or fails on the lock or on its own compare-and-swap, so it never
        commits the old index on top of the new tip itself. (A failing one may
        still write back the index it read: see the module's docstring.)
        """
        if self._index_lock_depth or self.workdir is None:
            self._index_lock_depth += 1
            try:
                yield
            finally:
                self._index_lock_depth -= 1
            return
        lock = self.git_dir / "index.lock"
        fd = create_lock_file(lock, "update of the work tree's index")
        self._index_lock_depth, self._staged = 1, None
        try:
            try:  # a holder killed after staging left the index showing its commit
                self._staged = self._staged_marker().read_text(encoding="ascii").strip()
                self.tree_id(self._staged)
                self.staged_here.add(self._staged)
            except (OSError, KeyError, ValueError):
                self._staged = None
            yield
        finally:
            try:
                # A move that failed after staging (or an error) leaves the index showing
                # a commit main does not hold: bring it back to main.
                tip = self.tip(self.checked_out_branch() or "")
                if self._staged is not None and tip is not None and self._staged != tip:
                    self._stage_index(self._staged, tip)
            finally:
                self._index_lock_depth, self._staged = 0, None
                self._staged_marker().unlink(missing_ok=True)
                os.close(fd)
                lock.unlink(missing_ok=True)

    def _stage(self, branch: str, old: str | None, new: str) -> None:
        """Before ``branch`` moves from ``old`` to ``new``: show ``new`` in the index (if held)."""
        if not self._index_lock_depth or branch != self.checked_out_branch():
            return
        self._stage_index(self._staged or old, new)

    def _clean_hash(self, workdir: Path, path: str) -> str:
        """The blob id git would store for a work-tree file, its filters applied.

        ``core.autocrlf`` and ``.gitattributes`` turn CRLF into LF on the way in:
        a file that differs from the commit only by that is no edit.
        """
        try:
            return str(self._repo.hashfile(str(workdir / path), as_path=path))
        except (pygit2.GitError, OSError):
            return str(pygit2.hash((workdir / path).read_bytes()))

    def _staged_marker(self) -> Path:
        return self.git_dir / "dreamgit" / "index-staged"

    def _file_modes(self, commit: str, paths: list[str]) -> dict[str, FileMode]:
        """Each path's mode in ``commit`` (an executable's, a link's, a plain file's), one
        lookup per folder and per name, not a walk of the whole tree."""
        tree = self._repo[commit].peel(pygit2.Commit).tree
        folders: dict[str, pygit2.Tree] = {}
        modes = {}
        for path in paths:
            folder, _, name = path.rpartition("/")
            if folder not in folders:
                folders[folder] = tree[folder].peel(pygit2.Tree) if folder else tree
            modes[path] = folders[folder][name].filemode
        return modes

    def _stage_index(self, old: str | None, new: str) -> None:
        edit = {c.path: c.new for c in self.diff(old, new)}
        self._staged = new
        self.staged_here.add(new)
        if not edit:
            return
        marker = self._staged_marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(new + "\n", encoding="ascii")
        index_file = self.git_dir / "index"
        aside = self.git_dir / f"dreamgit-index-{os.getpid()}.tmp"
        aside.unlink(missing_ok=True)
        try:
            try:
                data = index_file.read_bytes()
            except FileNotFoundError:
                data = b""  # libgit2 starts an empty index
            else:
                aside.write_bytes(data)
            index = pygit2.Index(str(aside))
            # the commit's own modes: an executable staged as a plain file would show as
            # changed, and a `git commit` of that index would drop its executable bit
            modes = self._file_modes(new, [p for p, blob in edit.items() if blob is not None])
            for path, blob in edit.items():
                if blob is None:
                    if path in index:
                        index.remove(path)
                else:
                    index.add(pygit2.IndexEntry(path, pygit2.Oid(hex=blob), modes[path]))
            workdir = self.workdir
            if workdir is not None:  # entries staged before without stat data, healed once
                record_missing_stat_data(
                    index, data, workdir, lambda path: self._clean_hash(workdir, path), edit
                )
            index.write()
            # Our index.lock stays in place: only this process writes the index meanwhile.
            os.replace(aside, index_file)
        finally:
            aside.unlink(missing_ok=True)
