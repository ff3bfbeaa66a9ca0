"""Which known statements could pair with a new one, asked of the kept index.

The duplicate finder pairs two statements when the Dice similarity of their features
reaches the threshold ``d``, that is when their Jaccard index reaches ``t = d / (2 - d)``.
A statement ``y`` with Jaccard ``>= t`` with ``x`` shares at least ``t * |x|`` of ``x``'s
words, so it holds one of any ``|x| - ceil(t * |x|) + 1`` of them: a new statement's
rarest words, looked up in the index of which known statements hold each word
(``holders.py``), name every known statement that could pair with it, and the others can
be left out before the finder, whose pairs are exact (the same pairs, in the same
order), and their features need not be read. Of 100,000 memories, a tenth shared some
word with a run's new ones; far fewer hold one of their rarest words.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dreamgit.extract.holders import FEATURE_HOLDERS, holders
from dreamgit.textsim import features

__all__ = ["could_pair", "pairable"]


def pairable(known: Sequence[str], probes: Sequence[str], threshold: float) -> set[int]:
    """The positions in ``known`` of the texts whose features could reach the Dice
    ``threshold`` with those of one of ``probes``."""
    probing = [features(text) for text in probes]
    held = holders(known, frozenset().union(*probing), features, FEATURE_HOLDERS)
    jaccard_min = threshold / (2.0 - threshold)
    found: set[int] = set()
    for words in probing:
        size = len(words)
        need = max(1, math.ceil(jaccard_min * size - 1e-9))
        rarest = sorted(words, key=lambda w: (len(held.get(w, ())), w))
        for word in rarest[: size - need + 1]:
            found.update(held.get(word, ()))
    return found


def could_pair(texts: Sequence[str], probing: Sequence[bool], threshold: float) -> list[bool]:
    """Which of ``texts`` could be in a pair with a ``probing`` one: those, and the others
    :func:`pairable` names."""
    others = [k for k, probes in enumerate(probing) if not probes]
    probes = [text for text, probes in zip(texts, probing, strict=True) if probes]
    keep = list(probing)
    for k in pairable([texts[j] for j in others], probes, threshold):
        keep[others[k]] = True
    return keep
