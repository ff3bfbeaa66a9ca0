"""Work over many items done in two processes: this one and a child it forks.

The first build of the derived store after a clone parses every memory file (blob read,
front matter, index terms, the record as JSON): at 100,000 files ~10 s of CPU in one
process, work that shares nothing between files. :func:`in_two` forks a child that does
the second half while this process does the first; the child sends its results back
pickled through a pipe (plain tuples and strings: ~0.2 s of the ~5 s it saves at
100,000) and exits without running any cleanup (``os._exit``: it never touches what it
inherited, such as an open SQLite transaction). The answer is the one process's: the
halves are joined in order, and when the child fails, dies or sends something short,
this process does its half itself.

It forks only when that is safe and worth it: a platform whose ``fork`` is (Linux and
the other Unixes but macOS, whose system libraries may not survive one), no other
thread running (the MCP server answers in threads: a fork copies a lock another thread
holds, held forever), more than one CPU to run on, and at least :data:`SPLIT_AT` items.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["SPLIT_AT", "can_fork", "in_two"]

#: Items below which one process does all the work: a fork and the results' trip back
#: cost ~20 ms, which a few thousand memory files (~100 us each) repay.
SPLIT_AT = 4096

Item = TypeVar("Item")
Result = TypeVar("Result")


def can_fork() -> bool:
    """Whether this process may fork a helper now (see the module's text)."""
    return (
        hasattr(os, "fork")
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and _cpus() > 1
    )


def _cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def in_two(
    items: Sequence[Item],
    work: Callable[[Sequence[Item]], list[Result]],
    *,
    at_least: int | None = None,
) -> list[Result]:
    """``work(items)``, done as ``work`` of the first half here and of the second half in
    a forked child when there are ``at_least`` items (default :data:`SPLIT_AT`) and
    :func:`can_fork`; ``work`` must return one picklable result per item, and depend on
    nothing but its items."""
    if len(items) < (SPLIT_AT if at_least is None else at_least) or not can_fork():
        return work(items)
    half = len(items) // 2
    theirs = items[half:]
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which coverage does not follow
        _child(read_end, write_end, lambda: work(theirs))
    os.close(write_end)
    try:
        mine = work(items[:half])
    except BaseException:
        _stop(child)
        os.close(read_end)
        raise
    sent: list[Result] | None = _collect(read_end, child, len(theirs))
    return mine + (work(theirs) if sent is None else sent)


def _child(read_end: int, write_end: int, work: Callable[[], Sequence[object]]) -> None:
    """In the child: do the work, send it pickled, exit (0 only when all of it was sent)."""
    import pickle  # here: a process that never splits (an add) never loads it

    code = 1
    try:
        os.close(read_end)
        found = work()
        with os.fdopen(write_end, "wb") as pipe:
            pickle.dump(found, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        code = 0
    finally:
        os._exit(code)  # no cleanup: what the child inherited is the parent's to close


def _collect(read_end: int, child: int, expected: int) -> list[Any] | None:
    """The child's results, or None when it failed, died or sent fewer than expected."""
    import pickle  # here: see _child

    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()  # to the end: the child exits once it has written it all
    _, status = os.waitpid(child, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    try:
        found = pickle.loads(data)
    except Exception:  # anything unreadable: the half is done here instead
        return None
    if not isinstance(found, list) or len(found) != expected:
        return None
    return found


def _stop(child: int) -> None:
    """Kill the child and wait for it (this process is leaving with an error)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
