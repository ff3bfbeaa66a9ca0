"""The duplicate finder's whole answer over many memories, topic by topic, the topics
shared between this process and a forked child, with the restatement keys of the notes.

A merge pass with no judged pairs to start from (a store's first dream, or its first
after an upgrade: ``judged_pairs.py``) asks the finder for every pair among all active
memories: at 100,000, ~4 s of CPU. A pair holds two memories of one topic and depends
on the two alone, so each topic is judged on its own, and the topics are shared out
between this process and a child by :func:`~dreamgit.dream.consolidate.fork_turns.
in_turns` (each takes the next topic, largest first, when done with the last: a topic's
cost does not follow its size, so halves parted by size left one process waiting on the
other). The pass reads every note's restatement keys next (``contained_pairs.py``, 0.5 s
at 100,000, a pure function of the text): with a child, those are read in the same turns,
in small parts after the topics, so that both processes finish together. Joined in the
items' order, the pairs are the whole answer: each topic keeps its items in their order,
so a pair's earlier item is the same, and the finder is exact, so no pair depends on the
other items. The child reads frames and features afresh (it must not touch the kept
readings' databases) and sends the texts it read, which this process then asks for, so
the kept readings are the same too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from typing import TypeVar

from dreamgit.dream.consolidate.fork_turns import MOST_PARTS, in_turns
from dreamgit.extract.duplicates import ContainedKeys, DupItem, contained_keys, find_duplicate_pairs
from dreamgit.extract.frame import KEEPER, parse_frame
from dreamgit.store.forkhalves import SPLIT_AT, can_fork
from dreamgit.textsim import FEATURE_KEEPER, features

__all__ = ["every_pair"]

Pair = tuple[str, str, float]
#: A part of the work: a topic's items to pair, or texts to read the keys of.
_Part = tuple[Sequence[DupItem], Sequence[str]]
#: A part's pairs and keys, and the texts whose frames and features were read afresh.
_Found = tuple[list[Pair], list[tuple[str | None, tuple[str, ...]]], list[str], list[str]]
T = TypeVar("T")

#: Texts whose keys one part reads (~3 ms): small parts, so that the last ones even out
#: the two processes' ends.
_KEYS_PER_PART = 512


def every_pair(
    items: Sequence[DupItem], threshold: float, *, keys_of: Sequence[str] = ()
) -> tuple[list[Pair], dict[str, ContainedKeys]]:
    """``find_duplicate_pairs(items, threshold=threshold)`` (same topic), topic by topic,
    in two processes when the items are many and this process may fork; and then, by
    text, the restatement keys (``contained_keys``) of ``keys_of``, read only when the
    work is shared with a child (else none: the pass reads them when it needs them)."""
    position = {item.id: k for k, item in enumerate(items)}
    if not items or len(position) < len(items):  # (an id given twice: the finder's error)
        return find_duplicate_pairs(items, threshold=threshold), {}
    # one topic at a time even here: the finder ranks words by rarity among the items it
    # is given, and a word rare in its own topic makes a sharper key (100,000 memories in
    # ten topics: 3.9 s of CPU topic by topic, 5.4 s in two halves of five)
    parts: list[_Part] = [(topic, ()) for topic in _topics(items)]
    if len(items) >= SPLIT_AT and can_fork():
        texts = list(dict.fromkeys(keys_of))
        size = max(_KEYS_PER_PART, -(-len(texts) // (MOST_PARTS - len(parts))))
        parts += [((), texts[k : k + size]) for k in range(0, len(texts), size)]
        shared = len(parts) > 1
    else:
        shared = False
    work = partial(_read, threshold=threshold, parent=os.getpid())
    pairs: list[Pair] = []
    keys: dict[str, ContainedKeys] = {}
    for (_, keyed), (found, read, frames, feats) in zip(
        parts, in_turns(parts, work) if shared else map(work, parts), strict=True
    ):
        pairs += found
        keys.update(zip(keyed, map(ContainedKeys._make, read), strict=True))
        # asked here too, so the kept readings are those of reading here (most were read
        # here already, or will be: the frames of every memory, the features of every text)
        for text in frames:
            parse_frame(text)
        for text in feats:
            features(text)
    pairs.sort(key=lambda pair: (position[pair[0]], position[pair[1]]))  # the finder's order
    return pairs, keys


def _topics(items: Sequence[DupItem]) -> list[list[DupItem]]:
    """The items parted by topic, each part in the items' order, the largest first (ties
    by topic; past half of :data:`MOST_PARTS` topics, the smallest share the last part)."""
    by_topic: dict[str, list[DupItem]] = {}
    for item in items:
        by_topic.setdefault(item.topic, []).append(item)
    largest_first = [by_topic[t] for t in sorted(by_topic, key=lambda t: (-len(by_topic[t]), t))]
    most = MOST_PARTS // 2  # room for the parts of keys
    if len(largest_first) > most:
        rest = {part[0].topic for part in largest_first[most - 1 :]}
        largest_first[most - 1 :] = [[item for item in items if item.topic in rest]]
    return largest_first


def _read(part: _Part, *, threshold: float, parent: int) -> _Found:
    """A part's pairs and keys (the keys as plain tuples: a smaller pickle), with the texts
    whose frames and features were read afresh: none here, but in the child every one it
    read (it must not touch the kept readings' databases, and exits with nothing saved)."""
    items, texts = part
    frames: list[str] = []
    feats: list[str] = []
    here: AbstractContextManager[None] = (
        nullcontext() if os.getpid() == parent else _noting(frames, feats)
    )
    with here:
        pairs = find_duplicate_pairs(items, threshold=threshold) if items else []
        read = [(keys.group, keys.phrases) for keys in map(contained_keys, texts)]
    return pairs, read, frames, feats


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
