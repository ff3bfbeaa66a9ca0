"""Bringing a dream branch into main: fast-forward or a three-way merge, by compare-and-swap.

Main moves only if it still points where it was read; when another writer got
there first the merge is recomputed against the new tip. A merge that would
conflict changes nothing and names the paths, and the dream branch stays for a
person to look at. ``dreamgit run`` and ``dreamgit merge RUN`` both come here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from dreamgit import faults
from dreamgit.errors import ConflictError
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["Finish", "MergeOutcome", "merge_branch"]


@dataclass(frozen=True)
class MergeOutcome:
    """How the branch reached main: ``fast-forward``, ``merge`` or ``already``."""

    how: str
    main: str


#: Last changes to what the merge brings: (a commit holding the result, how) → files.
Finish = Callable[[str, str], Mapping[str, bytes | None]]


def merge_branch(
    repo: MemoryRepo,
    branch: str,
    *,
    message: str,
    now: datetime,
    base: str | None = None,
    finish: Finish | None = None,
    finish_message: str = "",
) -> MergeOutcome:
    """Merge ``branch`` into main; ConflictError (nothing changed) when it cannot be clean.

    ``base`` is the main tip the branch was made from: when main no longer holds it
    (history was rewritten, a forced push dropped commits), merging would bring
    back what was removed, so nothing is merged and the branch stays.

    ``finish`` may change files of the result in the same move of main: inside the
    merge commit, or for a fast-forward in one commit on top of the branch
    (``finish_message``), so main never shows the result without them.
    """
    store = repo.store
    tip = store.tip(branch)
    if tip is None:
        raise ConflictError(f"branch {branch} does not exist", paths=[])
    outcome: list[MergeOutcome] = []

    def step(main: str | None) -> str | None:
        if base is not None:
            _refuse_if_rewritten(repo, branch, base=base, main=main)
        if main is not None and store.is_ancestor(tip, main):
            outcome[:] = [MergeOutcome("already", main)]
            return None
        if main is None or store.is_ancestor(main, tip):
            new = tip
            changes = finish(tip, "fast-forward") if finish is not None else {}
            if changes:
                new = store.commit_unreferenced(
                    parents=[tip],
                    tree=store.build_tree(tip, changes),
                    message=finish_message,
                    who=repo.identity(),
                    when=now,
                )
            faults.checkpoint("merge-ref-update")
            store.move_branch(repo.branch, new=new, expected=main, message=message)
            outcome[:] = [MergeOutcome("fast-forward", new)]
            return new
        tree = _merged_tree(repo, branch, main, tip, message=message, now=now, finish=finish)
        faults.checkpoint("merge-ref-update")
        new = store.commit(
            repo.branch,
            parents=[main, tip],
            tree=tree,
            message=message,
            who=repo.identity(),
            when=now,
        )
        outcome[:] = [MergeOutcome("merge", new)]
        return new

    repo.advance_main(step, now=now)
    return outcome[0]


def _refuse_if_rewritten(repo: MemoryRepo, branch: str, *, base: str, main: str | None) -> None:
    """ConflictError when main no longer holds ``base``, the tip ``branch`` was made from."""
    if main is not None and repo.store.is_ancestor(base, main):
        return
    raise ConflictError(
        f"{repo.branch} was rewritten since {branch} was made from it "
        f"(it no longer holds {base[:12]}); nothing was merged and the branch is kept",
        paths=[],
        hint=f"see what {branch} would bring back with `git log {repo.branch}..{branch}`; "
        f"drop it with `{_discard(branch)}` and dream again on the new {repo.branch}",
    )


def _merged_tree(
    repo: MemoryRepo,
    branch: str,
    main: str,
    tip: str,
    *,
    message: str,
    now: datetime,
    finish: Finish | None,
) -> str:
    """The three-way merge of main and ``tip``, its index rendered and ``finish`` applied;
    ConflictError (nothing changed) when it cannot be clean."""
    store = repo.store
    tree, conflicts = store.merge(main, tip, ours_wins=_generated(repo, main))
    if tree is None:
        raise ConflictError(
            f"{branch} conflicts with {repo.branch}; nothing was changed and the branch is kept",
            paths=conflicts,
            hint=f"look at it with `git log {repo.branch}..{branch}`, then merge by hand "
            f"or drop it with `{_discard(branch)}`",
        )
    # Both sides may have rewritten the index; it is rendered for the merged memories.
    tree = repo.with_index(tree, None, parents=[main, tip], now=now)
    if finish is not None:
        probe = store.commit_unreferenced(
            parents=[main, tip], tree=tree, message=message, who=repo.identity(), when=now
        )
        changes = finish(probe, "merge")
        tree = store.build_tree(probe, changes) if changes else tree
    return tree


def _discard(branch: str) -> str:
    """The command that drops a dream branch (its sessions become pending again)."""
    return f"dreamgit discard {branch.removeprefix(layout.DREAM_BRANCH_PREFIX)}"


#: The first line of the files dreamgit writes (``dream.index.GENERATED_MARKER``).
_GENERATED_PREFIX = "<!-- dreamgit:generated"


def _generated(repo: MemoryRepo, main: str) -> tuple[str, ...]:
    """MEMORY.md when both sides' versions may give way to a fresh rendering.

    Only with an indexer to render it, and only when main's index is dreamgit's
    own: an index someone wrote by hand still conflicts, for a person to settle.
    """
    if repo.indexer is None:
        return ()
    text = repo.read_text(layout.INDEX, main)
    if text is not None and not text.lstrip("\ufeff").startswith(_GENERATED_PREFIX):
        return ()
    return (layout.INDEX,)
