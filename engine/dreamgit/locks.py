"""Advisory file locks in the git directory, so writers of a work tree take turns.

Branch updates are already safe by compare-and-swap; these locks only order
the steps around a checked-out work tree (commit agent edits, advance the
branch, update the files) and keep two dreams from running at once.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dreamgit.errors import UserError

__all__ = ["exclusive", "try_exclusive"]


def _open(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the lock file at ``path``, waiting for it; released on exit or crash."""
    fd = _open(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextmanager
def try_exclusive(path: Path, *, busy: str) -> Iterator[None]:
    """Hold the lock at ``path`` or raise a UserError with ``busy`` when another holds it."""
    fd = _open(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(busy, hint="wait for it to finish, then run again") from None
        yield
    finally:
        os.close(fd)
