"""BM25 over the active memories: from the persisted index, or built in the process.

A memory's terms are the canonical content words of its text and tags (the same
words the duplicate finder compares: stemmed, folded, stop words dropped), so a
query matches "prefers" to "preferred". Scores are Lucene's BM25 (k1 1.5, b 0.75),
computed by one function from postings (term → memory, term frequency, length)
whether they come from the derived store in the git directory (``store/derived.py``,
whose postings name a memory by a number: a fresh process reads only the postings of
the query's terms and the records of the best memories, never the memory files) or
from an index built in the process from a snapshot (another agent's format, a
database that cannot be used, or a process that already holds one). Both give the
same answer: ties go by path.

An index built in the process is keyed by the tree id of ``memories/`` and the
blob id of the recall counters at the main tip, so a warm process answers every
query from memory until a memory or a counter changes.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from dreamgit.model import Memory, RecallStats
from dreamgit.store.derived import (
    DerivedStore,
    NumberedPosting,
    PathsOf,
    Posting,
    index_terms,
    memory_terms,
)
from dreamgit.store.memoryfile import memory_from_record
from dreamgit.store.signals import with_recalls

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = [
    "RecallIndex",
    "as_candidates",
    "bm25_scores",
    "cached_index",
    "search_stored",
    "stored_candidates",
    "terms",
]

#: BM25's term-frequency saturation and length normalisation (bm25s' and Lucene's).
K1, B = 1.5, 0.75
#: How many indexes one process keeps (one per repository and tree).
_KEEP = 4
_CACHE: OrderedDict[tuple[str, str], RecallIndex] = OrderedDict()
#: Tries to read the persisted index while other processes move it to other trees.
_TRIES = 3

#: A memory, its BM25 score and how many of the query's distinct terms it holds.
Candidate = tuple[Memory, float, int]

terms = index_terms

#: What postings name a memory by: its path (an index built in the process) or its
#: number (the derived store's).
Key = TypeVar("Key", bound=Hashable)


def bm25_scores(
    postings: Mapping[str, Sequence[tuple[Key, int, int]]],
    query_terms: list[str],
    count: int,
    avg_len: float,
) -> dict[Key, float]:
    """Each matching memory's BM25 score; a repeated query term counts each time."""
    scores: dict[Key, float] = {}
    get = scores.get
    for term in query_terms:
        found = postings.get(term)
        if not found:
            continue
        df = len(found)
        idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
        # A term weighs the same in every memory of one (tf, length), and memories share
        # few of those: each weight is computed once (the same float), not once a memory
        # (a query term in a third of 100,000 memories: ~25 % of the loop).
        weights: dict[tuple[int, int], float] = {}
        for path, tf, length in found:
            weight = weights.get((tf, length))
            if weight is None:
                tfc = tf / (K1 * ((1 - B) + B * length / avg_len) + tf)
                weight = weights[tf, length] = idf * tfc
            scores[path] = get(path, 0.0) + weight
    return scores


def best(scores: Mapping[str, float], wanted: int) -> list[str]:
    """The ``wanted`` best-scoring paths with a score above zero, best first, ties by path."""
    positive = ((-s, p) for p, s in scores.items() if s > 0)
    return [p for _, p in heapq.nsmallest(wanted, positive)]


def best_numbered(
    scores: Mapping[int, float], wanted: int, paths_of: PathsOf
) -> list[tuple[int, str]]:
    """:func:`best` of scores by memory number, ties by path as there: the ``wanted``
    best (number, path), best first. Only the memories that score at least the
    ``wanted``-th best score have their paths looked up."""
    top = heapq.nlargest(wanted, (s for s in scores.values() if s > 0))
    if not top:
        return []
    near = [n for n, s in scores.items() if s >= top[-1]]
    paths = paths_of(near)
    near.sort(key=lambda n: (-scores[n], paths[n]))
    return [(n, paths[n]) for n in near[:wanted]]


def terms_held(
    postings: Mapping[str, Sequence[tuple[Key, int, int]]],
    query_terms: list[str],
    paths: list[Key],
) -> dict[Key, int]:
    """How many of the query's distinct terms each of ``paths`` holds, read off the
    postings (a term's postings name every memory that holds it), so the weighting
    need not tokenize the candidates' texts again."""
    held = dict.fromkeys(paths, 0)
    for term in set(query_terms):
        for path, _, _ in postings.get(term, ()):
            if path in held:
                held[path] += 1
    return held


@dataclass
class RecallIndex:
    """Active memories by path and the postings of their terms."""

    memories: dict[str, Memory]
    postings: dict[str, list[Posting]]
    avg_len: float

    @classmethod
    def build(cls, memories: list[Memory]) -> RecallIndex:
        """Index ``memories``."""
        postings: dict[str, list[Posting]] = {}
        total = 0
        for m in memories:
            found = memory_terms(m.text, m.tags)
            total += len(found)
            for term, tf in Counter(found).items():
                postings.setdefault(term, []).append((m.path, tf, len(found)))
        avg = total / len(memories) if memories else 0.0
        return cls({m.path: m for m in memories}, postings, avg)

    def candidates(self, query_terms: list[str], wanted: int) -> list[Candidate]:
        """The best ``wanted`` memories for the query terms and their scores."""
        scores = bm25_scores(self.postings, query_terms, len(self.memories), self.avg_len)
        chosen = best(scores, wanted)
        held = terms_held(self.postings, query_terms, chosen)
        return [(self.memories[p], scores[p], held[p]) for p in chosen]


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


def stored_candidates(
    repo: MemoryRepo, at: str | None, query_terms: list[str], wanted: int, now: datetime
) -> tuple[list[Candidate], str] | None:
    """The best memories at ``at`` from the persisted index and the id it holds them
    under, or None when it cannot be used."""
    for _ in range(_TRIES):
        tree = repo.sync_derived(at)
        if tree is None:
            return None
        try:
            found = search_stored(repo.derived, tree, query_terms, wanted)
        except sqlite3.Error:
            return None
        if found is None:
            continue  # another process moved it to another tree in between
        return as_candidates(found, repo.recall_counters(at), now), tree
    return None


#: A memory file's path, its parsed record, its BM25 score and the query terms it holds.
StoredHit = tuple[str, dict[str, Any], float, int]


def search_stored(
    derived: DerivedStore, tree: str, query_terms: list[str], wanted: int
) -> list[StoredHit] | None:
    """BM25's ``wanted`` best at ``tree`` from the derived store, best first, or None when
    it holds another tree. Raises sqlite3.Error when it cannot be read."""
    ranked: dict[str, tuple[float, int]] = {}

    def choose(
        count: int,
        avg_len: float,
        postings: dict[str, list[NumberedPosting]],
        paths_of: PathsOf,
        into: dict[str, tuple[float, int]] = ranked,
    ) -> list[str]:
        scores = bm25_scores(postings, query_terms, count, avg_len)
        chosen = best_numbered(scores, wanted, paths_of)
        held = terms_held(postings, query_terms, [n for n, _ in chosen])
        into.update((p, (scores[n], held[n])) for n, p in chosen)
        return list(into)

    records = derived.search(tree, query_terms, choose)
    if records is None:
        return None
    return [(path, records[path], score, held) for path, (score, held) in ranked.items()]


def as_candidates(
    found: list[StoredHit], counters: Mapping[str, RecallStats], now: datetime
) -> list[Candidate]:
    """Stored hits as memories read at ``now``, with their recall counters folded in."""
    out = []
    for path, record, score, held in found:
        memory = memory_from_record(record, path=path, now=now)
        out.append((with_recalls(memory, counters.get(memory.id)), score, held))
    return out
