"""``recall``: the active memories that answer a query, weighted, grouped and cut to a budget.

BM25 over the memories' content words finds candidates; the rule set's
``recall.weight`` expression orders them (relevance, priority, freshness,
earlier recalls: Daydreams' weighting, as data); results whose texts are near
duplicates are grouped under the best of them; the list is cut to ``chars``
(what an agent injects into a prompt) or ``top_k`` items. Each recall then
leaves a signal in the spool (``store/signals.py``) unless told not to.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.clock import format_time
from dreamgit.errors import UserError
from dreamgit.model import Memory
from dreamgit.recall.index import Candidate, RecallIndex, cached_index, stored_candidates, terms
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.settings import Settings, load_settings
from dreamgit.ruleset.context import memory_env
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import spool_signal
from dreamgit.textsim import similarity

__all__ = ["Hit", "RecallResult", "indexed_memories", "query_hash", "recall"]

#: BM25 candidates the weighting looks at, per result asked for (at least 50).
_CANDIDATES_PER_RESULT = 8


@dataclass
class Hit:
    """One recalled memory: its weighted score, relevance (0 to 1), BM25 score and group."""

    memory: Memory
    score: float
    relevance: float
    bm25: float
    group: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The hit as JSON values."""
        m = self.memory
        return {
            "id": m.id,
            "score": round(self.score, 6),
            "relevance": round(self.relevance, 6),
            "bm25": round(self.bm25, 6),
            "topic": m.topic,
            "type": m.type,
            "priority": m.priority,
            "path": m.path,
            "text": m.text,
            "group": self.group,
        }


@dataclass
class RecallResult:
    """What a recall returned, and whether it left a signal."""

    query: str
    hits: list[Hit]
    recorded: bool
    at: datetime

    @property
    def chars(self) -> int:
        """Characters of memory text returned."""
        return sum(len(h.memory.text) for h in self.hits)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON values (``recall --json``)."""
        return {
            "query": self.query,
            "at": format_time(self.at),
            "chars": self.chars,
            "recorded": self.recorded,
            "results": [h.to_dict() for h in self.hits],
        }


def query_hash(query: str) -> str:
    """The hash a signal keeps of a query: its terms, so rewordings of case and
    punctuation count as one query, and the query text itself is not stored."""
    return hashlib.sha1(" ".join(sorted(set(terms(query)))).encode("utf-8")).hexdigest()[:12]


def recall(
    repo: MemoryRepo,
    ask: RecallQuery,
    *,
    now: datetime,
    settings: Settings | None = None,
    at: str | None = None,
) -> RecallResult:
    """The active memories that answer ``ask``; see the module docstring.

    ``at`` answers from another commit than the main tip (a dream branch's, for tests).
    """
    query, top_k, chars = ask.text, ask.top_k, ask.chars
    if not query.strip():
        raise UserError("the recall query is empty", hint="give some words to look for")
    if top_k is not None and top_k < 1:
        raise UserError(f"--top-k must be at least 1, not {top_k}", hint="e.g. --top-k 5")
    if chars is not None and chars < 1:
        raise UserError(f"--chars must be at least 1, not {chars}", hint="e.g. --chars 1500")
    settings = settings or load_settings(repo)
    limit = top_k if top_k is not None else (None if chars is not None else settings.recall.top_k)
    q_terms = terms(query)
    wanted = max(50, _CANDIDATES_PER_RESULT * (limit or 8))
    found = _candidates(repo, at if at is not None else repo.tip(), q_terms, wanted, now)
    hits = _weigh(found, set(q_terms), settings, now)
    hits = [h for h in hits if _matches(h.memory, ask)]
    kept = _group_and_cut(hits, settings.recall.group_similarity, limit, chars)
    should_record = settings.recall.record if ask.record is None else ask.record
    if should_record:  # a recall that found nothing counts too: it measures the hit rate
        signal = {
            "at": format_time(now),
            "query": query_hash(query),
            "hits": [[h.memory.id, round(h.relevance, 6), round(h.bm25, 4)] for h in kept],
        }
        spool_signal(repo.store.git_dir, signal, now=now)
    return RecallResult(query, kept, bool(should_record), now)


def indexed_memories(repo: MemoryRepo, *, now: datetime, at: str | None) -> list[Memory]:
    """The active memories at ``at`` as recall holds them (cached with its index)."""
    return list(_index_at(repo, at, now).memories.values())


def _candidates(
    repo: MemoryRepo, tip: str | None, q_terms: list[str], wanted: int, now: datetime
) -> list[Candidate]:
    """BM25's best memories: from an index this process holds, else the persisted one,
    else one built here from the files."""
    index = cached_index(_index_key(repo, tip))
    if index is None:
        found = stored_candidates(repo, tip, q_terms, wanted, now)
        if found is not None:
            return found
        index = _index_at(repo, tip, now)
    return index.candidates(q_terms, wanted)


def _index_key(repo: MemoryRepo, tip: str | None) -> tuple[str, str]:
    # The memories and their counters, not the whole tree: a logged session or a
    # batch of signals leaves the index as it was.
    store = repo.store
    memories = (
        store.entry_id(tip, layout.MEMORIES.rstrip("/"))
        if repo.format.name == "dreamgit"
        else store.tree_id(tip)  # another agent's layout: any change may be a memory's
    )
    return (str(store.git_dir), f"{memories}:{store.entry_id(tip, layout.RECALL_COUNTERS)}")


def _index_at(repo: MemoryRepo, tip: str | None, now: datetime) -> RecallIndex:
    key = _index_key(repo, tip)
    index = cached_index(key)
    if index is None:
        index = cached_index(key, repo.snapshot(now=now, at=tip).memories)
    assert index is not None
    return index


def _weigh(
    found: list[Candidate], q_terms: set[str], settings: Settings, now: datetime
) -> list[Hit]:
    if not found:
        return []
    best = found[0][1]
    hits = []
    for memory, bm25 in found:
        doc_terms = set(terms(" ".join((memory.text, *memory.tags))))
        coverage = len(q_terms & doc_terms) / len(q_terms) if q_terms else 0.0
        relevance = coverage * bm25 / best if best > 0 else 0.0
        env = {**memory_env(memory, now), "relevance": relevance, "bm25": bm25}
        weight = float(settings.recall.weight.evaluate(env))
        hits.append(Hit(memory, weight, relevance, bm25))
    hits.sort(key=lambda h: (-h.score, -h.bm25, h.memory.id))
    return hits


def _matches(memory: Memory, ask: RecallQuery) -> bool:
    return (
        (ask.topic is None or memory.topic == ask.topic)
        and (ask.type is None or memory.type == ask.type)
        and (ask.scope is None or ask.scope in memory.tags or memory.topic == ask.scope)
    )


def _group_and_cut(
    hits: list[Hit], threshold: float, limit: int | None, chars: int | None
) -> list[Hit]:
    """Near-duplicates join the best hit they resemble; leaders fill the budget in order."""
    kept: list[Hit] = []
    used = 0
    for hit in hits:
        leader = next(
            (k for k in kept if similarity(k.memory.text, hit.memory.text) >= threshold), None
        )
        if leader is not None:
            leader.group.append(hit.memory.id)
            continue
        if chars is not None and used + len(hit.memory.text) > chars:
            continue  # a shorter, lower hit may still fit
        kept.append(hit)
        used += len(hit.memory.text)
        if limit is not None and len(kept) >= limit:
            break
    return kept
