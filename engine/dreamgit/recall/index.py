"""The BM25 index over the active memories, built once per tree and kept in the process.

A memory's terms are the canonical content words of its text and tags (the same
words the duplicate finder compares: stemmed, folded, stop words dropped), so a
query matches "prefers" to "preferred". The index is keyed by the tree id of
``memories/`` and the blob id of the recall counters at the main tip: a warm
process answers every query from memory until a memory or a counter changes
(a logged session or a committed batch of signals changes neither).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass

import bm25s
import numpy as np
import numpy.typing as npt

from dreamgit.model import Memory
from dreamgit.textsim import tokenize

__all__ = ["RecallIndex", "cached_index", "terms"]

# bm25s sets its own logger to DEBUG, so every index build would print "Building
# index from tokens" wherever logging is configured (the MCP server's stderr).
logging.getLogger("bm25s").setLevel(logging.WARNING)

#: How many indexes one process keeps (one per repository and tree).
_KEEP = 4
_CACHE: OrderedDict[tuple[str, str], RecallIndex] = OrderedDict()


def terms(text: str) -> list[str]:
    """The index terms of a text, repeated as often as they occur."""
    return [t.norm for t in tokenize(text) if not t.stop]


@dataclass
class RecallIndex:
    """Active memories and a BM25 index over their terms."""

    memories: list[Memory]
    bm25: bm25s.BM25 | None

    @classmethod
    def build(cls, memories: list[Memory]) -> RecallIndex:
        """Index ``memories`` (in the order given)."""
        corpus = [terms(" ".join((m.text, *m.tags))) or ["\x00"] for m in memories]
        if not corpus:
            return cls(memories, None)
        index = bm25s.BM25()
        index.index(corpus, show_progress=False)
        return cls(memories, index)

    def scores(self, query_terms: list[str]) -> npt.NDArray[np.float64]:
        """BM25 score of every memory for the query terms (zeros when nothing matches)."""
        if self.bm25 is None or not query_terms:
            return np.zeros(len(self.memories))
        known = [t for t in query_terms if t in self.bm25.vocab_dict]
        if not known:
            return np.zeros(len(self.memories))
        return np.asarray(self.bm25.get_scores(known), dtype=np.float64)


def cached_index(key: tuple[str, str], load: list[Memory] | None = None) -> RecallIndex | None:
    """The index for ``key`` (repository, tree id); with ``load``, build and keep it."""
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    if load is None:
        return None
    built = RecallIndex.build(load)
    _CACHE[key] = built
    while len(_CACHE) > _KEEP:
        _CACHE.popitem(last=False)
    return built
