"""Dream branches left open for review: the sessions they hold, and who may remove them.

A run made with ``--no-merge`` leaves ``dream/<run-id>`` for a person to review.
Until it is merged or discarded that branch owns the sessions it gathered: the
gate does not count them again, and the next dream either replaces the branch
(a new branch from main holding the old sessions and the new ones) or, when a
person committed to the old branch, leaves it and its sessions alone. A branch
is only ever removed by dreamgit when every commit on it since main is one of
its own run's commits; anything else is someone's work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamgit import trailers as tr
from dreamgit.errors import UserError
from dreamgit.gitstore import CommitInfo
from dreamgit.history.runrecords import read_runs
from dreamgit.history.runs import AWAITING, MERGED, REFUSED, REVERTED, UNMERGED, find_run
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = [
    "DiscardOutcome",
    "OpenBranch",
    "discard_run",
    "foreign_commits",
    "held_sessions",
    "review_branches",
]


@dataclass(frozen=True)
class OpenBranch:
    """A finished dream branch awaiting review, and what is on it."""

    name: str
    tip: str
    run_id: str
    sessions: tuple[str, ...]
    #: Commits on the branch since main that its run did not make (a person's work).
    foreign: tuple[CommitInfo, ...]

    @property
    def replaceable(self) -> bool:
        """True when only the run's own commits are on it, so a newer dream may replace it."""
        return not self.foreign


def foreign_commits(
    repo: MemoryRepo, tip: str, run_id: str, *, base: str | None = None
) -> list[CommitInfo]:
    """Commits between main (or the run's ``base``) and ``tip`` without the run's trailer.

    Dream branches are linear, so the first-parent chain down to main holds every
    commit of the run; a merge commit someone made on the branch is itself foreign.
    The commits below ``base`` (main as the run found it) were never the branch's
    own, even when a rewrite of main dropped them since.
    """
    main = repo.tip()
    found = []
    for info in repo.store.walk(tip, first_parent=True):
        if info.id == base or (main is not None and repo.store.is_ancestor(info.id, main)):
            break
        if tr.parse_trailers(info.message).get(tr.RUN) != run_id or len(info.parents) > 1:
            found.append(info)
    return found


def review_branches(repo: MemoryRepo) -> list[OpenBranch]:
    """Finished dream branches left for review (``--no-merge``) that main does not hold."""
    main = repo.tip()
    found = []
    for name, tip in sorted(repo.store.branches(layout.DREAM_BRANCH_PREFIX).items()):
        if main is not None and repo.store.is_ancestor(tip, main):
            continue
        run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
        record = next((r for r in read_runs(repo.store, tip) if r.get("run_id") == run_id), None)
        if record is None or record.get("merge_requested", True):
            continue  # a crashed run, or one whose merge is still to be finished
        sessions = tuple(str(s) for s in record.get("sessions", []))
        foreign = tuple(foreign_commits(repo, tip, run_id))
        found.append(OpenBranch(name, tip, run_id, sessions, foreign))
    return found


def held_sessions(repo: MemoryRepo) -> set[str]:
    """Sessions that dream branches awaiting review already gathered."""
    return {s for branch in review_branches(repo) for s in branch.sessions}


@dataclass(frozen=True)
class DiscardOutcome:
    """The branch ``discard`` deleted, and the sessions that are pending again."""

    run_id: str
    branch: str
    sessions: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The outcome as ``discard --json`` prints it."""
        return {"run_id": self.run_id, "branch": self.branch, "sessions": list(self.sessions)}


def discard_run(repo: MemoryRepo, ident: str) -> DiscardOutcome:
    """Delete an unmerged run's dream branch; its sessions become pending again.

    Refuses a run that is on main (that is what ``revert`` is for) and a branch
    someone committed to (their work would go with it).
    """
    run = find_run(repo, ident)
    if run.status in (MERGED, REVERTED) or run.branch is None or run.branch_tip is None:
        raise UserError(
            f"run {run.run_id} is merged into main: there is no branch to discard",
            hint=f"undo it with `dreamgit revert {run.run_id}`",
        )
    base = run.record.get("base")
    foreign = foreign_commits(
        repo, run.branch_tip, run.run_id, base=base if isinstance(base, str) else None
    )
    if foreign:
        first = foreign[0]
        raise UserError(
            f"{run.branch} has {len(foreign)} commit(s) the dream did not make "
            f"(newest {first.id[:12]} by {first.author}: {first.subject!r}); not discarded",
            hint=f"merge it with `dreamgit merge {run.run_id}`, or delete it yourself with "
            f"`git branch -D {run.branch}` if that work may go",
        )
    sessions: tuple[str, ...] = ()
    if run.status in (AWAITING, UNMERGED, REFUSED):
        sessions = tuple(str(s) for s in run.record.get("sessions", []))
    if not repo.store.delete_branch(run.branch, expected=run.branch_tip):
        # It moved meanwhile (a commit, a merge, a deletion): judge it again as it is now.
        return discard_run(repo, ident)
    return DiscardOutcome(run.run_id, run.branch, sessions)
