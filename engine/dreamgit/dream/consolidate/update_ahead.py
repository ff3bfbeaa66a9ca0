"""A cold dream's newer-value check laid out ahead, in a forked child, while the dream gathers.

The check keeps its layout and readings between runs (``update_memo``): a dream after a
dream moves the kept layout by what changed and compares again only what that can
change (over 100,000 memories ~1 s), but a dream with no layout kept (a store's first,
or after an upgrade of the check's code) reads and compares every memory (~17 s, and
the rise of the dream's memory from 340 to 750 MB). Nothing of that depends on what the
dream gathers: inside :func:`checking_ahead` (the dream's plan opens it),
:func:`check_ahead`, called once the memories are read, forks a child that runs the
check over them as the consolidation would, in its own freshly opened memos (never the
dream's connections: a context of its own, ``forkhalves.started``), and so saves the
readings and the layout a dream before would have saved. The dream gathers meanwhile;
:func:`await_ahead` (the check's first step) waits for the child and lets the dream's
memos see what it kept, and the check then moves the child's layout by what gathering
and the earlier passes changed, as the dream after a dream does. A child that fails,
dies or is too slow leaves the dream where it was: no layout kept, every subject
compared. Same answers either way: a kept layout moved is the scan from nothing.

It forks only for a store of :data:`AHEAD_AT` memories or more, with no layout kept for
this code, and where ``forkhalves`` may fork.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.frame_memo import keeping_frames
from dreamgit.dream.consolidate.update_kept import layout_keeper
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.store import forkhalves
from dreamgit.store.keptframes import readings_path
from dreamgit.store.lookedreadings import renew_looked_up

__all__ = ["AHEAD_AT", "await_ahead", "check_ahead", "checking_ahead"]

#: Memories below which the dream's process checks them itself: at 10,000 (a cold dream,
#: a busy machine) the child took 0.6 s of the dream's 3.5 s of CPU but none of its wall,
#: which grew by 0.5 s (the child redoes what gathering's caches held for the check, and
#: the merge reads back the frames the check would have left in the parse cache).
AHEAD_AT = 20_000
#: How long the dream waits for the child, a memory: the time it takes to check one in
#: one process; a child that has not ended by then (a stopped machine, a stuck child)
#: is not worth waiting for longer, since it started first.
_PATIENCE = 1e-3
#: ... and at least this long (seconds): a small store's child forks and saves too.
_LEAST_PATIENCE = 10.0
#: The kinds of kept readings the child fills besides the check's own (``update_memo``
#: takes those as it goes): its frames and its counts, whose memos the dream opened
#: before the child saved them.
_FILLED = ("frames", "counts")


@dataclass
class _Ahead:
    """The child laid out ahead for one dream's repository (when one was started)."""

    git_dir: Path
    child: forkhalves.Started | None = None
    memories: int = 0


_AHEAD: ContextVar[_Ahead | None] = ContextVar("dreamgit_update_ahead", default=None)


@contextmanager
def checking_ahead(git_dir: Path) -> Iterator[None]:
    """For the time of the block, :func:`check_ahead` may start a child for ``git_dir``;
    one still at work when the block ends is stopped (the dream left before its check)."""
    ahead = _Ahead(git_dir)
    token = _AHEAD.set(ahead)
    try:
        yield
    finally:
        _AHEAD.reset(token)
        if ahead.child is not None:
            ahead.child.stop()


def check_ahead(memories: int, check: Callable[[], object]) -> None:
    """Start ``check()`` (the newer-value check over the ``memories`` as read) in a forked
    child, inside a block of :func:`checking_ahead` with the check's layout kept
    (``update_memo``), when none is kept for this code and the memories are many."""
    ahead, keeper = _AHEAD.get(), layout_keeper()
    if ahead is None or keeper is None or ahead.child is not None or memories < AHEAD_AT:
        return
    if keeper.holds_one():
        return  # the check moves the kept layout: a child would do it again from nothing
    ahead.child = forkhalves.started(partial(_in_child, ahead.git_dir, check))
    ahead.memories = memories


def _in_child(git_dir: Path, check: Callable[[], object]) -> None:
    """In the child: the check with the memos a dream opens for it, saved at the end."""
    with keeping_frames(git_dir), keeping_counts(git_dir), keeping_updates(git_dir):
        check()


def await_ahead() -> None:
    """Wait for the child :func:`check_ahead` started (if any): once it ended well, the
    kept frames and counts the dream reads from are read on from what it saved (the
    check's layout and readings are read when the check asks for them, after this)."""
    ahead = _AHEAD.get()
    if ahead is None or ahead.child is None:
        return
    child, ahead.child = ahead.child, None
    patience = max(_LEAST_PATIENCE, ahead.memories * _PATIENCE)
    if child.done(within=patience):
        renew_looked_up(readings_path(ahead.git_dir, kind) for kind in _FILLED)
