"""Which commit the branch HEAD names is at, read from git's own files without libgit2.

Opening a repository through pygit2 costs ~80 ms of imports before anything is read:
more than a whole recall that answers from the derived store. That recall needs only
the commit HEAD's branch is at: ``HEAD`` holds ``ref: refs/heads/NAME`` and the branch
is a file under ``refs/heads/`` or a line of ``packed-refs`` (a loose file wins, as in
git). Anything else is a doubt and answers None, so the caller takes the full path: a
detached HEAD, a linked work tree (``.git`` is a file, or the git directory names a
``commondir``), a reftable, a branch that is itself symbolic, an odd or unreadable file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

__all__ = ["Head", "read_head"]

_BRANCH_REF = "ref: refs/heads/"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class Head(NamedTuple):
    """A repository's git directory, the branch HEAD names and the commit it is at."""

    git_dir: Path
    branch: str
    commit: str


def read_head(folder: Path) -> Head | None:
    """HEAD's branch and commit in the repository at ``folder`` (its work tree or its git
    directory, as ``GitStore.open`` takes it), or None on any doubt. The git directory is
    absolute, as a file URI needs it, whatever folder the command was started from."""
    git_dir = _git_dir(folder.absolute())
    if git_dir is None:
        return None
    head = _read(git_dir / "HEAD")
    if head is None or not head.startswith(_BRANCH_REF):
        return None
    branch = head.removeprefix(_BRANCH_REF).rstrip("\n")
    if not _NAME.fullmatch(branch) or ".." in branch or branch.endswith((".lock", "/")):
        return None
    commit = _branch_commit(git_dir, branch)
    return None if commit is None else Head(git_dir, branch, commit)


def _git_dir(folder: Path) -> Path | None:
    dot_git = folder / ".git"
    if dot_git.is_dir():
        found = dot_git
    elif dot_git.exists():
        return None  # a linked work tree: its HEAD and refs live elsewhere
    elif (folder / "HEAD").is_file() and (folder / "objects").is_dir():
        found = folder  # a bare repository, or a git directory named directly
    else:
        return None
    if (found / "commondir").exists():
        return None  # a linked work tree's own git directory
    return found


def _branch_commit(git_dir: Path, branch: str) -> str | None:
    loose = git_dir / "refs" / "heads" / branch
    if loose.exists():
        text = _read(loose) if loose.is_file() else None
        found = None if text is None else text.rstrip("\n")
        return found if found is not None and _OBJECT_ID.fullmatch(found) else None
    packed = _read(git_dir / "packed-refs")
    if packed is None:
        return None
    wanted = f"refs/heads/{branch}"
    for line in packed.splitlines():
        if line.startswith(("#", "^")):
            continue
        object_id, _, name = line.partition(" ")
        if name == wanted:
            return object_id if _OBJECT_ID.fullmatch(object_id) else None
    return None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
