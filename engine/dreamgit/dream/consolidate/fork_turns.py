"""Parts of one job done by this process and a forked child taking turns, so that both
finish together whatever each part costs.

:func:`~dreamgit.store.forkhalves.in_two` parts the items into two halves before the
fork: right when every item costs about the same, but the merge pass's topics do not
(at 100,000 memories a topic of 29,000 took 1.9 s to judge, one of 26,000 0.5 s), and a
split by size left this process waiting ~1 s on its child. Here the parts are written
to a pipe first, largest first, and each process takes the next part when it is done
with the last one (a read of a pipe is atomic: each part is taken once), as scheduling
the longest first would. The child sends back the results of the parts it
took; a part it took and did not send (it died, failed or sent something short) is done
here afterwards. The answer is one process's: each part's result is ``work`` of the part
alone, whoever did it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

from dreamgit.store.forkhalves import in_two

__all__ = ["MOST_PARTS", "in_turns"]

Part = TypeVar("Part")
Result = TypeVar("Result")

#: The most parts one queue holds: two bytes each, one page in all (the least a pipe
#: holds: Linux shrinks new pipes to one page once a user's pipes hold too much), so the
#: queue is written whole before the fork without blocking.
MOST_PARTS = 2048
_PLACE = 2  # bytes per part's number in the queue


def in_turns(parts: Sequence[Part], work: Callable[[Part], Result]) -> list[Result]:
    """``[work(part) for part in parts]``, the parts taken in turn from one queue by this
    process and a forked child (when ``in_two`` forks: see its conditions); ``work`` must
    depend on nothing but its part, and return something picklable."""
    if not 2 <= len(parts) <= MOST_PARTS:
        return [work(part) for part in parts]
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"".join(k.to_bytes(_PLACE, "little") for k in range(len(parts))))
        os.close(write_end)
        write_end = -1

        def taking(workers: Sequence[int]) -> list[dict[int, Result]]:
            # in_two's halves are the two workers: each takes parts until none is left
            return [_taken(read_end, parts, work) for _ in workers]

        done: dict[int, Result] = {}
        for results in in_two([0, 1], taking, at_least=2):
            done.update(results)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    # a part the child took and never sent back is done here
    return [done[k] if k in done else work(part) for k, part in enumerate(parts)]


def _taken(queue: int, parts: Sequence[Part], work: Callable[[Part], Result]) -> dict[int, Result]:
    """Each part taken from ``queue`` until it is empty, by its number, with its result."""
    results: dict[int, Result] = {}
    while len(taken := os.read(queue, _PLACE)) == _PLACE:
        k = int.from_bytes(taken, "little")
        results[k] = work(parts[k])
    return results
