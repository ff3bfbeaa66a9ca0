"""The runs a repository knows of, and what became of each: merged, reverted, or still waiting.

Runs are found in two places: the records ``.dreamgit/runs/<run-id>.json`` on
main (runs that were merged), and ``dream/*`` branches that main does not
contain (runs left for review, runs whose merge did not happen, and crashed
runs that never wrote a record). A merged run counts as reverted once every
operation commit that changed memories is undone by a revert commit on main,
whether dreamgit wrote it (``Dream-Reverts:``) or someone ran ``git revert``
(``This reverts commit <sha>.``); a revert that was itself reverted no longer
counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dreamgit import trailers as tr
from dreamgit.clock import format_time
from dreamgit.errors import NotFoundError, UserError
from dreamgit.gitstore import GitStore
from dreamgit.history.runrecords import read_runs
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.trailers import parse_trailers

__all__ = ["RunInfo", "find_run", "list_runs", "match_run", "revert_map"]

MERGED = "merged"
REVERTED = "reverted"
UNMERGED = "unmerged"
AWAITING = "awaiting review"
ABANDONED = "abandoned"
REFUSED = "refused"

#: Operations whose commits only rewrite generated files (the diary, the index).
GENERATED_OPS = frozenset({"diary", "index"})

_REVERTS = re.compile(r"^This reverts commit ([0-9a-f]{40})\.?\s*$", re.MULTILINE)


@dataclass(frozen=True)
class RunInfo:
    """One dream run as ``history`` shows it."""

    run_id: str
    status: str
    record: dict[str, Any]
    #: The ``dream/<run-id>`` branch and its tip, while the branch exists.
    branch: str | None = None
    branch_tip: str | None = None
    #: Operation number → the commit on main that reverted it.
    reverted: dict[int, str] = field(default_factory=dict)

    @property
    def date(self) -> str | None:
        """When the run ran (its ``--now``), as dreamgit writes times."""
        value = self.record.get("now")
        return str(value) if value else None

    @property
    def ops(self) -> list[dict[str, Any]]:
        """The run's operations as its record lists them (diary included)."""
        return [op for op in self.record.get("ops", []) if isinstance(op, dict)]

    @property
    def counts(self) -> dict[str, int]:
        """Operations by kind, in the order they first ran; the diary entry is not counted."""
        counts: dict[str, int] = {}
        for op in self.ops:
            if op.get("op") != "diary":
                counts[str(op["op"])] = counts.get(str(op["op"]), 0) + 1
        return counts

    @property
    def on_main(self) -> bool:
        """True when the run's record is on main (merged, reverted or not)."""
        return self.status in (MERGED, REVERTED)

    def to_json(self) -> dict[str, Any]:
        """The run as ``history --json`` prints it."""
        return {
            "run_id": self.run_id,
            "date": self.date,
            "status": self.status,
            "counts": self.counts,
            "memories_before": self.record.get("memories_before"),
            "memories_after": self.record.get("memories_after"),
            "branch": self.branch,
            "reverted_ops": sorted(self.reverted),
            "tests": self.tests,
        }

    @property
    def tests(self) -> dict[str, Any] | None:
        """The memory tests on the run's branch before it merged: passed, failed, new, broken
        names, held; None for a run that ran none."""
        tests = self.record.get("tests")
        if not isinstance(tests, dict):
            return None
        broken = [b.get("name") for b in tests.get("broken") or [] if isinstance(b, dict)]
        return {
            "passed": tests.get("passed", 0),
            "failed": tests.get("failed", 0),
            "new": tests.get("new", 0),
            "broken": broken,
            "held": bool(tests.get("held")),
        }


def revert_map(store: GitStore, main: str | None) -> dict[str, str]:
    """Commits that main undoes for good: reverted commit → the revert commit on main.

    A revert that a later commit reverted again is dropped, and so is what it
    had reverted (the change is back).
    """
    if main is None:
        return {}
    reverted_by: dict[str, str] = {}
    for info in store.walk(main):
        if "reverts commit" not in info.message and tr.REVERTS not in info.message:
            continue
        targets = set(_REVERTS.findall(info.message))
        target = parse_trailers(info.message).get(tr.REVERTS)
        if target:
            targets.add(target)
        for sha in targets:
            # The walk is newest first: the newest revert of a commit is the one that counts.
            reverted_by.setdefault(sha, info.id)
    settled: dict[str, bool] = {}

    def undone(sha: str) -> bool:
        if sha not in settled:
            settled[sha] = False  # a (forged) cycle of reverts ends here
            reverter = reverted_by.get(sha)
            settled[sha] = reverter is not None and not undone(reverter)
        return settled[sha]

    return {sha: by for sha, by in reverted_by.items() if undone(sha)}


