"""Undoing a merged dream: every operation of a run, or one, as revert commits on main.

Each operation commit named in the run's record is reverted newest first, each
revert computed in memory on top of the previous one, starting from main's
current tip, so later runs and agent writes stay. The commits are chained on a
private scratch branch and main then moves once by compare-and-swap: either
every revert lands or none does. A revert killed halfway leaves its scratch
branch; the next command that writes removes it (see ``Committer.writers_turn``).
A conflict changes no ref and no file and names the paths. The diary entry and
the run record stay, as the audit trail (and so the run's sessions are not
gathered again); the index is reverted too when that applies cleanly, else the
next dream rewrites it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit import faults
from dreamgit import trailers as tr
from dreamgit.errors import ConflictError, UserError
from dreamgit.history.runs import AWAITING, REFUSED, UNMERGED, RunInfo, find_run
from dreamgit.store.layout import REVERT_SCRATCH
from dreamgit.store.repo import MemoryRepo

__all__ = ["RevertOutcome", "revert_run"]

SCRATCH_PREFIX = REVERT_SCRATCH


@dataclass
class RevertOutcome:
    """What ``revert`` did: new commits per operation, and what it left alone and why."""

    run_id: str
    #: ``{"n", "op", "commit", "revert"}`` per new commit, in the order committed.
    reverted: list[dict[str, Any]] = field(default_factory=list)
    #: ``{"n", "op", "reason"}`` per operation that got no revert commit, by number.
    skipped: list[dict[str, Any]] = field(default_factory=list)
    main: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The outcome as ``revert --json`` prints it."""
        return {
            "run_id": self.run_id,
            "reverted": self.reverted,
            "skipped": self.skipped,
            "main": self.main,
        }


def revert_message(subject: str, commit: str, run_id: str) -> str:
    """git's revert message with the trailers ``history`` reads."""
    return (
        f'Revert "{subject}"\n\nThis reverts commit {commit}.\n\n'
        + tr.trailers((tr.OP, "revert"), (tr.RUN, run_id), (tr.REVERTS, commit))
        + "\n"
    )


def _targets(run: RunInfo, op: int | None) -> list[dict[str, Any]]:
    ops = [o for o in run.ops if o.get("commit")]
    if op is None:
        return [o for o in ops if o.get("op") != "diary"]
    chosen = [o for o in ops if o.get("n") == op]
    if not chosen:
        numbers = sorted(int(o["n"]) for o in ops)
        listing = f"1 to {numbers[-1]}" if numbers else "none"
        raise UserError(
            f"run {run.run_id} has no operation {op} (its operations: {listing})",
            hint=f"`dreamgit history {run.run_id}` lists them",
        )
    return chosen


def _check_revertible(repo: MemoryRepo, run: RunInfo, targets: list[dict[str, Any]]) -> None:
    if not run.on_main:
        if run.status in (AWAITING, UNMERGED, REFUSED):
            hint = (
                f"accept it with `dreamgit merge {run.run_id}`, or drop it with "
                f"`dreamgit discard {run.run_id}`"
            )
        else:
            hint = f"drop the branch instead: `dreamgit discard {run.run_id}`, and run again"
        raise UserError(
            f"run {run.run_id} is not merged into main ({run.status}); there is nothing to revert",
            hint=hint,
        )
    for op in targets:
        try:
            repo.store.commit_info(str(op["commit"]))
        except (KeyError, ValueError):
            raise UserError(
                f"operation {op['n']} of run {run.run_id} names commit {op['commit']}, "
                "which is not in this repository",
                hint="was the dream branch squashed or rebased when it was merged? "
                "fetch it, or undo the change by hand",
            ) from None


def revert_run(
    repo: MemoryRepo, ident: str, *, op: int | None = None, now: datetime
) -> RevertOutcome:
    """Revert run ``ident`` (or its operation ``op``) on main; ConflictError changes nothing."""
    run = find_run(repo, ident)
    targets = _targets(run, op)
    _check_revertible(repo, run, targets)
    outcome = RevertOutcome(run.run_id)
    pending = []
    for target in sorted(targets, key=lambda o: int(o["n"]), reverse=True):
        n = int(target["n"])
        if n in run.reverted:
            reason = f"already reverted by {run.reverted[n][:12]}"
            outcome.skipped.append({"n": n, "op": target.get("op"), "reason": reason})
        else:
            pending.append(target)
    if pending:
        repo.advance_main(
            _step(repo, run.run_id, pending, outcome, whole=op is None, now=now), now=now
        )
    outcome.skipped.sort(key=lambda s: int(s["n"]))
    outcome.main = repo.tip()
    return outcome


def _step(
    repo: MemoryRepo,
    run_id: str,
    pending: list[dict[str, Any]],
    outcome: RevertOutcome,
    *,
    whole: bool,
    now: datetime,
) -> Callable[[str | None], str | None]:
    store = repo.store
    scratch = f"{SCRATCH_PREFIX}{run_id}"
    already = list(outcome.skipped)  # found before the first attempt; retries start from it

    def drop_scratch() -> None:
        leftover = store.tip(scratch)
        if leftover is not None:
            store.delete_branch(scratch, expected=leftover)

    def step(main: str | None) -> str | None:
        assert main is not None, "a run recorded on main implies main has commits"
        reverted: list[dict[str, Any]] = []
        skipped = list(already)
        drop_scratch()  # left by a crash, or by the previous attempt of this step
        current = main
        try:
            for target in pending:
                n, commit, kind = int(target["n"]), str(target["commit"]), target.get("op")
                tree, conflicts = store.revert(commit, current)
                if tree is None:
                    if whole and kind == "index":
                        reason = "MEMORY.md changed since; the next dream rewrites it"
                        skipped.append({"n": n, "op": kind, "reason": reason})
                        continue
                    raise ConflictError(
                        f"reverting operation {n} of run {run_id} ({commit[:12]}) conflicts "
                        "with later changes; nothing was changed",
                        paths=conflicts,
                        hint="revert the later changes to these files first, or edit them by hand",
                    )
                if tree == store.tree_id(current):
                    skipped.append({"n": n, "op": kind, "reason": "its change is already gone"})
                    continue
                subject = store.commit_info(commit).subject
                current = store.commit(
                    scratch,
                    parents=[current],
                    tree=tree,
                    message=revert_message(subject, commit, run_id),
                    who=repo.identity(),
                    when=now,
                )
                reverted.append({"n": n, "op": kind, "commit": commit, "revert": current})
            if reverted:
                current = _reindex(repo, current, now=now)
                reverted[-1]["revert"] = current
            outcome.reverted, outcome.skipped = reverted, skipped
            if current == main:
                return None
            faults.checkpoint("revert-ref-update")
            store.move_branch(
                repo.branch, new=current, expected=main, message=f"dreamgit: revert {run_id}"
            )
            return current
        finally:
            drop_scratch()

    return step


def _reindex(repo: MemoryRepo, last: str, *, now: datetime) -> str:
    """The last revert commit, remade with MEMORY.md rendered for the memories it leaves.

    The commit is not on any branch yet (main moves to it afterwards), so it is
    replaced rather than followed by a commit of its own.
    """
    store = repo.store
    info = store.commit_info(last)
    old = store.tree_id(last)
    tree = repo.with_index(old, None, parents=list(info.parents), now=now)
    if tree == old:
        return last
    return store.commit_unreferenced(
        parents=list(info.parents), tree=tree, message=info.message, who=repo.identity(), when=now
    )
