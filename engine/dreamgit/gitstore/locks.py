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
import itertools
import os
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from dreamgit import faults
from dreamgit.errors import ConcurrentUpdateError, UserError

__all__ = [
    "break_stale_lock",
    "create_lock_file",
    "exclusive",
    "is_abandoned",
    "lock_wait_seconds",
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

#: How long, in pauses summed, a writer waits for git's lock on a ref to clear before it
#: gives up naming the lock: 60 attempts with the pauses below. A live writer holds a ref
#: lock for milliseconds, so only a stuck one runs this out.
LOCK_WAIT_SECONDS = 11.0
#: The first pause between attempts; each one doubles it, up to the longest.
LOCK_FIRST_PAUSE = 0.005
LOCK_LONGEST_PAUSE = 0.2
#: Sets another wait (in seconds): the tests that sit out a stuck lock shorten it.
LOCK_WAIT_VARIABLE = "DREAMGIT_LOCK_WAIT"


def lock_wait_seconds() -> float:
    """:data:`LOCK_WAIT_SECONDS`, or the seconds ``$DREAMGIT_LOCK_WAIT`` gives."""
    text = os.environ.get(LOCK_WAIT_VARIABLE, "").strip()
    if not text:
        return LOCK_WAIT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise UserError(
            f"${LOCK_WAIT_VARIABLE} is {text!r}, not a number of seconds",
            hint="set it to a wait such as 11 (the default), or unset it",
        )
    return seconds


def retry_on_lock(
    action: str, lock: Path | None = None, *, candidates: Sequence[Path] = ()
) -> Iterator[int]:
    """Attempt numbers with backoff; ref locks held by another writer clear quickly.

    When they do not, the error names the lock file: ``lock``, or the first of
    ``candidates`` (the refs' own ``.lock`` files) still there.
    """
    budget, waited = lock_wait_seconds(), 0.0
    for attempt in itertools.count():
        yield attempt
        pause = min(LOCK_FIRST_PAUSE * 2**attempt, LOCK_LONGEST_PAUSE)
        time.sleep(pause)
        waited += pause
        if waited >= budget:
            break
    lock = lock or next((c for c in candidates if c.exists()), None)
    if lock is not None:
        raise ConcurrentUpdateError(
            f"{action}: {lock} stayed locked by another process",
            hint=f"a git command may be running; if none is, remove {lock} and retry",
        )
    raise ConcurrentUpdateError(
        f"{action}: the branch stayed locked by another writer",
        hint="retry; if no other dreamgit runs, remove a stale *.lock under the git directory",
    )


#: A lock file that stays the same this long while dreamgit holds the turn that guards
#: it (a ref only dreamgit writes) was left by a writer that died: a live one holds a
#: ref lock for milliseconds.
STALE_LOCK_SECONDS = 2.0
#: A lock with no owner that git itself may hold (``index.lock``, ``main.lock``) is
#: broken only when it is this old: a person's ``git update-ref --stdin`` or an editor
#: open on ``git commit`` holds one for as long as they like.
GIT_LOCK_STALE_SECONDS = 600.0
_OWNER = re.compile(rb"^dreamgit pid=(\d+) host=(\S+)\n")
LockSeen = dict[str, tuple[tuple[int, int], float]]


def _host() -> str:
    """This machine's name, as ``socket.gethostname()`` gives it (without importing
    socket and selectors: ~4 ms of every writing command)."""
    return os.uname().nodename


def owner_line() -> bytes:
    """What dreamgit writes into a git lock file it creates: who holds it."""
    return f"dreamgit pid={os.getpid()} host={_host()}\n".encode("ascii")


def _owner_alive(lock: Path) -> bool | None:
    """Whether the dreamgit process named in ``lock`` lives; None when nobody is named."""
    try:
        with lock.open("rb") as f:
            head = f.read(200)
    except OSError:
        return None
    match = _OWNER.match(head)
    if match is None or match[2].decode("ascii", "replace") != _host():
        return None
    try:
        os.kill(int(match[1]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def is_abandoned(lock: Path, *, private: bool) -> bool:
    """Whether nobody can be holding ``lock`` any more (see :func:`break_stale_lock`)."""
    alive = _owner_alive(lock)
    if alive is not None:
        return not alive
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    return age >= (STALE_LOCK_SECONDS if private else GIT_LOCK_STALE_SECONDS)


def create_lock_file(lock: Path, action: str) -> int:
    """Create git's lock file ``lock`` the way git does (O_EXCL), naming this process.

    Waits while another holds it; breaks it only when its dreamgit owner is dead,
    or when it has no owner and is older than :data:`GIT_LOCK_STALE_SECONDS`.
    Returns the open descriptor; the caller renames or removes the file.
    """
    seen: LockSeen = {}
    for _ in retry_on_lock(action, lock):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            break_stale_lock(lock, seen)
            continue
        try:
            faults.checkpoint("lock-file", path=lock)
            os.write(fd, owner_line())
        except OSError as exc:
            # A lock without its owner line would look like git's own for ten minutes:
            # one this process could not finish (a full disk) is not left behind.
            os.close(fd)
            lock.unlink(missing_ok=True)
            raise OSError(exc.errno, exc.strerror, str(lock)) from None
        return fd
    raise AssertionError("unreachable")  # pragma: no cover


def break_stale_lock(lock: Path | None, seen: LockSeen, *, private: bool = False) -> None:
    """Remove the lock file ``lock`` (None: git did not name one) when nobody can hold it.

    A lock naming a dead dreamgit process goes at once, one naming a live process
    never. One without an owner goes after it sat unchanged
    :data:`STALE_LOCK_SECONDS` when ``private`` (the caller holds dreamgit's own
    turn on that ref, so only a dead writer can have left it), else only when its
    age passes :data:`GIT_LOCK_STALE_SECONDS` (git itself may be holding it).
    """
    if lock is None:
        return
    try:
        stat = lock.stat()
    except OSError:
        return
    alive = _owner_alive(lock)
    if alive is not None:
        if not alive:
            lock.unlink(missing_ok=True)
        return
    if not private:
        if time.time() - stat.st_mtime >= GIT_LOCK_STALE_SECONDS:
            lock.unlink(missing_ok=True)
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
