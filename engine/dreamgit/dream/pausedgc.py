"""Python's cyclic garbage collector held off while a dream runs.

A dream over 10,000 memories builds a few million objects that live until it ends
(memories, their word sets and frames, the plan); each of the collector's passes over
the oldest generation walks all of them again, and a run made six such passes, a
seventh of its CPU time. What a dream leaves behind is freed by reference counting
(a run with the collector off peaked within 3 % of one with it on), so the collector
is off for the run and back as it was after, the next pass of the process collecting
whatever cycles the run left.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic garbage collection inside the block; as it was after (nested: kept off)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
