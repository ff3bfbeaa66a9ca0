"""What a run report holds, gathered once for the HTML page and the Markdown body.

The run (by id or prefix, default the newest) gives its operations grouped by kind,
each with its rule, a word diff of before → after and the session lines behind it;
its memory tests; ``MEMORY.md`` before and after in characters and estimated tokens.
The runs before it (the last N, default 30) give the series the charts draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit.errors import UserError
from dreamgit.history.memdiff import run_after, run_before
from dreamgit.history.runs import RunInfo, find_run, list_runs
from dreamgit.report.evidence import evidence_lines
from dreamgit.report.series import DEFAULT_RUNS, RunPoint, most_recalled, run_points
from dreamgit.report.tokens import estimate_tokens
from dreamgit.report.worddiff import Segment, word_diff
from dreamgit.ruleset.repo_rules import repo_ruleset
from dreamgit.store.repo import MemoryRepo

__all__ = ["OpView", "Report", "build_report"]

#: Operations shown with their diff and evidence; the rest are counted.
MAX_OPS = 200
#: The order kinds are shown in; others follow alphabetically.
_KIND_ORDER = ("add", "merge", "supersede", "replace", "reinforce", "prune", "index", "diary")


@dataclass(frozen=True)
class OpView:
    """One operation as the report shows it."""

    n: int
    op: str
    rule: str
    phase: str
    summary: str
    memories: list[str]
    diff: list[Segment]
    evidence: list[tuple[str, str]]


@dataclass(frozen=True)
class Report:
    """Everything one report shows."""

    run: RunInfo | None
    groups: dict[str, list[OpView]]
    hidden_ops: int
    points: list[RunPoint]
    budget_chars: int
    index_before: tuple[int, int]
    index_after: tuple[int, int]
    recalled: list[tuple[str, str, int]]
    tests: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        """The page's title."""
        return f"Dream run {self.run.run_id}" if self.run else "Dream report"


def build_report(
    repo: MemoryRepo, run_id: str | None, *, now: datetime, runs: int = DEFAULT_RUNS
) -> Report:
    """The report of run ``run_id`` (default: the newest run), charts over ``runs`` runs."""
    every = list_runs(repo)
    if run_id is not None:
        run: RunInfo | None = find_run(repo, run_id)
    else:
        run = every[0] if every else None
    if runs < 1:
        raise UserError(f"--runs must be at least 1, not {runs}", hint="e.g. --runs 30")
    upto = every[every.index(run) :] if run in every else every
    budget = repo_ruleset(repo).budgets.index_chars
    groups: dict[str, list[OpView]] = {}
    hidden = 0
    index_before = index_after = (0, 0)
    if run is not None:
        sessions = repo.session_paths(run_after(run))
        shown = [op for op in run.ops if op.get("op") != "record"]
        for op in shown[:MAX_OPS]:
            view = _op_view(repo, op, sessions)
            groups.setdefault(view.op, []).append(view)
        hidden = max(0, len(shown) - MAX_OPS)
        index_before = _index_size(repo, run_before(run))
        index_after = _index_size(repo, run_after(run))
    rank = {kind: i for i, kind in enumerate(_KIND_ORDER)}
    ordered = dict(sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))
    tests = run.record.get("tests") if run is not None else None
    return Report(
        run=run,
        groups=ordered,
        hidden_ops=hidden,
        points=run_points(repo, upto, limit=runs),
        budget_chars=budget,
        index_before=index_before,
        index_after=index_after,
        recalled=most_recalled(repo, now=now),
        tests=tests if isinstance(tests, dict) else None,
    )


def _op_view(repo: MemoryRepo, op: Mapping[str, Any], sessions: Mapping[str, str]) -> OpView:
    before = " ".join(str(s.get("text") or "") for s in op.get("before") or [])
    after = " ".join(str(s.get("text") or "") for s in op.get("after") or [])
    return OpView(
        n=int(op.get("n") or 0),
        op=str(op.get("op") or "?"),
        rule=str(op.get("rule") or ""),
        phase=str(op.get("phase") or ""),
        summary=str(op.get("summary") or ""),
        memories=[str(m) for m in op.get("memories") or []],
        diff=word_diff(before, after) if before or after else [],
        evidence=evidence_lines(repo, op, sessions),
    )


def _index_size(repo: MemoryRepo, commit: str | None) -> tuple[int, int]:
    text = repo.read_text(repo.format.index_path, commit) if commit else None
    return len(text or ""), estimate_tokens(text or "")
