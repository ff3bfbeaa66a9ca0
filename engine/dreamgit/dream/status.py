"""What ``dreamgit status`` reports: counts, pending sessions, the last run, and the gate.

Counts come from the tree listing and the run records; the health figures and the
memory files that do not read come from the derived store
(:mod:`dreamgit.dream.healthstore`), so on a large repository only what changed
since the store last moved is read (the work tree's uncommitted edits included).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import format_time
from dreamgit.dream.gate import evaluate_gate
from dreamgit.dream.health import health_report
from dreamgit.dream.healthstore import stored_health
from dreamgit.errors import MemoryFileError
from dreamgit.gitstore.locks import is_held
from dreamgit.history.branches import held_sessions
from dreamgit.history.runrecords import consumed_sessions, last_run_time, read_runs
from dreamgit.history.runs import refusal
from dreamgit.recall.fold import recall_tracking
from dreamgit.ruleset import RuleSet
from dreamgit.store import layout
from dreamgit.store.formats import Source
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import session_id_from_path

__all__ = [
    "dream_branches",
    "dream_lock_path",
    "gate_figures",
    "pending_sessions",
    "repo_status",
    "uncommitted_edits",
]


def pending_sessions(repo: MemoryRepo, commit: str | None) -> dict[str, str]:
    """Session id → path of sessions no recorded run has gathered yet."""
    consumed = consumed_sessions(read_runs(repo.store, commit))
    return {i: p for i, p in repo.session_paths(commit).items() if i not in consumed}


def dream_branches(repo: MemoryRepo) -> dict[str, Any]:
    """Unmerged dream branches: awaiting review, refused (its merge was, ``refused`` says
    why), abandoned (a crashed run), or running now."""
    main = repo.tip()
    awaiting, abandoned, running = [], [], []
    refused: list[dict[str, str]] = []
    dreaming = is_held(dream_lock_path(repo))
    for name, tip in repo.store.branches(layout.DREAM_BRANCH_PREFIX).items():
        if main is not None and repo.store.is_ancestor(tip, main):
            continue
        run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
        records = [r for r in read_runs(repo.store, tip) if r.get("run_id") == run_id]
        why = refusal(repo.store, records[0], main) if records else None
        if why is not None:
            refused.append({"branch": name, "reason": why})
        elif records and not records[0].get("merge_requested", True):
            awaiting.append(name)
        elif dreaming and not records:
            running.append(name)
        else:
            abandoned.append(name)
    return {
        "awaiting_review": awaiting,
        "refused": refused,
        "abandoned": abandoned,
        "running": running,
    }


def uncommitted_edits(repo: MemoryRepo) -> dict[str, int]:
    """Files an agent changed in the work tree and nobody committed yet, by kind.

    ``memories`` counts new, changed and deleted memory files (as the repository's
    format knows them), ``sessions`` those under ``sessions/``; the next dreamgit
    command that writes commits them as agent edits.
    """
    if repo.store.checked_out_branch() != repo.branch:
        return {"memories": 0, "sessions": 0}
    fmt = repo.format
    edits = repo.store.worktree_edits(fmt.agent_paths)
    return {
        "memories": sum(1 for p in edits if fmt.memory_path(p)),
        "sessions": sum(1 for p in edits if p.startswith(layout.SESSIONS)),
    }


def dream_lock_path(repo: MemoryRepo) -> Path:
    """The lock a running dream holds, so only one dreams at a time."""
    return repo.store.git_dir / "dreamgit" / "dream.lock"


def gate_figures(
    repo: MemoryRepo,
    commit: str | None,
    *,
    held: set[str] | frozenset[str] = frozenset(),
    source: Source | None = None,
) -> dict[str, Any]:
    """What the gate looks at, from the tree listing and run records at ``commit``.

    Sessions in ``held`` (gathered by a dream branch awaiting review) are not new:
    that branch owns them. ``source``: ``commit``'s files, when the caller listed them.
    """
    source = source or repo.source(commit)
    files = source.files
    pending = {i: p for i, p in pending_sessions(repo, commit).items() if i not in held}
    return {
        "new_sessions": len(pending),
        "last_dream": last_run_time(read_runs(repo.store, commit)),
        "memories": repo.format.count(source),
        "pending_chars": sum(len(repo.store.read(files[p])) for p in pending.values()),
    }


def repo_status(repo: MemoryRepo, *, now: datetime) -> dict[str, Any]:
    """The status report as a plain dict (what ``status --json`` prints)."""
    from dreamgit.ruleset.repo_rules import repo_ruleset

    repo.require_initialised()
    tip = repo.tip()
    source = repo.source(tip)  # the tree is listed once: 10,000 memories cost ~15 ms a walk
    files = source.files
    fmt = repo.format
    # The work tree as the next write will commit it: fixed files read as fixed, and
    # files that do not read are named, not counted.
    preview = repo.preview_agent_edits(now)
    rules = repo_ruleset(repo)
    health, broken, topics = _memories_health(repo, rules, preview, tip, now=now)
    if fmt.name == "dreamgit":  # one pass over 10,000 paths, the cheap test first
        topics = sorted(
            {p.split("/")[1] for p in files if p.count("/") == 2 and fmt.memory_path(p)}
        )
    sessions = (
        list(repo.session_paths(tip))
        if fmt.name != "dreamgit"
        else [p for p in files if p.startswith(layout.SESSIONS) and session_id_from_path(p)]
    )
    runs = read_runs(repo.store, tip)
    held = held_sessions(repo)
    figures = gate_figures(repo, tip, held=held, source=source)
    due, reason = evaluate_gate(rules, **figures, now=now)
    last = figures["last_dream"]
    return {
        "memories": figures["memories"],
        "format": fmt.name,
        "branch": repo.branch,
        "topics": topics,
        "sessions": len(sessions),
        "pending_sessions": figures["new_sessions"],
        "held_sessions": len(held & set(pending_sessions(repo, tip))),
        "uncommitted": uncommitted_edits(repo),
        "last_run": format_time(last) if last else None,
        "runs": len(runs),
        "due": due,
        "reason": reason,
        "head": tip,
        "recall_tracking": recall_tracking(repo, tip),
        "health": health,
        "problems": [problem.render() for problem in [*broken, *repo.left_out]],
        **dream_branches(repo),
    }


def _memories_health(
    repo: MemoryRepo, rules: RuleSet, preview: str | None, tip: str | None, *, now: datetime
) -> tuple[dict[str, Any], list[MemoryFileError], list[str]]:
    """(health, memory files that do not read, topics of the memories read) at
    ``preview``: from the derived store when it can serve (no topics: the caller has
    them from the listing), else by reading every memory."""
    if repo.format.name == "dreamgit":
        stored = stored_health(repo, rules, memories_at=preview, at=tip, now=now)
        if stored is not None:
            return stored[0], stored[1], []
    snapshot = repo.snapshot(now=now, at=preview)
    health = health_report(repo, rules, snapshot.memories, at=tip, now=now)
    return health, list(snapshot.broken), sorted({m.topic for m in snapshot.memories})
