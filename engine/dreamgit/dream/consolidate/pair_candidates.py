"""Which memories could pair with a pass's new ones, asked of the kept index of words.

A merge pass judges only the pairs that hold a new or changed memory
(``judged_pairs.py``), but the finder asked for those still read the features of every
memory and posted each of their words: over 100,000 memories a second of the dream after
an applied one, for the hundred memories that dream changed. Two memories pair only when
the Dice similarity of their features reaches the threshold ``d``, that is their Jaccard
index ``t = d / (2 - d)``; a memory ``y`` with Jaccard ``>= t`` with ``x`` shares at
least ``t * |x|`` of ``x``'s words, so it holds one of any ``|x| - ceil(t * |x|) + 1`` of
them. The rarest of a new memory's words, looked up in the kept index of which texts
hold each word (``store/keptpostings.py``, set here by ``dream/word_memo.py``), name
every memory that could pair with it: the finder given those alone finds the same pairs.
Outside the block no index is set, and the caller asks the finder about every memory.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from contextvars import ContextVar

from dreamgit.textsim import features

__all__ = ["FEATURE_INDEX", "could_pair"]

#: For each of the words some text holds, the positions of the texts holding it, in order;
#: the callable reads the words of a text the index has not seen (``KeptPostings.holders``).
FeatureIndex = Callable[
    [Sequence[str], AbstractSet[str], Callable[[str], Iterable[str]]], dict[str, list[int]]
]
FEATURE_INDEX: ContextVar[FeatureIndex | None] = ContextVar(
    "dreamgit_pair_feature_index", default=None
)


def could_pair(texts: Sequence[str], probes: Sequence[int], threshold: float) -> set[int] | None:
    """The positions in ``texts`` of those whose features could reach the Dice
    ``threshold`` with the features of the text at one of ``probes`` (positions, which are
    among them), or None when no kept index is set."""
    index = FEATURE_INDEX.get()
    if index is None:
        return None
    probing = [features(texts[k]) for k in probes]
    held = index(texts, frozenset().union(*probing), features)
    jaccard_min = threshold / (2.0 - threshold)
    found = set(probes)
    for words in probing:
        size = len(words)
        need = max(1, math.ceil(jaccard_min * size - 1e-9))
        rarest = sorted(words, key=lambda w: (len(held.get(w, ())), w))
        for word in rarest[: size - need + 1]:
            found.update(held.get(word, ()))
    return found
