"""A memory repository: the git repository plus what dreamgit knows of its layout.

Reading takes a snapshot of the main branch's tip (memories, sessions, run
records, configuration) without a work tree, so bare repositories work the
same. Writing goes through :meth:`MemoryRepo.commit_main`, which builds the
change against the tip it read and retries on a race; in a repository whose
work tree has ``main`` checked out it first commits any uncommitted agent edits
and afterwards brings the files up to date without overwriting hand edits.

``MemoryRepo`` is joined from parts, one module each: reading (``store.reader``),
writers taking turns and committing by compare-and-swap (``store.committer``), the
work tree where main is checked out (``store.checkout``) and the recall spool
(``store.recallflush``). This module opens and creates repositories and holds the
writing entry points that put the parts together.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

from dreamgit import gitstore
from dreamgit import trailers as tr
from dreamgit.clock import utcnow
from dreamgit.errors import NotARepositoryError, UserError
from dreamgit.store import layout
from dreamgit.store.adopt import (
    check_format,
    config_text,
    configured_branch,
    describe,
    redacted_paths,
    uncommitted_files,
)
from dreamgit.store.checkout import Checkout
from dreamgit.store.headref import read_head
from dreamgit.store.leanrefs import says_bare
from dreamgit.store.reader import Snapshot
from dreamgit.store.recallflush import RecallFlusher

__all__ = ["IndexRenderer", "MemoryRepo", "Snapshot"]

Changes = dict[str, bytes | None]

#: Renders MEMORY.md for the memories of a repository at a commit (None: already right).
#: It needs the rules, so the layers that know them pass one in (``dream.reindex.renderer``).
IndexRenderer = Callable[["MemoryRepo", str], bytes | None]


class MemoryRepo(Checkout, RecallFlusher):
    """An agent's memory as a git repository (bare or with a work tree)."""

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | Path, *, index: IndexRenderer | None = None, lean: bool = False
    ) -> MemoryRepo:
        """Open an existing memory repository, on the branch that holds its configuration.

        With ``index``, every write that changes memories rewrites MEMORY.md in the same
        commit (see :meth:`render_index_with`). ``lean``: a bare repository is read and
        written through git's own files where that is exact (``store/leanstore.py``).
        """
        store = _lean_store(Path(path)) if lean else None
        repo = cls(store or gitstore.GitStore.open(Path(path)))
        repo.branch = configured_branch(repo.store)
        repo.render_index_with(index)
        return repo

    def render_index_with(self, index: IndexRenderer | None) -> None:
        """Have every later write that changes memories rewrite MEMORY.md with ``index``
        (None: writes leave MEMORY.md to the next dream)."""
        self.indexer = None if index is None else functools.partial(index, self)

    @classmethod
    def init(
        cls,
        path: str | Path,
        *,
        bare: bool = False,
        now: datetime | None = None,
        format: str | None = None,
    ) -> MemoryRepo:
        """Create a memory repository (or make an existing folder or git repository one).

        What the folder holds is taken in first, byte for byte, on the repository's
        own branch (see :mod:`dreamgit.store.adopt`); then one commit ``init`` adds
        the config naming the format and, for dreamgit's own layout without one, an
        empty index. :attr:`adopted` says what was found.
        """
        path, now = Path(path), now or utcnow()
        check_format(format)
        try:
            store = gitstore.GitStore.open(path)
        except NotARepositoryError:
            store = gitstore.GitStore.init(path, bare=bare)
        repo = cls(store)
        repo.branch = store.head_branch() or layout.MAIN
        if repo.read_text(layout.CONFIG) is not None:
            raise UserError(
                f"{path} is already a dreamgit memory repository",
                hint="use it as it is; `dreamgit status` shows what it holds",
            )
        found, adopted = uncommitted_files(store), None
        with repo._worktree_turn() as worktree:
            if found:
                before = repo.tip()
                listing = "\n".join(f"  {p}" for p in sorted(found))
                message = (
                    f"adopt: {len(found)} file(s) as they were\n\n{listing}\n\n"
                    + tr.trailers((tr.OP, "adopt"))
                )
                # each file with the mode it has, as `git add` would stage it
                modes = store.worktree_modes(found)
                step = repo._commit_step(message, lambda _tip: found, now=now, modes=modes)
                adopted = repo._retry(step)
                if worktree:  # the files are already there: only git's index follows
                    repo._follow_worktree(fallback=before)
        redacted = redacted_paths(store.commit_info(adopted).message) if adopted else {}
        repo.adopted = describe(store, repo.tip(), repo.branch, format, redacted=redacted)
        files: dict[str, bytes | None] = {
            layout.CONFIG: config_text(repo.adopted.format, repo.branch).encode("utf-8")
        }
        if repo.adopted.format == "dreamgit" and repo.read_text(layout.INDEX) is None:
            files[layout.INDEX] = layout.EMPTY_INDEX.encode("utf-8")
        message = "init: dreamgit memory repository\n\n" + tr.trailers((tr.OP, "init"))
        repo.commit_main(message, lambda _tip: files, now=now)
        return repo

    @classmethod
    def open_or_init(
        cls, path: str | Path, *, bare: bool = False, now: datetime | None = None
    ) -> MemoryRepo:
        """Open the memory repository at ``path``, creating it first when it is not one."""
        try:
            repo = cls(gitstore.GitStore.open(Path(path)))
        except NotARepositoryError:
            return cls.init(path, bare=bare, now=now)
        if repo.read_text(layout.CONFIG) is None:
            return cls.init(path, bare=bare, now=now)
        return repo

    def require_initialised(self) -> None:
        """Raise a clear error when this git repository has no dreamgit configuration."""
        if self.read_text(layout.CONFIG) is None:
            where = self.store.workdir or self.store.git_dir
            raise NotARepositoryError(
                f"{where} is a git repository but not a dreamgit memory repository "
                f"(no {layout.CONFIG} on {self.branch})",
                hint=f"run `dreamgit init {where}` first",
            )

    # -- writing -------------------------------------------------------------------------

    def commit_main(
        self,
        message: str | Callable[[], str],
        build: Callable[[str | None], Mapping[str, bytes | None]],
        *,
        now: datetime,
    ) -> str | None:
        """Commit what ``build(tip)`` returns on main by compare-and-swap; None when empty.

        ``build`` is called again with the new tip whenever another writer got
        there first, so the change is always made against what is really there.
        ``message`` may be a function, called after ``build``, when it names
        something ``build`` decided (a new id).
        """
        return self.advance_main(self._commit_step(message, build, now=now), now=now)

    def advance_main(
        self, step: Callable[[str | None], str | None], *, now: datetime
    ) -> str | None:
        """Move main with ``step(tip) -> new tip or None``, retried while it raises StaleTipError.

        Where main is checked out, uncommitted agent edits are committed first
        and the work tree follows afterwards, all under the work-tree lock.
        """
        with self._worktree_turn() as worktree, self._index_turn(worktree):
            if worktree:
                # A writer that died between its commit and the file update left the
                # work tree behind; catch up first, or its change would look like a
                # hand edit and be committed back as one.
                self._follow_worktree(fallback=self.tip())
                self._commit_agent_edits(now)
            before = self.tip()
            self._commit_spooled_recalls(now)
            new = self._retry(step)
            self.wrote = self.wrote or new is not None
            if worktree:
                self._follow_worktree(fallback=before)
            return new


def require_text(value: str | None, *, what: str) -> str:
    """``value`` when given and not blank, else a UserError naming ``what``."""
    if value is None or not value.strip():
        raise UserError(f"{what} is empty", hint=f"give some text for the {what}")
    return value


def _lean_store(path: Path) -> gitstore.GitStore | None:
    """The lean store for a bare repository (``store/leanstore.py`` decides), None for
    any other: a work tree's command never imports the lean store's code (~2 ms)."""
    head = read_head(path)
    if head is None or not says_bare(head.git_dir):
        return None
    from dreamgit.store.leanstore import lean_store

    return lean_store(path)
