"""Opening the memory repository for a command that may write, and what it says after.

``open_repo`` opens the repository ``--repo`` names with MEMORY.md following every
write that changes memories, and when the command ends names the edits a write left
out, the leftover branches it removed and the git hooks its commits did not run. Kept
apart from the everyday commands so a command that only logs (the Claude Code
session-end hook) does not import what they need (operations, the secret scanner).
click is not imported here either: a hook's command line runs without it, and where
click was never imported no command of it is running, so there is nothing to report to.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dreamgit.store.layout import REVERT_SCRATCH, hooks_note
from dreamgit.store.repo import IndexRenderer, MemoryRepo

if TYPE_CHECKING:
    import click

    from dreamgit.cli.state import CliState

__all__ = ["open_repo", "open_repo_at", "report_left_out"]


def open_repo(state: CliState) -> MemoryRepo:
    """The memory repository named by --repo, checked to be one."""
    return open_repo_at(state.path, state.now())


def open_repo_at(path: Path, now: datetime, *, lean: bool = False) -> MemoryRepo:
    """The memory repository at ``path``, checked to be one, MEMORY.md rendered at ``now``;
    under a click command, what its writes left out is said when the command ends.
    ``lean``: see ``MemoryRepo.open``."""
    repo = MemoryRepo.open(path, index=_render_index(now), lean=lean)
    repo.require_initialised()
    context = _click_context()
    if context is not None:
        context.call_on_close(lambda: report_left_out(repo))
    return repo


def _click_context() -> click.Context | None:
    """The running click command's context; None outside one (click never imported)."""
    loaded = sys.modules.get("click")
    return None if loaded is None else loaded.get_current_context(silent=True)


def report_left_out(repo: MemoryRepo) -> None:
    """Name the edited files a write left uncommitted because they do not read, and the
    scratch branches of killed reverts it removed (and the hooks its commits skipped)."""
    _note_hooks(repo)
    if not (repo.removed_leftovers or repo.left_out):
        return
    from dreamgit.cli.render import warn  # click's echo: only when there is a word to say

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
    context = _click_context()
    said = context.meta if context is not None else {}
    if not repo.wrote or said.get("dreamgit.hooks-noted") or repo.config().get("hooks") == "quiet":
        return
    hooks = repo.store.commit_hooks()
    if hooks:
        from dreamgit.cli.render import warn

        warn(hooks_note(hooks))
        said["dreamgit.hooks-noted"] = True


def _render_index(now: datetime) -> IndexRenderer:
    """MEMORY.md follows every write that changes memories (loaded only when one does)."""

    def render(repo: MemoryRepo, commit: str) -> bytes | None:
        from dreamgit.dream.reindex import index_bytes

        return index_bytes(repo, commit, now=now)

    return render
