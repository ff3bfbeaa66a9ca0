"""The shapes of what a dream records: its operations, decisions and run record.

A run record is written as JSON to ``.dreamgit/runs/<run-id>.json``, returned by
``dream()`` and ``DreamEngine.dream()`` and printed by ``run --json``; these
TypedDicts are its one description, so mypy checks every writer and every
reader of a fresh record against the same keys. Records read back from history
(``history.runrecords``) may come from older versions or crashed runs: they stay
plain dicts, read with ``.get``. :class:`DreamResult` is the typed face the API gives
a fresh record: each of its fields is a required key of ``RunRecord``, copied by name.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, NotRequired, TypedDict

__all__ = [
    "Decision",
    "DeferredRecord",
    "DreamResult",
    "MemorySnap",
    "OpRecord",
    "ReplacedBranch",
    "RunRecord",
]


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
    """An operation a run's limits left for a later run (``more``: how many more of the
    same kind, rule and reason were deferred without being listed)."""

    op: str
    rule: str
    memories: list[str]
    reason: str
    more: NotRequired[int]


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


@dataclass(frozen=True)
class DreamResult(Mapping[str, Any]):
    """What ``DreamEngine.dream()`` returns: the run record's verdict as typed fields.

    ``result.skipped`` is True when the gate said no dream was due, and
    ``result.reason`` then says why (``gate not met (…): 1 new session(s), …``);
    ``result.changed`` is True only when the dream made operations. :meth:`to_dict`
    is the record itself, exactly what ``run --json`` prints, and every key of it
    stays readable as ``result["ops"]`` (the result is a read-only mapping).
    """

    #: The run's id, None when nothing was committed.
    run_id: str | None
    #: The dream branch, None when none was made.
    branch: str | None
    #: The run's time, as ``2026-11-22T03:00:00Z``.
    now: str
    #: True when the operations were committed (False for a review).
    applied: bool
    #: True when the dream branch was merged into main.
    merged: bool
    #: True when no dream ran because the rules' gate did not hold.
    skipped: bool
    #: Why the dream was skipped or did nothing; empty when it changed something.
    reason: str
    memories_before: int
    memories_after: int
    #: The sessions the run read.
    sessions: tuple[str, ...]
    #: The operations, as the record lists them.
    ops: tuple[OpRecord, ...]
    _record: RunRecord = field(repr=False, compare=False)

    @classmethod
    def from_record(cls, record: RunRecord) -> DreamResult:
        """The result of a run whose record is ``record`` (kept as it is for :meth:`to_dict`).

        Each field is the record's key of its name; a list becomes a tuple, the result
        being frozen. The fields are the record's own (``tests/test_dream_result.py``
        checks each is a ``RunRecord`` key of the same type), so none is listed twice here.
        """
        keys: Mapping[str, Any] = record
        values: dict[str, Any] = {name: keys[name] for name in _FIELDS}
        values.update((name, tuple(values[name])) for name in _TUPLES)
        return cls(**values, _record=record)

    @property
    def changed(self) -> bool:
        """True when the dream made at least one operation."""
        return bool(self.ops)

    def to_dict(self) -> RunRecord:
        """The run record, as ``run --json`` prints it and ``.dreamgit/runs/`` keeps it."""
        return copy.deepcopy(self._record)

    def __getitem__(self, key: str) -> Any:
        return self._record[key]  # type: ignore[literal-required]  # any key, as a mapping

    def __iter__(self) -> Iterator[str]:
        return iter(self._record)

    def __len__(self) -> int:
        return len(self._record)


#: The result's fields that copy a key of the run record (all but the record itself).
_FIELDS = tuple(f.name for f in fields(DreamResult) if f.name != "_record")
#: Of those, the ones the record holds as a list and the frozen result as a tuple.
_TUPLES = frozenset(f.name for f in fields(DreamResult) if str(f.type).startswith("tuple["))
