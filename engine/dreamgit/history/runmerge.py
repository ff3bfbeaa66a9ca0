"""``merge RUN``: bring a reviewed dream branch into main, then delete the branch.

The branch is merged three-way by :func:`dreamgit.history.mainmerge.merge_branch`, so
main may have moved since the dream ran (agent writes, other runs). A conflict
changes nothing and keeps the branch. Only a finished run is merged: a branch
without its run record is what a crash left, and would bring half a dream in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dreamgit import trailers as tr
from dreamgit.errors import UserError
from dreamgit.history.branches import foreign_commits
from dreamgit.history.mainmerge import merge_branch
from dreamgit.history.runs import ABANDONED, find_run
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["DiaryNote", "RunMergeOutcome", "merge_run"]


@dataclass(frozen=True)
class RunMergeOutcome:
    """How the run reached main (``fast-forward``, ``merge``, ``already``) and main's tip."""

    run_id: str
    branch: str
    how: str
    main: str | None
    branch_deleted: bool

    def to_json(self) -> dict[str, Any]:
        """The outcome as ``merge --json`` prints it."""
        return {
            "run_id": self.run_id,
            "branch": self.branch,
            "merge": self.how,
            "main": self.main,
            "branch_deleted": self.branch_deleted,
        }


#: The diary after the merge: (DREAMS.md, run id, how) → the new text, or None to keep it.
DiaryNote = Callable[[str, str, str], str | None]


def merge_run(
    repo: MemoryRepo, ident: str, *, now: datetime, diary: DiaryNote | None = None
) -> RunMergeOutcome:
    """Merge run ``ident``'s dream branch into main; ConflictError changes nothing.

    ``diary`` rewrites the run's DREAMS.md entry (it was written on the branch,
    "left for review") in the same move of main as the merge.
    """
    run = find_run(repo, ident)
    if run.branch is None or run.branch_tip is None:
        # On main and its branch gone: merged before (by `run`, or `merge`, or a pull).
        return RunMergeOutcome(run.run_id, f"dream/{run.run_id}", "already", repo.tip(), False)
    if run.status == ABANDONED:
        # discard drops a branch of the run's own commits; someone's commit keeps it from that.
        mixed = foreign_commits(repo, run.branch_tip, run.run_id)
        drop = f"git branch -D {run.branch}" if mixed else f"dreamgit discard {run.run_id}"
        raise UserError(
            f"{run.branch} has no run record: that dream did not finish, so it is not merged",
            hint=f"drop it with `{drop}` and run the dream again",
        )
    count = sum(1 for op in run.ops if op.get("op") != "diary")
    message = (
        f"dream: merge {run.branch} ({count} operations)\n\n"
        + tr.trailers((tr.RUN, run.run_id), (tr.OP, "merge-run"))
        + "\n"
    )
    base = run.record.get("base")
    finish = None
    if diary is not None:
        note = diary

        def finish(commit: str, how: str) -> dict[str, bytes | None]:
            text = repo.read_text(layout.DIARY, commit)
            marked = None if text is None else note(text, run.run_id, how)
            return {} if marked is None else {layout.DIARY: marked.encode("utf-8")}

    outcome = merge_branch(
        repo,
        run.branch,
        message=message,
        now=now,
        base=base if isinstance(base, str) else None,
        finish=finish,
        finish_message=f"diary: run {run.run_id} merged after review\n\n"
        + tr.trailers((tr.RUN, run.run_id), (tr.OP, "diary"))
        + "\n",
    )
    deleted = repo.store.delete_branch(run.branch, expected=run.branch_tip)
    return RunMergeOutcome(run.run_id, run.branch, outcome.how, repo.tip(), deleted)
