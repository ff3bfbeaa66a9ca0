"""The duplicate finder's whole answer over many memories, its topics judged by this
process and a forked child in turn.

A merge pass with no judged pairs to start from (a store's first dream, or its first
after an upgrade: ``judged_pairs.py``) asks the finder for every pair among all active
memories: at 100,000, ~4 s of CPU. A pair holds two memories of one topic and depends
on the two alone, so each topic is judged on its own, and the topics are shared out
between this process and a child by :func:`~dreamgit.dream.consolidate.fork_turns.
in_turns` (each takes the next topic, largest first, when done with the last: a topic's
cost does not follow its size, so halves parted by size left one process waiting on the
other). Joined in the items' order, they are the whole answer: each topic keeps its
items in their order, so a pair's earlier item is the same, and the finder is exact, so
no pair depends on the other items. The child reads frames and features afresh (it must
not touch the kept readings' databases) and sends the texts it read, which this process
then asks for, so the kept readings are the same too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from typing import TypeVar

from dreamgit.dream.consolidate.fork_turns import MOST_PARTS, in_turns
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.extract.frame import KEEPER, parse_frame
from dreamgit.store.forkhalves import SPLIT_AT, can_fork
from dreamgit.textsim import FEATURE_KEEPER, features

__all__ = ["every_pair"]

Pair = tuple[str, str, float]
#: A topic's pairs, and the texts whose frames and features were read afresh (in the child).
_Found = tuple[list[Pair], list[str], list[str]]
T = TypeVar("T")


def every_pair(items: Sequence[DupItem], threshold: float) -> list[Pair]:
    """``find_duplicate_pairs(items, threshold=threshold)`` (same topic), topic by topic,
    in two processes when the items are many and this process may fork."""
    topics = _topics(items)
    position = {item.id: k for k, item in enumerate(items)}
    if topics is None or len(position) < len(items):  # (an id given twice: the finder's error)
        return find_duplicate_pairs(items, threshold=threshold)
    work = partial(_pairs_of, threshold=threshold, parent=os.getpid())
    # one topic at a time even here: the finder ranks words by rarity among the items it
    # is given, and a word rare in its own topic makes a sharper key (100,000 memories in
    # ten topics: 3.9 s of CPU topic by topic, 5.4 s in two halves of five)
    forking = len(items) >= SPLIT_AT and can_fork()
    pairs: list[Pair] = []
    for found, frames, feats in in_turns(topics, work) if forking else map(work, topics):
        pairs += found
        # asked here too, so the kept readings are those of judging here (most were read
        # here already, or will be: the frames of every memory, the features of every text)
        for text in frames:
            parse_frame(text)
        for text in feats:
            features(text)
    pairs.sort(key=lambda pair: (position[pair[0]], position[pair[1]]))  # the finder's order
    return pairs


def _topics(items: Sequence[DupItem]) -> list[list[DupItem]] | None:
    """The items parted by topic, each part in the items' order, the largest first (ties
    by topic; past :data:`MOST_PARTS` topics, the smallest share the last part); None for
    a single topic."""
    by_topic: dict[str, list[DupItem]] = {}
    for item in items:
        by_topic.setdefault(item.topic, []).append(item)
    if len(by_topic) < 2:
        return None
    largest_first = [by_topic[t] for t in sorted(by_topic, key=lambda t: (-len(by_topic[t]), t))]
    if len(largest_first) > MOST_PARTS:
        rest = {part[0].topic for part in largest_first[MOST_PARTS - 1 :]}
        largest_first[MOST_PARTS - 1 :] = [[item for item in items if item.topic in rest]]
    return largest_first


def _pairs_of(part: Sequence[DupItem], *, threshold: float, parent: int) -> _Found:
    """A topic's pairs, with the texts whose frames and features were read afresh: none
    here, but in the child every one it read (it must not touch the kept readings'
    databases, and exits with nothing saved)."""
    frames: list[str] = []
    feats: list[str] = []
    here: AbstractContextManager[None] = (
        nullcontext() if os.getpid() == parent else _noting(frames, feats)
    )
    with here:
        return find_duplicate_pairs(part, threshold=threshold), frames, feats


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
