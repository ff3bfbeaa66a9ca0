"""Recall without opening git: from the derived store, when it holds HEAD's commit.

An agent's hook recalls at every prompt, so ``dreamgit recall`` as a process must cost
little more than Python's start. This path reads the commit HEAD's branch is at from
git's files (``store/headref.py``, no libgit2), the view a full recall kept of that
commit (``recall/views.py``: the derived store's id of its memories, its recall
counters, its merged recall sections) and BM25's postings and records from the derived
store (``store/derived.py``), and ranks them as the full path does
(``recall/ranking.py``). It answers None on any doubt — no view of that commit, a
view of another branch, a database that cannot be read, a derived store that holds
another tree — and the caller then takes the full path, which keeps the view for the
next process. Same repository, same commit: the same answer either way.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from dreamgit.recall.index import as_candidates, search_stored
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.ranking import RecallResult, answer, asked
from dreamgit.recall.views import counters_of, read_view
from dreamgit.recall.weighting import compiled_recall
from dreamgit.store.derived import DerivedStore
from dreamgit.store.headref import read_head
from dreamgit.store.signals import with_recalls

__all__ = ["cached_recall"]


def cached_recall(folder: Path, ask: RecallQuery, *, now: datetime) -> RecallResult | None:
    """The answer to ``ask`` at the tip of HEAD's branch in the repository at ``folder``,
    from the derived store alone; None when this path cannot be sure of it."""
    head = read_head(folder)
    if head is None:
        return None
    view = read_view(head.git_dir, head.commit)
    if view is None or view.branch != head.branch:
        return None
    settings = compiled_recall(view.sections)
    question = asked(ask, settings)  # a bad query: the full path's error, word for word
    derived = DerivedStore(head.git_dir)
    try:
        found = search_stored(derived, view.tree, question.terms, question.wanted)
        if found is None:
            return None  # the derived store moved to another tree
        plain = as_candidates(found, {}, now)
        counters = counters_of(head.git_dir, view.counters, [m.id for m, _, _ in plain])
    except sqlite3.Error:
        return None
    finally:
        derived.close()
    candidates = [(with_recalls(m, counters.get(m.id)), score, held) for m, score, held in plain]
    return answer(candidates, question, settings, now=now, git_dir=head.git_dir)
