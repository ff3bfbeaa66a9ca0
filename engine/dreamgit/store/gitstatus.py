"""Whether git's own status finds nothing under some paths of a work tree; None when it
cannot say.

The lean status (``store/leanworktree.py``) must know that every file under the agent's
paths is the staged one and that no other file lies there. Looking at 10,000 files from
Python (a ``stat`` each, a listing of each folder) costs ~80 ms of CPU; git's ``status``
does the same looking in C for a fraction of it, and it is the reference for what an
edit is. This asks it, restricted to those paths (literal pathspecs), in the given git
directory and work tree whatever the environment says (git's variables that point it
elsewhere or add configuration are dropped), taking no lock and writing nothing
(``--no-optional-locks``), with no file-system monitor (a hook of the user's), listing
untracked and ignored files one by one and staged changes as well. Any line of output
is something there: False, and so is a HEAD at another commit than the one asked about
(``--branch`` names it). No git on ``PATH``, a git too old for these options, a
repository git refuses (another owner), a failure or a timeout: None, and the caller
looks at the files itself. Nothing is written. git can be started first and asked
for its answer later (:func:`start_git_status`): its looking at the files, in a process
of its own, then runs while the caller does other work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["GitStatus", "clean_by_git", "start_git_status"]

#: Git's own variables that keep their meaning here: which configuration files it reads
#: (as the lean status's own check of the configuration does) and where its programs are.
_KEPT = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_EXEC_PATH")
#: Longer than this, git is stuck (a lock on a network file system): the files answer.
_TIMEOUT_S = 10.0


def clean_by_git(
    git_dir: Path, work_tree: Path, paths: tuple[str, ...], commit: str
) -> bool | None:
    """True when HEAD is at ``commit`` and git's status lists nothing under ``paths``
    (``memories/`` a folder, ``MEMORY.md`` a file) in ``work_tree`` — no edit, no change
    staged against that commit, no untracked or ignored file —, False when HEAD is
    elsewhere or git lists something, None when git cannot be asked."""
    started = start_git_status(git_dir, work_tree, paths, commit)
    return None if started is None else started.answer()


class GitStatus:
    """git's status of some paths, running: :meth:`answer` waits for it and says what
    :func:`clean_by_git` says."""

    def __init__(self, process: subprocess.Popen[bytes], commit: str) -> None:
        self._process, self._commit = process, commit
        self._answer: bool | None = None
        self._done = False

    def answer(self) -> bool | None:
        """What git found (waited for once; asked again, the same answer)."""
        if not self._done:
            self._done = True
            self._answer = self._wait()
        return self._answer

    def _wait(self) -> bool | None:
        process = self._process
        try:
            out, _err = process.communicate(timeout=_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError):
            process.kill()
            process.communicate()
            return None
        if process.returncode != 0:
            return None
        items = out.split(b"\0")
        headers = [item for item in items if item.startswith(b"# ")]
        if f"# branch.oid {self._commit}".encode() not in headers:
            return False  # HEAD moved (or an output this does not read): not that commit
        return all(item.startswith(b"# ") or not item for item in items)


def start_git_status(
    git_dir: Path, work_tree: Path, paths: tuple[str, ...], commit: str
) -> GitStatus | None:
    """git's status of ``paths`` in ``work_tree`` against ``commit``, started (None when
    git cannot be started: not on ``PATH``, no paths). Its answer must be asked for
    (:meth:`GitStatus.answer`): that reads what git writes and waits for it to end."""
    git = shutil.which("git")
    if git is None or not paths:
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _KEPT}
    command = [
        git,
        f"--git-dir={git_dir}",
        f"--work-tree={work_tree}",
        "--no-optional-locks",
        "--literal-pathspecs",
        "-c",
        "core.fsmonitor=false",
        "status",
        "--porcelain=v2",
        "-z",
        "--branch",
        "--untracked-files=all",
        "--ignored=matching",
        "--no-renames",
        "--",
        *paths,
    ]
    try:
        process = subprocess.Popen(
            command,
            cwd=work_tree,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return GitStatus(process, commit)
