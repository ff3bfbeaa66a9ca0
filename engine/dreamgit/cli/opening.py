"""Opening the memory repository for a command that may write, and what it says after.

``open_repo`` opens the repository ``--repo`` names with MEMORY.md following every
write that changes memories, and when the command ends names the edits a write left
out, the leftover branches it removed and the git hooks its commits did not run. Kept
apart from the everyday commands so a command that only logs (the Claude Code
session-end hook) does not import what they need (operations, the secret scanner).
"""

from __future__ import annotations

from datetime import datetime

import click

from dreamgit.cli.render import warn
from dreamgit.cli.state import CliState
from dreamgit.store.layout import REVERT_SCRATCH, hooks_note
from dreamgit.store.repo import IndexRenderer, MemoryRepo

__all__ = ["open_repo"]


def open_repo(state: CliState) -> MemoryRepo:
    """The memory repository named by --repo, checked to be one."""
    repo = MemoryRepo.open(state.path, index=_render_index(state.now()))
    repo.require_initialised()
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(lambda: _report_left_out(repo))
    return repo


def _report_left_out(repo: MemoryRepo) -> None:
    """Name the edited files a write left uncommitted because they do not read, and the
    scratch branches of killed reverts it removed."""
    _note_hooks(repo)
    for branch in repo.removed_leftovers:
        run = branch.removeprefix(REVERT_SCRATCH)
        warn(
            f"removed branch {branch}, left by a revert of {run} that was stopped before it "
            f"finished; main never had its commits (run `dreamgit revert {run}` again)"
        )
    for problem in repo.left_out:
        hint = f"\nhint: {problem.hint}" if problem.hint else ""
        warn(f"{problem.message}; left uncommitted, as written, until it reads{hint}")


def _note_hooks(repo: MemoryRepo) -> None:
    """Say once, after a command that committed, which git hooks its commits did not run."""
    context = click.get_current_context(silent=True)
    said = context.meta if context is not None else {}
    if not repo.wrote or said.get("dreamgit.hooks-noted") or repo.config().get("hooks") == "quiet":
        return
    hooks = repo.store.commit_hooks()
    if hooks:
        warn(hooks_note(hooks))
        said["dreamgit.hooks-noted"] = True


def _render_index(now: datetime) -> IndexRenderer:
    """MEMORY.md follows every write that changes memories (loaded only when one does)."""

    def render(repo: MemoryRepo, commit: str) -> bytes | None:
        from dreamgit.dream.reindex import index_bytes

        return index_bytes(repo, commit, now=now)

    return render
