"""Which texts hold each of some words, asked of a kept index when a dream keeps one.

Gathering compares a run's statements with the known memories that share a word with
them, and the duplicate finder compares a few new memories with the known ones that
could pair with them (``pairable.py``): of 100,000 memories most share no word, and
reading every memory's words to find that out was most of the cost. Inside
``dream/word_memo.py``'s block a kept index of which texts hold each word answers
(``store/keptpostings.py``); outside it every text is read. The same positions, in the
same order, either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from contextvars import ContextVar

__all__ = ["FEATURE_HOLDERS", "Holders", "holders"]

#: For each of the words that some text holds, the positions of the texts holding it, in
#: order; the callable reads a text's words when the index has not seen it.
Holders = Callable[
    [Sequence[str], AbstractSet[str], Callable[[str], Iterable[str]]], dict[str, list[int]]
]
#: By the duplicate finder's features (``textsim.features``).
FEATURE_HOLDERS: ContextVar[Holders | None] = ContextVar("dreamgit_feature_holders", default=None)


def holders(
    texts: Sequence[str],
    words: AbstractSet[str],
    read: Callable[[str], Iterable[str]],
    index: ContextVar[Holders | None],
) -> dict[str, list[int]]:
    """For each of ``words`` some text of ``texts`` holds (by ``read``), the positions of
    those texts in order: from ``index`` when a dream keeps one, else by reading each."""
    kept = index.get()
    if kept is not None:
        return kept(texts, words, read)
    found: dict[str, list[int]] = {}
    for k, text in enumerate(texts):
        for word in {w for w in read(text) if w in words}:
            found.setdefault(word, []).append(k)
    return found
