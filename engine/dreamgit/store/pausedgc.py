"""Python's passes over its oldest generation held off while a long build runs.

A dream over 10,000 memories builds a few million objects that live until it ends
(memories, their word sets and frames, the plan), and the derived store's first build
after a clone holds a row and the index terms of every memory file until it writes them;
each of the collector's passes over the oldest generation walks all of them again (a
dream made six such passes, a seventh of its CPU time). Those passes are held for the
block: the young generations are still collected, so a cycle the block makes and drops
soon (an exception caught in a loop, a parse tree) is freed as before, and what outlives
them waits for the first full pass after it, when the thresholds are back as they were.
A collector the caller turned off stays off. Here, below the dream, so the store's build
can hold them too.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]

#: A threshold for the oldest generation no run reaches.
_NEVER = 1 << 30


@contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic pass over the oldest generation inside the block; as it was after."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
