"""``status``'s health and problems from the derived store, without reading every memory.

The health figures (:mod:`dreamgit.dream.health`) look at every active memory: its
sources, its content words, and whether a prune rule would retire it now. What a
memory's file decides is derived once per blob and kept in the derived store beside
the file's row (``store/derived.py``'s facts): its sources, its content words as one
key, and its prune verdict when that verdict read nothing that moves with time or
with the recall counters (``priority == low and …`` is false for good for a normal
memory; ``age > 7d`` is not). Only memories whose verdict moves are read and judged
again, at ``now``. The store follows the tree by the diff, so after a write one file
is derived; broken files and second files of an id come from the store's rows with
the messages the files give. None when the store cannot serve: the caller reads the
files.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dreamgit.dream.health import prunable_rules, read_sessions, report_of
from dreamgit.dream.healthfacts import HealthRules, memory_figures
from dreamgit.errors import MemoryFileError
from dreamgit.ruleset import RuleSet
from dreamgit.store.repo import MemoryRepo

__all__ = ["stored_health"]


def stored_health(
    repo: MemoryRepo, rules: RuleSet, *, memories_at: str | None, at: str | None, now: datetime
) -> tuple[dict[str, Any], list[MemoryFileError]] | None:
    """(health report, broken memory files) as :func:`health_report` over the memories
    at ``memories_at`` and the files' own reading give them; the rest of the report is
    read at ``at``. None when the derived store cannot serve."""
    tree = repo.sync_derived(memories_at)
    if tree is None:
        return None
    prunable, tracked = prunable_rules(repo, rules, at)
    judge = HealthRules(prunable, tracked, rules.protected.topics, rules.protected.priorities)
    try:
        counters = repo.recall_counters(memories_at)
    except (KeyError, TypeError, ValueError):
        return None  # counters that do not read: the files' path says how
    found = memory_figures(
        repo.derived,
        tree,
        judge,
        sources_wanted=bool(read_sessions(repo, at)),
        counters=counters,
        now=now,
    )
    if found is None:
        return None
    figures, broken = found
    return report_of(repo, rules, figures, at=at), broken
