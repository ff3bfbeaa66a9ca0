"""Permissions of work-tree files: kept by a file renamed over another, read as git's mode.

Written aside, a file has the default permissions, so an executable renamed over would lose
its bit: an agent's script under the memory folder, or a memory file committed as 100755,
would change mode in the work tree (and in git's status) though only its text was meant to.
A file an agent writes is committed with the mode git gives it (``git_mode``): an
executable's when its owner may run it, as ``git add`` stages it. No pygit2 here: the
lean store's paths (a bare repository's ``add``) import it too.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from dreamgit.gitstore.treefolder import EXECUTABLE, FILE

__all__ = ["git_mode", "keep_permissions", "owner_may_run"]


def git_mode(path: Path) -> bytes | None:
    """The mode git stages the file at ``path`` with (``100755`` when its owner may run it,
    else ``100644``, as a tree object spells them), or None when it is no regular file:
    a symlink (never followed), a folder, something else, or nothing."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if not stat.S_ISREG(mode):
        return None
    return EXECUTABLE if owner_may_run(mode) else FILE


def owner_may_run(mode: int) -> bool:
    """Whether git takes a regular file of ``mode`` (``st_mode``) for an executable: when
    its owner may run it, whatever the group's and others' bits (git's and libgit2's rule)."""
    return bool(mode & stat.S_IXUSR)


def keep_permissions(written: Path, replaced: Path) -> None:
    """Give ``written``, about to be renamed over ``replaced``, the permissions of
    ``replaced`` when it is a regular file (a symlink's own bits say nothing: the
    default ones are kept, as when nothing is replaced)."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(replaced).st_mode
        if stat.S_ISREG(mode):
            os.chmod(written, stat.S_IMODE(mode))
