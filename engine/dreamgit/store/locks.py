"""Advisory file locks in the git directory, and waiting on git's own lock files.

Branch updates are already safe by compare-and-swap; the advisory locks let
dreamgit's own writers of main take turns (so a slow merge is not starved by a
fast writer), order the steps around a checked-out work tree (commit agent
edits, advance the branch, update the files), and keep two dreams from running
at once. git's lock
files (``main.lock``, ``index.lock``) are waited on with backoff, and one that a
killed writer left behind is recognised and removed.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dreamgit.errors import ConcurrentUpdateError, UserError

__all__ = [
    "break_stale_lock",
    "exclusive",
    "is_lock_error",
    "retry_on_lock",
    "try_exclusive",
]


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


# -- git's own lock files ------------------------------------------------------------


def retry_on_lock(action: str) -> Iterator[int]:
    """Attempt numbers with backoff; ref locks held by another writer clear quickly."""
    for attempt in range(60):
        yield attempt
        time.sleep(min(0.005 * 2**attempt, 0.2))
    raise ConcurrentUpdateError(
        f"{action}: the branch stayed locked by another writer",
        hint="retry; if no other dreamgit runs, remove a stale *.lock under the git directory",
    )


def is_lock_error(exc: Exception) -> bool:
    """Whether a git error says a lock file is in the way."""
    return "lock" in str(exc).lower()


#: A lock file that stays the same this long was left by a writer that died (a live
#: one holds a ref lock for milliseconds), so it is removed and the branch can move.
STALE_LOCK_SECONDS = 2.0
_LOCK_FILE = re.compile(r"'([^']+\.lock)'")
LockSeen = dict[str, tuple[tuple[int, int], float]]


def break_stale_lock(exc: Exception, seen: LockSeen, lock: Path | None = None) -> None:
    """Remove the lock file (``lock``, or the one ``exc`` names) once it sat unchanged long."""
    if lock is None:
        match = _LOCK_FILE.search(str(exc))
        if match is None:
            return
        lock = Path(match[1])
    try:
        stat = lock.stat()
    except OSError:
        return
    ident, now = (stat.st_ino, stat.st_mtime_ns), time.monotonic()
    first = seen.get(str(lock))
    if first is None or first[0] != ident:
        seen[str(lock)] = (ident, now)
    elif now - first[1] >= STALE_LOCK_SECONDS:
        lock.unlink(missing_ok=True)


def is_held(path: Path) -> bool:
    """True while another process holds the lock at ``path`` (a probe; it may change at once)."""
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False
