"""The duplicate finder's whole answer over many memories, half of their topics judged in
a forked child.

A merge pass with no judged pairs to start from (a store's first dream, or its first
after an upgrade: ``judged_pairs.py``) asks the finder for every pair among all active
memories: at 100,000, ~3.3 s of CPU. A pair holds two memories of one topic and depends
on the two alone, so the topics are parted into two halves of about as many memories,
and :func:`~dreamgit.store.forkhalves.in_two` finds each half's pairs, the second in a
child that sends its few thousand pairs back pickled. Joined in the items' order, they
are the whole answer: each half keeps its items in their order, so a pair's earlier item
is the same, and the finder is exact, so no pair depends on the other items. The child
reads frames and features afresh (it must not touch the kept readings' databases) and
sends the texts it read, which this process then asks for, so the kept readings are the
same too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from typing import TypeVar

from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.extract.frame import KEEPER, parse_frame
from dreamgit.store.forkhalves import SPLIT_AT, can_fork, in_two
from dreamgit.textsim import FEATURE_KEEPER, features

__all__ = ["every_pair"]

Pair = tuple[str, str, float]
#: A half's pairs, and the texts whose frames and features it read afresh (in the child).
_Found = tuple[list[Pair], list[str], list[str]]
T = TypeVar("T")


def every_pair(items: Sequence[DupItem], threshold: float) -> list[Pair]:
    """``find_duplicate_pairs(items, threshold=threshold)`` (same topic), the topics in two
    processes when the items are many, of more than one topic, and this process may fork."""
    halves = _halves(items) if len(items) >= SPLIT_AT and can_fork() else None
    position = {item.id: k for k, item in enumerate(items)}
    if halves is None or len(position) < len(items):  # (an id given twice: the finder's error)
        return find_duplicate_pairs(items, threshold=threshold)
    work = partial(_pairs_of, threshold=threshold, parent=os.getpid())
    (mine, _, _), (theirs, frames, feats) = in_two(halves, work, at_least=2)
    # asked here too, so the kept readings are those of judging here (most were read here
    # already, or will be: the frames of every memory, the features of every text)
    for text in frames:
        parse_frame(text)
    for text in feats:
        features(text)
    pairs = [*mine, *theirs]
    pairs.sort(key=lambda pair: (position[pair[0]], position[pair[1]]))  # the finder's order
    return pairs


def _halves(items: Sequence[DupItem]) -> list[list[DupItem]] | None:
    """The items parted by topic into two halves of about as many items, each in the items'
    order, the one with the largest topic second (the child's: a topic's candidate pairs
    grow faster than its size); None for a single topic."""
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.topic] = sizes.get(item.topic, 0) + 1
    if len(sizes) < 2:
        return None
    largest_first = sorted(sizes.items(), key=lambda ts: (-ts[1], ts[0]))
    second: set[str] = set()
    weight = [0, 0]  # the first half's, the second's
    for topic, size in largest_first:  # each to the lighter half, the largest to the second
        if weight[1] <= weight[0]:
            second.add(topic)
            weight[1] += size
        else:
            weight[0] += size
    halves: list[list[DupItem]] = [[], []]
    for item in items:
        halves[item.topic in second].append(item)
    return halves


def _pairs_of(
    halves: Sequence[Sequence[DupItem]], *, threshold: float, parent: int
) -> list[_Found]:
    """Each half's pairs, with the texts whose frames and features it read afresh: none
    here, but in the child every one it read (it must not touch the kept readings'
    databases, and exits with nothing saved)."""
    frames: list[str] = []
    feats: list[str] = []
    here: AbstractContextManager[None] = (
        nullcontext() if os.getpid() == parent else _noting(frames, feats)
    )
    with here:
        return [(find_duplicate_pairs(half, threshold=threshold), frames, feats) for half in halves]


@contextmanager
def _noting(frames: list[str], feats: list[str]) -> Iterator[None]:
    """For the time of the block, frames and features read afresh and their texts noted."""
    kept_frames = KEEPER.set(partial(_noted, frames))
    kept_features = FEATURE_KEEPER.set(partial(_noted, feats))
    try:
        yield
    finally:
        FEATURE_KEEPER.reset(kept_features)
        KEEPER.reset(kept_frames)


def _noted(texts: list[str], text: str, read: Callable[[str], T]) -> T:
    texts.append(text)
    return read(text)
