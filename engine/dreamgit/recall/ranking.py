"""Ranking BM25's candidates into a recall's answer: weighted, filtered, grouped, cut.

Both ways a recall finds its candidates end here: the full path through the
repository (:mod:`dreamgit.recall.search`) and the cached path that opens no git
repository (:mod:`dreamgit.recall.cached`), so both give the same answer. The rule
set's ``recall.weight`` orders the candidates (relevance, priority, freshness, earlier
recalls: Daydreams' weighting, as data); results whose texts are near duplicates are
grouped under the best of them; the list is cut to ``chars`` (what an agent injects into
a prompt) or ``top_k`` items; the recall then leaves a signal in the spool
(``store/signals.py``) unless told not to. Imports nothing that opens git.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from dreamgit.clock import format_time
from dreamgit.errors import UserError
from dreamgit.model import Memory
from dreamgit.recall.index import Candidate, terms
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.weighting import RecallSettings
from dreamgit.store.signals import spool_signal
from dreamgit.textsim import similarity

__all__ = ["Asked", "Hit", "RecallResult", "answer", "asked", "check", "query_hash"]

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
    import hashlib  # only when a signal is kept: its import costs a recall ~4 ms

    return hashlib.sha1(" ".join(sorted(set(terms(query)))).encode("utf-8")).hexdigest()[:12]


class Asked(NamedTuple):
    """A checked query: what was asked, its terms, the most results, how many candidates."""

    ask: RecallQuery
    terms: list[str]
    limit: int | None
    wanted: int


def check(ask: RecallQuery) -> None:
    """Raise a UserError naming what is wrong with ``ask`` (before any settings are read)."""
    query, top_k, chars = ask.text, ask.top_k, ask.chars
    if not query.strip():
        raise UserError("the recall query is empty", hint="give some words to look for")
    if top_k is not None and top_k < 1:
        raise UserError(f"--top-k must be at least 1, not {top_k}", hint="e.g. --top-k 5")
    if chars is not None and chars < 1:
        raise UserError(f"--chars must be at least 1, not {chars}", hint="e.g. --chars 1500")


def asked(ask: RecallQuery, settings: RecallSettings) -> Asked:
    """``ask`` checked, with its terms and limits under ``settings``."""
    check(ask)
    top_k, chars = ask.top_k, ask.chars
    limit = top_k if top_k is not None else (None if chars is not None else settings.top_k)
    wanted = max(50, _CANDIDATES_PER_RESULT * (limit or 8))
    return Asked(ask, terms(ask.text), limit, wanted)


def answer(
    found: list[Candidate],
    asked: Asked,
    settings: RecallSettings,
    *,
    now: datetime,
    git_dir: Path,
) -> RecallResult:
    """The answer from BM25's candidates; the signal goes to ``git_dir``'s spool."""
    ask = asked.ask
    hits = _weigh(found, set(asked.terms), settings, now)
    hits = [h for h in hits if _matches(h.memory, ask)]
    kept = _group_and_cut(hits, settings.group_similarity, asked.limit, ask.chars)
    should_record = settings.record if ask.record is None else ask.record
    if should_record:  # a recall that found nothing counts too: it measures the hit rate
        signal = {
            "at": format_time(now),
            "query": query_hash(ask.text),
            "hits": [[h.memory.id, round(h.relevance, 6), round(h.bm25, 4)] for h in kept],
        }
        spool_signal(git_dir, signal, now=now)
    return RecallResult(ask.text, kept, bool(should_record), now)


def _weigh(
    found: list[Candidate], q_terms: set[str], settings: RecallSettings, now: datetime
) -> list[Hit]:
    if not found:
        return []
    best = found[0][1]
    hits = []
    for memory, bm25, held in found:
        # ``held``: the query's distinct terms among the memory's text and tags.
        coverage = held / len(q_terms) if q_terms else 0.0
        relevance = coverage * bm25 / best if best > 0 else 0.0
        hits.append(Hit(memory, settings.weight(memory, now, relevance, bm25), relevance, bm25))
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
