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

from dreamgit.clock import format_time, parse_time
from dreamgit.dream.gate import evaluate_gate
from dreamgit.dream.health import health_report, prunable_rules, read_sessions
from dreamgit.dream.healthparts import recent_read
from dreamgit.dream.healthstore import stored_health
from dreamgit.dream.statusbranches import branches_by_state
from dreamgit.dream.statusviews import agent_files, keep_status_view
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
from dreamgit.store.signals import parse_totals

__all__ = [
    "branch_states",
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
    return branches_by_state(branch_states(repo), dreaming=is_held(dream_lock_path(repo)))


def branch_states(repo: MemoryRepo) -> list[tuple[str, str, str | None]]:
    """Each unmerged dream branch as (name, state, why refused): ``refused``,
    ``awaiting`` (review), ``unrecorded`` (no run record: running, or abandoned when no
    dream runs now) or ``abandoned``."""
    main = repo.tip()
    states: list[tuple[str, str, str | None]] = []
    for name, tip in repo.store.branches(layout.DREAM_BRANCH_PREFIX).items():
        if main is not None and repo.store.is_ancestor(tip, main):
            continue
        run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
        records = [r for r in read_runs(repo.store, tip) if r.get("run_id") == run_id]
        why = refusal(repo.store, records[0], main) if records else None
        if why is not None:
            states.append((name, "refused", why))
        elif records and not records[0].get("merge_requested", True):
            states.append((name, "awaiting", None))
        else:
            states.append((name, "abandoned" if records else "unrecorded", None))
    return states


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
    health, broken, topics, stored = _memories_health(repo, rules, preview, tip, now=now)
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
    states = branch_states(repo)
    report = {
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
        **branches_by_state(states, dreaming=is_held(dream_lock_path(repo))),
    }
    if stored and preview == tip and tip is not None:
        _keep_view(repo, rules, tip, report, figures, states)
    return report


def _keep_view(
    repo: MemoryRepo,
    rules: RuleSet,
    tip: str,
    report: dict[str, Any],
    figures: dict[str, Any],
    states: list[tuple[str, str, str | None]],
) -> None:
    """Keep what this status read of ``tip`` for the lean path
    (:mod:`dreamgit.dream.statusviews`), where it can answer alike: a repository of
    dreamgit's own format on HEAD's branch, no recall counters (the lean path does not
    read them), no dream branch whose state depends on a running dream, and a last
    dream time that survives its text. With a work tree, the committed files under the
    agent's paths besides the memories are kept too: the lean path answers only where
    the work tree holds exactly those (and the memories the derived store lists)."""
    store = repo.store
    last = figures["last_dream"]
    if (
        repo.format.name != "dreamgit"
        or store.head_branch() != repo.branch
        or any(state == "unrecorded" for _name, state, _why in states)
        or repo.recall_counters(tip)
        or (last is not None and parse_time(format_time(last)) != last)
    ):
        return
    prunable, tracked = prunable_rules(repo, rules, tip)
    data = {
        "tree": store.entry_id(tip, layout.MEMORIES.rstrip("/")) or "none",
        "report": report,
        "gate": {**figures, "last_dream": None if last is None else format_time(last)},
        "read": recent_read(read_sessions(repo, tip)),
        "index_chars": len(repo.read_text(layout.INDEX, tip) or ""),
        "totals": parse_totals(repo.read_text(layout.RECALL_COUNTERS, tip)),
        "rules": {
            "gate": rules.gate_text,
            "prune": [rule.when.text for rule in prunable],
            "tracked": tracked,
            "protected_topics": list(rules.protected.topics),
            "protected_priorities": [str(p) for p in rules.protected.priorities],
            "index_budget": rules.budgets.index_chars,
        },
        "refs": store.branches(layout.DREAM_BRANCH_PREFIX),
        "states": [list(state) for state in states],
        "signal_batches": len(store.files(tip, layout.RECALL_SIGNALS)),
    }
    if store.workdir is not None:
        data["agent_paths"] = list(repo.format.agent_paths)
        data["agent_files"] = agent_files(repo.format.agent_paths, store.files(tip))
    keep_status_view(store.git_dir, tip, repo.branch, data)


def _memories_health(
    repo: MemoryRepo, rules: RuleSet, preview: str | None, tip: str | None, *, now: datetime
) -> tuple[dict[str, Any], list[MemoryFileError], list[str], bool]:
    """(health, memory files that do not read, topics of the memories read, whether the
    derived store answered) at ``preview``: from the derived store when it can serve (no
    topics: the caller has them from the listing), else by reading every memory."""
    if repo.format.name == "dreamgit":
        stored = stored_health(repo, rules, memories_at=preview, at=tip, now=now)
        if stored is not None:
            return stored[0], stored[1], [], True
    snapshot = repo.snapshot(now=now, at=preview)
    health = health_report(repo, rules, snapshot.memories, at=tip, now=now)
    topics = sorted({m.topic for m in snapshot.memories})
    return health, list(snapshot.broken), topics, False
