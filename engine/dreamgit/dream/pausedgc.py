"""Python's passes over its oldest generation held off while a dream runs.

A dream over 10,000 memories builds a few million objects that live until it ends
(memories, their word sets and frames, the plan); each of the collector's passes over
the oldest generation walks all of them again, and a run made six such passes, a
seventh of its CPU time. Those passes are held for the run: the young generations are
still collected, so a cycle the run makes and drops soon (an exception caught in a
loop, a parse tree) is freed as before, and what outlives them waits for the first
full pass after the run, when the thresholds are back as they were. A collector the
caller turned off stays off.
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
