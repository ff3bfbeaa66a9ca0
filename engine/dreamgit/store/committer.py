"""Committing on main: dreamgit's writers take turns, and every commit is a compare-and-swap.

A commit step builds its change against the tip it is handed, scrubs credentials,
renders MEMORY.md and commits with that tip as the expected parent; the retry loop
runs the step again on the new tip whenever another writer got there first. The
writers' turn lets dreamgit's own writers through one at a time.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime

from dreamgit import trailers as tr
from dreamgit.errors import ConcurrentUpdateError
from dreamgit.gitstore import Identity, StaleTipError
from dreamgit.gitstore.locks import exclusive
from dreamgit.store.indexing import tree_with_index
from dreamgit.store.layout import REVERT_SCRATCH
from dreamgit.store.reader import RepoReader

__all__ = ["Committer", "with_trailers"]


#: How often a commit is built again on the branch's new tip before the writer gives up
#: (ConcurrentUpdateError); with the short pauses between attempts, seconds of a busy branch.
#: The test of giving up shortens it.
COMMIT_ATTEMPTS = 200


class Committer(RepoReader):
    """A memory repository's writers' turn and its compare-and-swap commits on main."""

    @contextmanager
    def _worktree_turn(self) -> Iterator[bool]:
        """Take the writers' turn on main; yields whether main is checked out in a work tree.

        Compare-and-swap alone keeps every commit, but a slow step (a dream's
        three-way merge) could lose the race to a fast writer again and again;
        taking turns lets dreamgit's own writers through one at a time, while
        the compare-and-swap still guards against any other git writer.
        """
        with self.writers_turn():
            yield self.store.checked_out_branch() == self.branch

    @contextmanager
    def _index_turn(self, worktree: bool) -> Iterator[None]:
        """Hold git's index lock where main is checked out (see ``GitStore.index_locked``)."""
        if not worktree:
            yield
            return
        with self.store.index_locked():
            yield

    #: Scratch branches of killed reverts this process removed (``revert_leftovers``).
    removed_leftovers: tuple[str, ...] = ()
    #: Whether this process committed anything (the git-hooks note is said only then).
    wrote: bool = False

    @contextmanager
    def writers_turn(self) -> Iterator[None]:
        """Hold the writers' turn: dreamgit's other writers of this repository wait meanwhile.

        A revert builds its commits on a scratch branch only while it holds this turn,
        so a scratch branch seen here was left by a revert that was killed: it is
        removed (its commits never reached main, so nothing is lost).
        """
        with exclusive(self.store.git_dir / "dreamgit" / "writers.lock"):
            self._drop_revert_leftovers()
            yield

    def _drop_revert_leftovers(self) -> None:
        for branch, tip in self.store.branches(REVERT_SCRATCH).items():
            if self.store.delete_branch(branch, expected=tip):
                self.removed_leftovers = (*self.removed_leftovers, branch)

    def _commit_step(
        self,
        message: str | Callable[[], str],
        build: Callable[[str | None], Mapping[str, bytes | None]],
        *,
        now: datetime,
        author: Identity | None = None,
        modes: Mapping[str, bytes] | None = None,
    ) -> Callable[[str | None], str | None]:
        """A commit of ``build``'s changes on the tip it is handed (``modes``: the mode of
        a written path whose work-tree file gives one, see ``treefolder.written_mode``)."""

        def step(tip: str | None) -> str | None:
            changes = build(tip)
            if not changes:
                return None
            # Imported once there is something to commit: compiling its patterns costs
            # ~100 ms, which readers (recall from an agent's hook on every prompt) and a
            # write with nothing new (the session-end hook after PreCompact) never need.
            from dreamgit.store.secrets import findings_trailers, scrub, scrub_message

            mode = self.secrets_mode()
            changes, found = scrub(changes, mode, taken=self._taken_at(tip))
            tree = self.store.build_tree(tip, changes, modes)
            tree = self.with_index(tree, changes, parents=[tip] if tip else [], now=now)
            if tip is not None and tree == self.store.tree_id(tip):
                return None
            text = message if isinstance(message, str) else message()
            return self.store.commit(
                self.branch,
                parents=[tip] if tip else [],
                tree=tree,
                message=with_trailers(scrub_message(text, mode), findings_trailers(found)),
                who=self.identity(),
                when=now,
                author=author,
            )

        return step

    def _taken_at(self, tip: str | None) -> Callable[[str], bool]:
        """Whether a path is a file at ``tip`` (where a file named with a secret must not go)."""
        return lambda path: tip is not None and self.store.read_path(tip, path) is not None

    def with_index(
        self,
        tree: str,
        changes: Mapping[str, bytes | None] | None,
        *,
        parents: Sequence[str],
        now: datetime,
    ) -> str:
        """``tree`` with MEMORY.md rendered for its memories (see ``store.indexing``).

        The index repeats titles and hooks of every memory, a hand-written one that
        git took in unscanned included: it is redacted as it is rendered.
        """
        fmt = self.format
        indexer = self.indexer
        if indexer is not None and self.secrets_mode() != "off":
            from dreamgit.store.secrets import redact_bytes

            render = indexer

            def indexer(commit: str) -> bytes | None:
                index = render(commit)
                return None if index is None else redact_bytes(index)

        return tree_with_index(
            self.store,
            indexer,
            tree,
            changes=changes,
            parents=parents,
            who=self.identity(),
            when=now,
            index_path=fmt.index_path if fmt.index_style else "",
            is_memory=fmt.memory_path,
        )

    def _retry(self, step: Callable[[str | None], str | None]) -> str | None:
        jitter = random.Random(os.getpid())
        for attempt in range(COMMIT_ATTEMPTS):
            try:
                return step(self.tip())
            except StaleTipError:
                time.sleep(jitter.uniform(0, min(0.002 * (attempt + 1), 0.05)))
        raise ConcurrentUpdateError(
            f"{self.branch} kept moving while this change was being written",
            hint="other writers are very busy; run the command again",
        )


def with_trailers(message: str, trailers: str) -> str:
    """``message`` with more ``Dream-*`` trailer lines joined to its trailer paragraph."""
    if not trailers:
        return message
    body = message.rstrip("\n")
    last = body.rsplit("\n\n", 1)[-1]
    joined = "\n" if "\n\n" in body and last.startswith(tr.PREFIX) else "\n\n"
    return f"{body}{joined}{trailers}"
