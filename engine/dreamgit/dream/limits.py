"""Per-run limits: how many changes, adds and new characters one dream may make.

Every memory operation asks the :class:`Budget` before it is planned; what does
not fit is recorded as deferred, so a scarce rule set (Hermes-style: 3 changes,
1 add, 250 characters) still lists everything it would have done. Memories a
model's proposals retire (remove, supersede) have a cap of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from dreamgit.dream.workset import MEMORY_OPS, Deferred, Operation
from dreamgit.llm.runlimits import REMOVING_OPS, RunLimits

__all__ = ["LISTED_DEFERRED", "Budget"]

#: Deferred operations of one kind, rule and reason listed by name in the run record
#: (:meth:`Budget.defer_counted`); the others are counted on one item after them.
LISTED_DEFERRED = 20


@dataclass
class Budget(RunLimits):
    """What is left of the run's limits, and what was deferred for lack of it: the run's
    :class:`RunLimits` (its caps and what is used of them), with what did not fit."""

    deferred: list[Deferred] = field(default_factory=list)
    #: Per kind, rule and reason of :meth:`defer_counted`: how many were listed, and where
    #: the item counting the rest stands in ``deferred``.
    _listed: dict[tuple[str, str, str], int] = field(default_factory=dict, repr=False)
    _tally: dict[tuple[str, str, str], int] = field(default_factory=dict, repr=False)

    def run_limits(self) -> RunLimits:
        """A copy of the caps and what is used of them, for judging an LLM's proposals
        (what they use is counted here when their operations are admitted)."""
        caps = {f.name: getattr(self, f.name) for f in fields(RunLimits) if f.name != "touched"}
        return RunLimits(**caps)

    def admit(self, op: Operation) -> bool:
        """Count ``op`` if it fits; otherwise record it as deferred and return False."""
        if op.op not in MEMORY_OPS:
            return True
        reason = self.refusal(op.op, new_chars=op.new_chars, removed=_removed(op))
        if reason is not None:
            self.defer(op.op, op.rule, op.memories, reason)
            return False
        self.changes += 1
        self.adds += op.op == "add"
        self.new_chars += op.new_chars
        self.removals += _removed(op)
        return True

    def refusal(self, kind: str, *, new_chars: int = 0, removed: int = 0) -> str | None:
        """Why an operation of ``kind`` (a memory operation) would not fit now, or None.

        Asked before an operation is built where most do not fit (a store far over its
        budgets defers thousands of prunes each run)."""
        if self.changes + 1 > self.max_changes:
            return f"max_changes_per_run ({self.max_changes}) reached"
        if kind == "add" and self.adds + 1 > self.max_adds:
            return f"max_adds_per_run ({self.max_adds}) reached"
        if self.new_chars + new_chars > self.max_new_chars:
            return f"max_new_chars_per_run ({self.max_new_chars}) reached"
        if self.removals + removed > self.max_removals:
            return f"max_removals_per_run ({self.max_removals}) reached"
        return None

    def defer(self, kind: str, rule: str, memories: list[str], reason: str) -> None:
        """Record an operation that did not fit, for a later run."""
        self.deferred.append(Deferred(kind, rule, list(memories), reason))

    def defer_counted(self, kind: str, rule: str, memories: list[str], reason: str) -> None:
        """Record an operation on each of ``memories`` that did not fit: listed by name
        while fewer than :data:`LISTED_DEFERRED` of its kind, rule and reason are, counted
        after that (a later run works out again which ones to do: the record need not name
        200,000)."""
        named = memories[: self.named_left(kind, rule, reason)]
        key = (kind, rule, reason)
        self._listed[key] = self._listed.get(key, 0) + len(named)
        for memory in named:
            self.defer(kind, rule, [memory], reason)
        self.count_deferred(kind, rule, len(memories) - len(named), reason)

    def named_left(self, kind: str, rule: str, reason: str) -> int:
        """How many more deferred operations of ``kind``, ``rule`` and ``reason``
        :meth:`defer_counted` would list by name (the rest it only counts)."""
        return max(LISTED_DEFERRED - self._listed.get((kind, rule, reason), 0), 0)

    def count_deferred(self, kind: str, rule: str, more: int, reason: str) -> None:
        """Count ``more`` operations that did not fit, none of them named (those
        :meth:`defer_counted` names no more of: :meth:`named_left` is 0)."""
        if not more:
            return
        key = (kind, rule, reason)
        at = self._tally.get(key)
        if at is None:
            self._tally[key] = len(self.deferred)
            self.deferred.append(Deferred(kind, rule, [], reason, more=more))
        else:
            self.deferred[at] = replace(self.deferred[at], more=self.deferred[at].more + more)


def _removed(op: Operation) -> int:
    """Memories ``op`` retires on a model's word (0 for the rules' own operations)."""
    return len(op.before) if op.source == "llm" and op.op in REMOVING_OPS else 0