def status_ops(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The operations that must be reverted for a run to count as reverted.

    Those that changed memories; for a run that only rewrote the index, the index.
    """
    ops = [op for op in record.get("ops", []) if isinstance(op, dict) and op.get("commit")]
    core = [op for op in ops if op.get("op") not in GENERATED_OPS]
    return core or [op for op in ops if op.get("op") != "diary"]


def _merged_run(record: dict[str, Any], reverts: dict[str, str]) -> RunInfo:
    reverted = {
        int(op["n"]): reverts[op["commit"]]
        for op in record.get("ops", [])
        if isinstance(op, dict) and op.get("commit") in reverts
    }
    needed = status_ops(record)
    done = bool(needed) and all(int(op["n"]) in reverted for op in needed)
    return RunInfo(
        run_id=str(record["run_id"]),
        status=REVERTED if done else MERGED,
        record=record,
        reverted=reverted,
    )


def refusal(store: GitStore, record: dict[str, Any], main: str | None) -> str | None:
    """Why a finished run's merge was refused, or None when it was not (or not yet).

    Its record says so when the run saw the refusal; a branch made from a main that was
    rewritten since (a redact, a forced push) can never merge, whether or not the run
    lived to write that down.
    """
    said = record.get("refused")
    if said:
        return str(said)
    base = record.get("base")
    if record.get("merge_requested", True) and isinstance(base, str) and main is not None:
        try:
            held = store.is_ancestor(base, main)
        except Exception:  # the base commit itself is gone (collected after a redact)
            held = False
        if not held:
            return (
                f"main was rewritten since the dream began (it no longer holds {base[:12]}: "
                "a redact or a forced push); nothing was merged"
            )
    return None


def _branch_run(store: GitStore, name: str, tip: str, main: str | None) -> RunInfo:
    run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
    found = [r for r in read_runs(store, tip) if r.get("run_id") == run_id]
    if not found:
        # A run that crashed before writing its record: date it by its last commit.
        when = format_time_of(store, tip)
        return RunInfo(run_id, ABANDONED, {"run_id": run_id, "now": when}, name, tip)
    record = found[0]
    why = refusal(store, record, main)
    if why is not None:
        status = REFUSED
        record = {**record, "refused": why}
    else:
        status = UNMERGED if record.get("merge_requested", True) else AWAITING
    return RunInfo(run_id, status, record, name, tip)


def format_time_of(store: GitStore, commit: str) -> str:
    """A commit's time, as dreamgit writes times."""
    return format_time(datetime.fromtimestamp(store.commit_info(commit).time, UTC))


def list_runs(repo: MemoryRepo) -> list[RunInfo]:
    """Every run on main or on an unmerged dream branch, newest first."""
    store = repo.store
    main = repo.tip()
    reverts = revert_map(store, main)
    runs = {str(r["run_id"]): _merged_run(r, reverts) for r in read_runs(store, main)}
    for name, tip in store.branches(layout.DREAM_BRANCH_PREFIX).items():
        run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
        if run_id in runs:
            merged = runs[run_id]
            runs[run_id] = RunInfo(run_id, merged.status, merged.record, name, tip, merged.reverted)
            continue
        if main is not None and store.is_ancestor(tip, main):
            continue  # merged by hand, its record since removed: nothing to show
        runs[run_id] = _branch_run(store, name, tip, main)
    return sorted(runs.values(), key=lambda r: (r.date or "", r.run_id), reverse=True)


def match_run(runs: list[RunInfo], ident: str) -> RunInfo | None:
    """The run whose id is ``ident`` or starts with it (if only one does); None when none."""
    exact = [r for r in runs if r.run_id == ident]
    if exact:
        return exact[0]
    matches = [r for r in runs if ident and r.run_id.startswith(ident)]
    if len(matches) > 1:
        names = ", ".join(r.run_id for r in matches)
        raise UserError(
            f"run {ident!r} is ambiguous: it could be {names}",
            hint="give more of the run id",
        )
    return matches[0] if matches else None


def find_run(repo: MemoryRepo, ident: str) -> RunInfo:
    """The run named by its id or a unique prefix of it; NotFoundError when none."""
    run = match_run(list_runs(repo), ident)
    if run is None:
        raise NotFoundError(f"no run {ident!r}", hint="list runs with `dreamgit history`")
    return run
