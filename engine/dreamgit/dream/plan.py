"""The one planning function ``review``, ``run`` and ``compact`` share.

It reads the main tip once, builds the working set, and runs the phases in
order (gather → consolidate → prune → index), each seeing what the previous
planned. Nothing is written here; :mod:`dreamgit.dream.apply` commits the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.dream.candidate import Candidate
from dreamgit.dream.consolidate.duplicates import DEFAULT_THRESHOLD
from dreamgit.dream.consolidate.phase import plan_consolidate
from dreamgit.dream.gather.phase import plan_gather
from dreamgit.dream.index import (
    CLAUDE_INDEX_LINES,
    is_generated,
    render_agent_index,
    render_index,
)
from dreamgit.dream.limits import Budget
from dreamgit.dream.llm_phase import LLMRun, llm_candidates, llm_consolidate
from dreamgit.dream.ordering import index_key
from dreamgit.dream.prune import plan_prune
from dreamgit.dream.status import pending_sessions
from dreamgit.dream.workset import Deferred, Operation, WorkingSet
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory, Session
from dreamgit.records import Decision
from dreamgit.ruleset import RuleSet
from dreamgit.store.repo import MemoryRepo

__all__ = ["Plan", "plan_dream"]


@dataclass
class Plan:
    """Everything one dream would do, computed from one commit of main."""

    base: str | None
    ops: list[Operation]
    sessions: list[str]
    memories_before: int
    memories_after: int
    deferred: list[Deferred] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    broken: list[MemoryFileError] = field(default_factory=list)
    #: What the model was asked and answered, with the budget spent (None without an LLM).
    llm: dict[str, Any] | None = None

    @property
    def is_empty(self) -> bool:
        """True when the dream would change nothing (no operation, no session consumed)."""
        return not self.ops and not self.sessions


def _sessions(
    repo: MemoryRepo, base: str | None, now: datetime
) -> tuple[list[Session], list[MemoryFileError]]:
    found, broken = [], []
    for ident, path in sorted(pending_sessions(repo, base).items()):
        text = repo.read_text(path, base) or ""
        try:
            found.append(repo.format.read_session(ident, path, text, now))
        except MemoryFileError as exc:
            broken.append(exc)
    return found, broken


def plan_dream(
    repo: MemoryRepo,
    ruleset: RuleSet,
    *,
    now: datetime,
    gather: bool = True,
    at: str | None = None,
    llm: LLMRun | None = None,
) -> Plan:
    """Plan a dream against main's tip, or the commit ``at`` (``gather=False``: compact only).

    With ``llm``, the model's proposals join the deterministic ones, judged by the rules.
    """
    base = at if at is not None else repo.tip()
    snapshot = repo.snapshot(now=now, at=base)
    fmt = repo.format
    ws = WorkingSet(
        snapshot.memories,
        lambda path: repo.read_text(path, base) or "",
        fmt,
        files=repo.store.files(base) if fmt.name != "dreamgit" else (),
    )
    before_paths = set(ws.paths)
    limits = ruleset.limits
    budget = Budget(
        limits.max_changes_per_run, limits.max_adds_per_run, limits.max_new_chars_per_run
    )
    # The finder's floor; the merge rules decide among the pairs it proposes.
    threshold = DEFAULT_THRESHOLD
    ops: list[Operation] = []
    decisions: list[Decision] = []
    consumed: list[str] = []
    broken = list(snapshot.broken)
    fresh: list[tuple[Memory, Candidate]] = []
    if gather:
        sessions, unreadable = _sessions(repo, base, now)
        broken += unreadable
        proposed, waiting = (
            llm_candidates(llm, ws, sessions, ruleset, now=now, budget=budget)
            if llm is not None
            else ([], set())
        )
        gathered = plan_gather(
            ws,
            sessions,
            ruleset,
            now=now,
            budget=budget,
            threshold=threshold,
            proposed=proposed,
            model=llm.adapter.model if llm is not None else None,
        )
        ops += gathered.ops
        decisions += gathered.decisions
        consumed = [s for s in gathered.consumed if s not in waiting]
        fresh = gathered.fresh
    consolidated = plan_consolidate(
        ws, ruleset, now=now, budget=budget, threshold=threshold, fresh=fresh
    )
    ops += consolidated.ops
    decisions += consolidated.decisions
    consumed = [s for s in consumed if s not in consolidated.unsettled]
    if llm is not None:
        touched = {i for op in ops for i in op.memories if i in ws.active}
        ops += llm_consolidate(llm, ws, ruleset, now=now, budget=budget, touched=touched)
        decisions += llm.decisions
    ops += plan_prune(ws, ruleset, now=now, budget=budget)
    index = _index_op(repo, base, ws, ruleset, now, gone=before_paths - ws.paths)
    if index is not None and (ops or consumed or index.changes):
        ops.append(index)
    return Plan(
        base=base,
        ops=ops,
        sessions=consumed,
        memories_before=len(snapshot.memories),
        memories_after=len(ws.active),
        deferred=budget.deferred,
        decisions=decisions,
        broken=broken,
        llm=llm.to_record() if llm is not None else None,
    )


def _index_op(
    repo: MemoryRepo,
    base: str | None,
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    *,
    gone: set[str],
) -> Operation | None:
    budgets = ruleset.budgets
    fmt = ws.format
    existing = repo.read_text(fmt.index_path, base) if fmt.index_path else None
    if fmt.index_style == "dreamgit" and (existing is None or is_generated(existing)):
        result = render_index(
            list(ws.active.values()),
            order=index_key(ruleset, now),
            index_chars=budgets.index_chars,
            index_line_chars=budgets.index_line_chars,
        )
    elif fmt.index_style:
        # An index someone wrote (Claude Code's, or a hand-made one adopted into
        # dreamgit's layout): their lines stay, dreamgit's go inside a fence.
        limit = next((b for b in fmt.budgets() if b.path == fmt.index_path), None)
        result = render_agent_index(
            existing,
            list(ws.active.values()),
            order=index_key(ruleset, now),
            index_line_chars=budgets.index_line_chars,
            gone=gone,
            max_lines=(limit.lines if limit else None) or CLAUDE_INDEX_LINES,
            max_bytes=(limit.chars if limit else None) or budgets.index_chars,
        )
    else:
        return None
    if existing == result.text:
        return None
    omitted = f", {len(result.omitted)} left out for the budget" if result.omitted else ""
    return Operation(
        op="index",
        phase="index",
        rule="index",
        memories=[],
        summary=f"index: {fmt.index_path} lists {len(result.included)} memories{omitted}",
        changes={fmt.index_path: result.text.encode("utf-8")},
    )
