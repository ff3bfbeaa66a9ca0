"""A file written aside and renamed over another keeps the other's permissions.

Written aside, a file has the default permissions, so an executable renamed over would lose
its bit: an agent's script under the memory folder, or a memory file committed as 100755,
would change mode in the work tree (and in git's status) though only its text was meant to.
No pygit2 here: the lean store's paths (a bare repository's ``add``) import it too.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

__all__ = ["keep_permissions"]


def keep_permissions(written: Path, replaced: Path) -> None:
    """Give ``written``, about to be renamed over ``replaced``, the permissions of
    ``replaced`` when it is a regular file (a symlink's own bits say nothing: the
    default ones are kept, as when nothing is replaced)."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(replaced).st_mode
        if stat.S_ISREG(mode):
            os.chmod(written, stat.S_IMODE(mode))
