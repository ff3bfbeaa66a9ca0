"""``diff [A] [B]``: how the memories differ between two states, memory by memory.

A side is a run id (the state right after that run: its last commit on the
dream branch), a run id with ``^`` (the state the run started from), or any git
revision (``main~3``, a commit id, a branch). Runs win over revisions when a
name is both; a unique prefix of a run id works when it is no revision. With
no A, the state before the newest run on main is used (``main~1`` when no run
is there); with no B, main. Memories are parsed at both commits and compared
by id with deepdiff: added, removed, and for each changed memory the fields
that changed with their old and new values.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from deepdiff import DeepDiff

from dreamgit.clock import format_time
from dreamgit.errors import NotFoundError
from dreamgit.history.asof import main_as_of
from dreamgit.history.runs import RunInfo, list_runs, match_run
from dreamgit.model import Memory
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["MemoryDiff", "Side", "memory_diff", "memory_state"]


@dataclass(frozen=True)
class Side:
    """One end of a diff: how the user named it, and the commit (None: nothing yet)."""

    label: str
    commit: str | None

    def to_json(self) -> dict[str, Any]:
        """The side as ``diff --json`` prints it."""
        return {"label": self.label, "commit": self.commit}


@dataclass
class MemoryDiff:
    """Memories added, removed and changed between two sides."""

    a: Side
    b: Side
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    #: ``{"id", "path", "fields": {name: {"old", "new"}}}`` per changed memory.
    changed: list[dict[str, Any]] = field(default_factory=list)
    #: Memory files that could not be read, per side.
    unreadable: dict[str, list[str]] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        """True when both sides hold the same memories."""
        return not (self.added or self.removed or self.changed)

    def to_json(self) -> dict[str, Any]:
        """The diff as ``diff --json`` prints it."""
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "added": self.added,
            "removed": self.removed,
            "changed": self.changed,
            "unreadable": self.unreadable,
        }


def memory_fields(memory: Memory) -> dict[str, Any]:
    """A memory as plain values, the unit the diff compares (its topic is in its path)."""
    fields = memory.to_dict()
    del fields["topic"]
    return fields


def memory_state(
    repo: MemoryRepo, commit: str | None, *, now: datetime
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Memories at ``commit`` by id, and the paths of files that could not be read."""
    snapshot = repo.snapshot(now=now, at=commit) if commit else None
    if snapshot is None:
        return {}, []
    state = {m.id: memory_fields(m) for m in snapshot.memories}
    return dict(sorted(state.items())), sorted(b.path for b in snapshot.broken)


def compare(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Added, removed and changed memories between two states keyed by id, read off one
    DeepDiff of the two states.

    ``threshold_to_diff_deeper=0`` makes DeepDiff name every memory and field however
    few ids the states share (by default it would report the whole state as one changed
    value); a number written as 1 on one side and 1.0 on the other is no change.
    """
    diff = DeepDiff(
        before,
        after,
        view="tree",
        threshold_to_diff_deeper=0,
        ignore_numeric_type_changes=True,
    )
    ids: dict[str, set[str]] = {"dictionary_item_added": set(), "dictionary_item_removed": set()}
    fields: dict[str, set[str]] = defaultdict(set)
    for kind, levels in diff.items():
        for level in levels:
            path = [str(step) for step in level.path(output_format="list")]
            if len(path) == 1 and kind in ids:  # a whole memory came or went
                ids[kind].add(path[0])
            elif len(path) == 1:  # a memory changed as a whole: name all its fields
                fields[path[0]].update(before[path[0]].keys() | after[path[0]].keys())
            else:  # a field of a memory on both sides, or something inside that field
                fields[path[0]].add(path[1])
    changed = [
        {
            "id": ident,
            "path": after[ident]["path"],
            "fields": {
                f: {"old": before[ident].get(f), "new": after[ident].get(f)} for f in sorted(names)
            },
        }
        for ident, names in sorted(fields.items())
    ]
    return {
        "added": [after[i] for i in sorted(ids["dictionary_item_added"])],
        "removed": [before[i] for i in sorted(ids["dictionary_item_removed"])],
        "changed": changed,
    }


def run_after(run: RunInfo) -> str | None:
    """The commit right after a run: its dream branch's tip, else its last operation."""
    if run.branch_tip:
        return run.branch_tip
    commits = [op.get("commit") for op in run.ops if op.get("commit")]
    return str(commits[-1]) if commits else run_before(run)


def run_before(run: RunInfo) -> str | None:
    """The commit a run started from."""
    base = run.record.get("base")
    return str(base) if base else None


def resolve_side(repo: MemoryRepo, token: str, runs: list[RunInfo]) -> Side:
    """A side from a run id, ``RUN^``, or a revision; NotFoundError when it is none of these."""
    name = token.removesuffix("^")
    run = next((r for r in runs if r.run_id == name), None)
    if run is None:
        try:
            return Side(token, repo.store.resolve(token))
        except (KeyError, ValueError):
            run = match_run(runs, name)
    if run is None:
        raise NotFoundError(
            f"{token!r} is neither a run nor a revision",
            hint="name a run (`dreamgit history` lists them; RUN^ is the state before it), "
            "a branch, a commit id, or something like main~2",
        )
    if token.endswith("^"):
        if run.record.get("base") is None and run.branch_tip and repo.tip():
            # A crashed run has no record: it started where its branch leaves main.
            return Side(f"{run.run_id}^", repo.store.merge_base(run.branch_tip, repo.tip() or ""))
        return Side(f"{run.run_id}^", run_before(run))
    commit = run_after(run)
    if commit is not None:
        try:
            repo.store.commit_info(commit)
        except (KeyError, ValueError):
            raise NotFoundError(
                f"run {run.run_id}'s commits are not in this repository",
                hint="was its branch squashed or rebased when merged? compare revisions instead",
            ) from None
    return Side(run.run_id, commit)


def default_a(repo: MemoryRepo, runs: list[RunInfo]) -> Side:
    """Before the newest run on main; else main's parent; else the empty state."""
    merged = [r for r in runs if r.on_main]
    if merged:
        return Side(f"{merged[0].run_id}^", run_before(merged[0]))
    tip = repo.tip()
    parents = repo.store.commit_info(tip).parents if tip else ()
    if parents:
        return Side(f"{layout.MAIN}~1", parents[0])
    return Side("(empty)", None)


def memory_diff(
    repo: MemoryRepo,
    a: str | None = None,
    b: str | None = None,
    *,
    now: datetime,
    since: datetime | None = None,
) -> MemoryDiff:
    """The memory diff between sides ``a`` and ``b`` (defaults in the module docstring).

    ``since`` makes side A main as it was at that time (``diff --since 7d``).
    """
    runs = list_runs(repo)
    if since is not None:
        side_a = Side(f"{repo.branch}@{format_time(since)}", main_as_of(repo, since))
    else:
        side_a = resolve_side(repo, a, runs) if a else default_a(repo, runs)
    side_b = resolve_side(repo, b, runs) if b else Side(repo.branch, repo.tip())
    before, broken_a = memory_state(repo, side_a.commit, now=now)
    after, broken_b = memory_state(repo, side_b.commit, now=now)
    result = MemoryDiff(side_a, side_b, **compare(before, after))
    result.unreadable = {k: v for k, v in (("a", broken_a), ("b", broken_b)) if v}
    return result
