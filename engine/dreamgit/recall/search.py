"""``recall``: the active memories that answer a query, weighted, grouped and cut to a budget.

BM25 over the memories' content words finds candidates (``recall/index.py``: from an
index this process holds, the derived store, or the files); ``recall/ranking.py``
weighs, groups and cuts them and leaves the recall's signal. A recall at the main tip
also keeps what it read of the commit (``recall/views.py``), so the next process can
answer it from the derived store without opening git (``recall/cached.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from dreamgit.model import Memory
from dreamgit.recall.index import Candidate, RecallIndex, cached_index, stored_candidates
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.ranking import Hit, RecallResult, answer, asked, check, query_hash
from dreamgit.recall.settings import Settings, load_settings, merged_sections
from dreamgit.recall.views import keep_view
from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["Hit", "RecallResult", "indexed_memories", "query_hash", "recall"]


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
    check(ask)
    settings = settings or load_settings(repo)
    question = asked(ask, settings.recall)
    tip = at if at is not None else repo.tip()
    found, tree = _candidates(repo, tip, question.terms, question.wanted, now)
    if at is None and tip is not None and tree is not None:
        # The next process answers this commit from the derived store alone.
        keep_view(repo, tip, tree, merged_sections(repo.config()))
    return answer(found, question, settings.recall, now=now, git_dir=repo.store.git_dir)


def indexed_memories(repo: MemoryRepo, *, now: datetime, at: str | None) -> list[Memory]:
    """The active memories at ``at`` as recall holds them (cached with its index)."""
    return list(_index_at(repo, at, now).memories.values())


def _candidates(
    repo: MemoryRepo, tip: str | None, q_terms: list[str], wanted: int, now: datetime
) -> tuple[list[Candidate], str | None]:
    """BM25's best memories: from an index this process holds, else the persisted one
    (with the id the derived store holds the memories under), else one built here."""
    index = cached_index(_index_key(repo, tip))
    if index is None:
        stored = stored_candidates(repo, tip, q_terms, wanted, now)
        if stored is not None:
            return stored
        index = _index_at(repo, tip, now)
    return index.candidates(q_terms, wanted), None


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
