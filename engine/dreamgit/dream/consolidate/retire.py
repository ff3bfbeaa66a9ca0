"""Retiring a memory or a statement of a session note because a newer one says more.

:func:`supersede` plans one supersession (the older memory leaves the active set, the
newer one records what it supersedes and holds from when it was said);
:class:`NoteStatements` collects the statements of session notes that newer memories
retire and rewrites each note without them, one operation per note (op ``replace``), or
supersedes the note when nothing of it is left. Protected memories are never retired:
the skip is recorded as a decision.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from dreamgit.dream import session_notes
from dreamgit.dream.limits import Budget
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.extract.candidate import description_of
from dreamgit.model import Memory
from dreamgit.records import Decision
from dreamgit.ruleset import RuleSet

__all__ = ["NoteStatements", "protected_skip", "supersede"]


def supersede(
    ws: WorkingSet,
    old: Memory,
    new: Memory,
    *,
    rule: str,
    reason: str,
    budget: Budget,
    ops: list[Operation],
    text: str = "",
) -> bool:
    """Plan one supersession; False when the run's limits deferred it. A ``text`` given is
    the newer memory's own, said more fully ("it moved to …" naming what moved)."""
    # Asked before the operation is built, as ``budget.admit`` would ask of it (a rules'
    # supersession adds no characters and retires none on a model's word): a store far
    # over its limits defers thousands each run (16,500 a night at 100,000 memories).
    refused = budget.refusal("supersede")
    if refused is not None:
        budget.defer("supersede", rule, [new.id, old.id], refused)
        return False
    # The newer value holds from when it was said; the older one's end is this commit.
    successor = replace(
        new, supersedes=tuple(sorted({*new.supersedes, old.id})), valid_from=new.valid_since
    )
    if text and text != new.text:
        successor = replace(successor, text=text, description=description_of(text))
    op = Operation(
        op="supersede",
        phase="consolidate",
        rule=rule,
        memories=[new.id, old.id],
        summary=f"supersede: {old.id} by {new.id}",
        changes={},
        before=[snap(old), snap(new)],
        after=[snap(successor)],
        detail=f"{reason}. The superseded memory stays in history: dreamgit restore {old.id}",
    )
    if not budget.admit(op):
        return False
    op.changes = {**ws.file_for_removal(old), **ws.file_for_update(new, successor)}
    ops.append(op)
    return True


def protected_skip(ruleset: RuleSet, memory: Memory, what: str, decisions: list[Decision]) -> bool:
    """Whether ``memory`` is protected; if so, the skipped ``what`` is recorded as a decision."""
    if ruleset.is_protected(memory):
        decisions.append(
            {
                "phase": "consolidate",
                "memories": [memory.id],
                "accepted": False,
                "reason": f"{what} skipped: {memory.id} is protected",
            }
        )
        return True
    return False


class NoteStatements:
    """Statements of session notes that newer memories retire, applied one note at a time."""

    def __init__(self, parts: dict[str, tuple[str, int]]) -> None:
        self.parts = parts
        self.retired: dict[str, dict[int, tuple[str, str]]] = {}

    def take(self, name: str, by: str, reason: str) -> bool:
        """Record that ``by`` retires the statement ``name``; False when ``name`` is a
        whole memory (the caller supersedes it)."""
        if name not in self.parts:
            return False
        note, k = self.parts[name]
        if note != by:
            self.retired.setdefault(note, {}).setdefault(k, (by, reason))
        return True

    def apply(
        self,
        ws: WorkingSet,
        ruleset: RuleSet,
        rule: str,
        now: datetime,
        budget: Budget,
        ops: list[Operation],
        decisions: list[Decision],
    ) -> list[str]:
        """Rewrite each note without its retired statements; the memories whose
        retirements the limits deferred."""
        deferred: list[str] = []
        for note_id in sorted(self.retired):
            note, retired = ws.active.get(note_id), self.retired[note_id]
            if note is None or protected_skip(ruleset, note, "supersession", decisions):
                continue
            by = sorted({new for new, _reason in retired.values()})
            reasons = "; ".join(reason for _new, reason in retired.values())
            rest = session_notes.without(note, set(retired))
            if rest is None:  # every statement retired: the note goes, as a memory would
                live = [ws.active[i] for i in by if i in ws.active]
                newest = max(live, key=_newest, default=None)
                if newest is not None and not supersede(
                    ws, note, newest, rule=rule, reason=reasons, budget=budget, ops=ops
                ):
                    deferred.extend(by)
                continue
            revised = replace(rest, updated=max(note.updated, now))
            op = Operation(
                op="replace",
                phase="consolidate",
                rule=rule,
                memories=[note.id, *by],
                summary=f"replace: {note.id} without {len(retired)} superseded statement(s)",
                changes={},
                before=[snap(note)],
                after=[snap(revised)],
                detail=f"{reasons}. The note as it was stays in history.",
            )
            if not budget.admit(op):
                deferred.extend(by)
                continue
            op.changes = ws.file_for_update(note, revised)
            ops.append(op)
        return deferred


def _newest(memory: Memory) -> tuple[datetime, str]:
    return (memory.created, memory.id)
