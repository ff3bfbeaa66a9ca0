"""A supersession the run's limits refuse is deferred as the built operation would be."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dreamgit.dream.consolidate import retire
from dreamgit.dream.consolidate.retire import supersede
from dreamgit.dream.limits import Budget
from dreamgit.dream.workset import Operation, WorkingSet
from dreamgit.model import Memory
from gitcheck import NOW

OLD = Memory("m-old00001", "tools", "editor-old", "Edits in Vim.", NOW, NOW)
NEW = Memory("m-new00001", "tools", "editor", "Edits in Helix.", NOW + timedelta(days=1), NOW)


def _supersede(budget: Budget, ops: list[Operation]) -> bool:
    ws = WorkingSet([OLD, NEW], lambda _path: "")
    return supersede(ws, OLD, NEW, rule="supersede-same-key", reason="key editor",
                     budget=budget, ops=ops)  # fmt: skip


def test_a_refused_supersession_is_deferred_as_admit_defers_it_and_builds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no change left, the deferral is the one ``admit`` records for the operation,
    and no successor is made."""
    monkeypatch.setattr(retire, "replace", _no_replace)
    budget, ops = Budget(max_changes=0), []
    assert not _supersede(budget, ops)
    assert ops == [] and budget.changes == 0
    twin = Budget(max_changes=0)
    built = Operation(op="supersede", phase="consolidate", rule="supersede-same-key",
                      memories=[NEW.id, OLD.id], summary="", changes={})  # fmt: skip
    assert not twin.admit(built)
    assert budget.deferred == twin.deferred


def test_an_admitted_supersession_is_planned_and_counted() -> None:
    """With a change left the operation is planned, counted once, and nothing deferred."""
    budget, ops = Budget(max_changes=1), []
    assert _supersede(budget, ops)
    assert [op.memories for op in ops] == [[NEW.id, OLD.id]]
    assert budget.changes == 1 and budget.deferred == []
    assert not _supersede(budget, [])
    assert [d.memories for d in budget.deferred] == [[NEW.id, OLD.id]]


def _no_replace(*_args: object, **_kwargs: object) -> object:
    raise AssertionError("a refused supersession made its successor")
