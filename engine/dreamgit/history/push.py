"""Pushing a dream branch to a remote with the ``git`` program.

pygit2 needs credential callbacks for pushing; the ``git`` program already has
the user's credential helper, SSH agent and, in GitHub Actions, the token that
``actions/checkout`` configured, so pushing goes through it.
"""

from __future__ import annotations

import shutil
import subprocess

from dreamgit.errors import SecretFoundError, UserError
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.secrets import scan_text

__all__ = ["push_branch"]


def push_branch(repo: MemoryRepo, branch: str, *, remote: str) -> None:
    """Push ``branch`` to the same name on ``remote``; a failure says what git said."""
    git = shutil.which("git")
    if git is None:
        raise UserError(
            "pushing needs the git program, which is not on PATH",
            hint="install git, or push the branch yourself",
        )
    ref = f"refs/heads/{branch}"
    _refuse_secrets(repo, branch, remote=remote)
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


def _refuse_secrets(repo: MemoryRepo, branch: str, *, remote: str) -> None:
    """Scan what the push would send (commits the remote's branch lacks) for credentials.

    dreamgit scans every commit it makes; this catches what a plain ``git commit``
    brought in. A hit stops the push in every mode: once pushed, only a rewrite of
    the remote's history (``dreamgit redact``) takes a secret back.
    """
    store = repo.store
    tip = store.tip(branch)
    if tip is None:
        return
    for info in store.walk(tip, hide=store.remote_tips(remote)):
        for change in store.changed_paths(info.id):
            data = store.read_path(info.id, change.path)
            if data is None:
                continue
            found = scan_text(data.decode("utf-8", errors="replace"), path=change.path)
            if found:
                raise SecretFoundError(
                    f"not pushed: commit {info.id[:10]} adds what looks like a credential "
                    f"at {found[0].where()}",
                    hint=f"take it out of history first (`dreamgit redact --match TEXT`), "
                    f"then push {branch} again",
                )
