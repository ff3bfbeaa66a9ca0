"""Pushing a dream branch to a remote with the ``git`` program.

pygit2 needs credential callbacks for pushing; the ``git`` program already has
the user's credential helper, SSH agent and, in GitHub Actions, the token that
``actions/checkout`` configured, so pushing goes through it.
"""

from __future__ import annotations

import shutil
import subprocess

from dreamgit.errors import UserError
from dreamgit.store.repo import MemoryRepo

__all__ = ["delete_remote_branch", "push_branch"]


def push_branch(repo: MemoryRepo, branch: str, *, remote: str) -> None:
    """Push ``branch`` to the same name on ``remote``; a failure says what git said."""
    git = shutil.which("git")
    if git is None:
        raise UserError(
            "pushing needs the git program, which is not on PATH",
            hint="install git, or push the branch yourself",
        )
    ref = f"refs/heads/{branch}"
    result = subprocess.run(
        [git, "--git-dir", str(repo.store.git_dir), "push", "--quiet", remote, f"{ref}:{ref}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise UserError(
            f"git push {remote} {branch} failed: {result.stderr.strip() or result.stdout.strip()}",
            hint="check the remote's name and your credentials; the branch is still here "
            "to push again",
        )


def delete_remote_branch(repo: MemoryRepo, branch: str, *, remote: str, expected: str) -> bool:
    """Delete ``branch`` on ``remote`` only while it still points at ``expected``.

    For a dream branch a newer run replaced: its pull request closes with it. When
    someone pushed to it meanwhile (or it is not there), git's lease refuses and
    the branch stays; False then, and nothing was changed.
    """
    git = shutil.which("git")
    if git is None:
        return False
    ref = f"refs/heads/{branch}"
    result = subprocess.run(
        [
            git,
            "--git-dir",
            str(repo.store.git_dir),
            "push",
            "--quiet",
            f"--force-with-lease={ref}:{expected}",
            remote,
            f":{ref}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode == 0
