"""``dreamgit status`` without git: from the view kept of HEAD's commit and the derived store.

A status reads of a commit its sessions, run records, rules, ``MEMORY.md`` and recall
files, which need git, and its memories, which the derived store holds. The full path
(:mod:`dreamgit.dream.status`) keeps the first kind per commit
(:mod:`dreamgit.dream.statusviews`); this path reads the commit HEAD's branch is at from
git's files (``store/headref.py``), that view, the dream branches (``store/leanrefs.py``,
which must be those the view saw) and the recall spool, counts the memories from the
derived store as the full path does (:func:`~dreamgit.dream.healthfacts.memory_figures`),
and judges the gate and the verdicts that move at ``now`` with the rules' texts compiled
again. In a repository with a work tree it answers only when the work tree holds the
committed files under the agent's paths (``store/leanworktree.py``, from git's index):
then the full path would count no uncommitted edit either. It answers None on any doubt
— no view, an edit or a staged change, other dream branches, a derived store at another
tree, a gate that fails — and the caller takes the full path. Same repository, same
commit, same time: the same report either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.dream.gate import evaluate_gate
from dreamgit.dream.healthfacts import HealthRules, memory_figures
from dreamgit.dream.healthparts import report_from
from dreamgit.dream.statusbranches import branches_by_state
from dreamgit.dream.statusviews import read_status_view
from dreamgit.dsl import Expression, compile_expression
from dreamgit.dsl.types import BOOL
from dreamgit.errors import DreamgitError
from dreamgit.ruleset.context import GATE_SCHEMA, MEMORY_SCHEMA
from dreamgit.store import layout
from dreamgit.store.derived import DerivedStore
from dreamgit.store.headref import read_head
from dreamgit.store.leanrefs import branches_under, says_bare, work_tree_of
from dreamgit.store.signals import read_spool
from dreamgit.version import __version__

__all__ = ["lean_status"]


class _Gate:
    """The gate as :func:`evaluate_gate` reads a rule set's (its text compiled again)."""

    def __init__(self, text: str | None) -> None:
        self.gate = None if text is None else compile_expression(text, GATE_SCHEMA, want=BOOL)
        self.gate_text = text
        self.gate_location: object | None = None


class _Prune:
    """A prune rule as health asks it: its condition."""

    __slots__ = ("when",)

    def __init__(self, text: str) -> None:
        self.when: Expression = compile_expression(text, MEMORY_SCHEMA, want=BOOL)


def lean_status(folder: Path, now: datetime) -> dict[str, Any] | None:
    """The status report of the repository at ``folder`` at ``now``, as
    :func:`dreamgit.dream.status.repo_status` gives it, or None when this path cannot be
    sure of it."""
    head = read_head(folder)
    if head is None:
        return None
    bare = says_bare(head.git_dir)
    work_tree = None if bare else work_tree_of(head.git_dir)
    if work_tree is None and not bare:
        return None
    view = read_status_view(head.git_dir, head.commit, head.branch)
    if view is None or (work_tree is not None) != ("agent_files" in view):
        return None
    try:
        return _report(view, head.git_dir, work_tree, head.commit, now)
    except (DreamgitError, KeyError, TypeError, ValueError):
        return None  # rules or a view that do not read: the full path says what is wrong


def _report(
    view: dict[str, Any], git_dir: Path, work_tree: Path | None, commit: str, now: datetime
) -> dict[str, Any] | None:
    if branches_under(git_dir, layout.DREAM_BRANCH_PREFIX) != view["refs"]:
        return None  # a dream branch came, went or moved since the view was kept
    kept = view["rules"]
    judge = HealthRules(
        tuple(_Prune(text) for text in kept["prune"]),
        kept["tracked"],
        tuple(kept["protected_topics"]),
        tuple(kept["protected_priorities"]),
    )
    derived = DerivedStore(git_dir)
    try:
        # git looks at the work tree's files in its own process while the facts are read.
        clean = None if work_tree is None else _clean(derived, view, git_dir, work_tree, commit)
        try:
            found = memory_figures(
                derived,
                view["tree"],
                judge,
                sources_wanted=bool(view["read"]),
                counters={},
                now=now,
            )
        finally:
            if clean is not None and not clean():  # asked even after an error: git is read
                found = None  # edits the full path counts (or may): it answers
    finally:
        derived.close()
    if found is None:
        return None
    figures, broken = found
    gate = view["gate"]
    last = gate["last_dream"]
    due, reason = evaluate_gate(
        _Gate(kept["gate"]),
        new_sessions=gate["new_sessions"],
        last_dream=None if last is None else parse_time(last),
        memories=gate["memories"],
        pending_chars=gate["pending_chars"],
        now=now,
    )
    health = report_from(
        figures,
        read=view["read"],
        index_chars=view["index_chars"],
        budget=kept["index_budget"],
        totals=view["totals"],
    )
    report = dict(view["report"])
    tracking = dict(report["recall_tracking"])
    tracking["signals_waiting"] = len(read_spool(git_dir)) + view["signal_batches"]
    states = [(name, state, why) for name, state, why in view["states"]]
    report.update(
        uncommitted={"memories": 0, "sessions": 0},
        due=due,
        reason=reason,
        head=commit,
        recall_tracking=tracking,
        health=health,
        problems=[problem.render() for problem in broken],
        **branches_by_state(states, dreaming=False),
    )
    return report


def _clean(
    derived: DerivedStore, view: dict[str, Any], git_dir: Path, work_tree: Path, commit: str
) -> Callable[[], bool]:
    """Whether the work tree holds the commit's files under the agent's paths (asked of
    the call returned, which must be made: git may be looking meanwhile): the memories
    the derived store lists at the view's tree, and the other files the view kept
    (``agent_files``), listed only when the index is not one found to stage them before
    (named by those two, the paths and this dreamgit's version)."""
    tree, others, paths = view["tree"], view["agent_files"], tuple(view["agent_paths"])

    def files() -> dict[str, str] | None:
        memories = derived.blobs(tree)
        return None if memories is None else {**memories, **others}

    # Only a work tree's status looks at git's index and asks git's status (a bare
    # repository's does not import them: the subprocess module alone is ~8 ms of CPU).
    import hashlib

    from dreamgit.store.leanworktree import Committed, start_work_tree_check

    named = json.dumps([__version__, tree, sorted(others.items()), paths], ensure_ascii=True)
    key = hashlib.sha256(named.encode()).hexdigest()
    committed = Committed(key, len(tree) // 2, files, commit)
    return start_work_tree_check(git_dir, work_tree, paths, committed)
