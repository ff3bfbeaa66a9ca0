"""The shapes of what a dream records: its operations, decisions and run record.

A run record is written as JSON to ``.dreamgit/runs/<run-id>.json``, returned by
``dream()`` and ``DreamEngine.dream()`` and printed by ``run --json``; these
TypedDicts are its one description, so mypy checks every writer and every
reader of a fresh record against the same keys. Records read back from history
(``history.runrecords``) may come from older versions or crashed runs: they stay
plain dicts, read with ``.get``.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = ["Decision", "DeferredRecord", "MemorySnap", "OpRecord", "ReplacedBranch", "RunRecord"]


class MemorySnap(TypedDict):
    """A memory as an operation's ``before``/``after`` shows it."""

    id: str
    text: str
    path: str


class OpRecord(TypedDict):
    """One operation of a run, as committed on the dream branch."""

    n: int
    op: str
    phase: str
    rule: str
    memories: list[str]
    commit: str | None
    summary: str
    before: list[MemorySnap]
    after: list[MemorySnap]
    source: str
    model: NotRequired[str]
    detail: NotRequired[str]


class DeferredRecord(TypedDict):
    """An operation a run's limits left for a later run."""

    op: str
    rule: str
    memories: list[str]
    reason: str


class Decision(TypedDict, total=False):
    """Something the rules refused or skipped, and why (every key but ``reason`` optional)."""

    phase: str
    accepted: bool
    reason: str
    memories: list[str]
    candidate: str
    session: str
    proposal: dict[str, Any]
    group: str


class ReplacedBranch(TypedDict):
    """A dream branch awaiting review that a newer run replaced, and where it pointed."""

    branch: str
    tip: str


class RunRecord(TypedDict):
    """What one dream did: the same dict for ``run --json``, the API and the stored record."""

    run_id: str | None
    branch: str | None
    now: str
    applied: bool
    merged: bool
    skipped: bool
    reason: str
    memories_before: int
    memories_after: int
    sessions: list[str]
    counts: dict[str, int]
    ops: list[OpRecord]
    deferred: list[DeferredRecord]
    decisions: list[Decision]
    broken: list[str]
    base: NotRequired[str | None]
    merge_requested: NotRequired[bool]
    merge: NotRequired[str]
    refused: NotRequired[str]
    hooks_skipped: NotRequired[list[str]]
    resumed: NotRequired[list[str]]
    replaced: NotRequired[list[ReplacedBranch]]
    llm: NotRequired[dict[str, Any]]
    #: Recall signals this run folded into the counters: signals, hits, memories.
    recall: NotRequired[dict[str, int]]
    #: The memory's health when the run was planned (dream/health.py): score and parts.
    health: NotRequired[dict[str, Any]]
    #: Older sessions read again because health was low.
    reread: NotRequired[list[str]]
    #: The memory tests on the branch before it merged (report/gate.py): passed, failed,
    #: new, broken (passed on main, fail here), held (left for review because of them).
    tests: NotRequired[dict[str, Any]]
