"""Python's passes over its older generations held off while a long build runs.

A dream over 10,000 memories builds a few million objects that live until it ends
(memories, their word sets and frames, the plan), and the derived store's first build
after a clone holds a row and the index terms of every memory file until it writes them;
each of the collector's passes over the oldest generation walks all of them again (a
dream made six such passes, a seventh of its CPU time). Each pass over the middle
generation walks again every object that outlived a pass over the youngest: a nightly
dream at 100,000 memories made ~300 of them, 0.35-0.40 s of CPU, and they freed ~300
objects in all. Both are held for the block: the youngest generation is still collected,
so a cycle the block makes and drops soon (an exception caught in a loop, a parse tree)
is freed as before, and what outlives it waits for the first pass after the block, when
the thresholds are back as they were. A collector the caller turned off stays off. Here,
below the dream, so the store's build can hold them too.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]

#: A threshold for the older generations no run reaches.
_NEVER = 1 << 30


@contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic pass over the middle or the oldest generation inside the block; as it
    was after."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, _NEVER, _NEVER)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
