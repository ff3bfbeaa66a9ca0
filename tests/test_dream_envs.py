"""A dream's memory environments, computed once: the same names a rule would see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from dreamgit.dream.envs import (
    evaluate_once,
    evaluate_walking,
    first_holding,
    first_holding_each,
    forget_envs,
    memory_env_once,
    rule_table,
    values_each,
)
from dreamgit.dsl import Expression, ExpressionError, compile_expression
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import MEMORY_SCHEMA, LazyMemoryEnv, memory_env

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)


def _memory() -> Memory:
    when = NOW - timedelta(days=3)
    return Memory(
        id="m-env00001", topic="plans", slug="call", text="Calls the landlord on 2 May 2026.",
        created=when, updated=when,
    )  # fmt: skip


def test_a_kept_environment_is_the_one_memory_env_builds() -> None:
    """The kept environment holds what a fresh one holds, and no caller can change it."""
    memory = _memory()
    first = memory_env_once(memory, NOW, recalls_recorded=True)
    assert dict(first) == memory_env(memory, NOW, recalls_recorded=True)
    with pytest.raises(TypeError):
        first["relevance"] = 1.0  # type: ignore[index]
    assert memory_env_once(memory, NOW, recalls_recorded=True) is first
    forget_envs()


def test_a_name_is_computed_when_a_rule_first_reads_it() -> None:
    """A memory whose day cannot be computed (the calendar's last) still gives its other
    names; the day fails only when read."""
    memory = replace(_memory(), text="The launch is on 31 December 9999.")
    env = memory_env_once(memory, NOW)
    assert env["priority"] is not None and env["chars"] == len(memory.text)
    with pytest.raises(OverflowError):
        env["since_day"]
    forget_envs()


def test_recall_figures_are_part_of_the_key_though_not_of_a_memorys_equality() -> None:
    """Two memories equal but for their recall figures get their own environments."""
    plain = _memory()
    recalled = replace(plain, recall=RecallStats(count=4, queries=("landlord",)))
    assert plain == recalled  # recall takes no part in equality
    assert memory_env_once(plain, NOW)["recall"]["count"] == 0  # type: ignore[index]
    assert memory_env_once(recalled, NOW)["recall"]["count"] == 4  # type: ignore[index]
    later = NOW + timedelta(days=1)
    assert memory_env_once(plain, later)["age"] == timedelta(days=4)
    forget_envs()


class _Counted(Expression):
    """An expression that counts its evaluations."""

    __slots__ = ("calls",)

    def __init__(self, text: str) -> None:
        inner = compile_expression(text, MEMORY_SCHEMA)
        super().__init__(inner.text, inner.type, inner._fn, inner._probes)
        self.calls = 0

    def evaluate(self, env: Mapping[str, object]) -> Any:
        self.calls += 1
        return super().evaluate(env)


def test_a_rules_value_is_evaluated_once_per_memory_and_time() -> None:
    """Vetting, health, pruning and the budgets' order read one value: evaluated once,
    again for another time, another memory or where recalls are recorded."""
    rule, memory = _Counted("priority == normal and age > 2d"), _memory()
    assert evaluate_once(rule, memory, NOW) is True
    assert evaluate_once(rule, memory, NOW) is True  # the same memory: kept
    assert rule.calls == 1
    assert evaluate_once(rule, replace(memory), NOW) is True  # an equal copy: its own
    assert rule.calls == 2
    assert evaluate_once(rule, memory, NOW - timedelta(days=2)) is False
    assert evaluate_once(rule, replace(memory, priority="low"), NOW) is False
    assert evaluate_once(rule, memory, NOW, recalls_recorded=True) is True
    assert rule.calls == 5
    forget_envs()
    evaluate_once(rule, memory, NOW)
    assert rule.calls == 6


def test_each_phases_walk_over_a_large_store_evaluates_each_rule_once() -> None:
    """20,000 memories, more than the environments kept: a second walk (the next phase)
    reads every value kept, none evaluated again."""
    rule, first = _Counted("priority == normal and age > 2d"), _memory()
    store = [replace(first, id=f"m-{k:08d}") for k in range(20_000)]
    for _walk in range(2):
        assert all(evaluate_once(rule, memory, NOW) for memory in store)
    assert rule.calls == len(store)
    forget_envs()


def test_a_failing_rule_fails_each_time_it_is_evaluated() -> None:
    """A failure is not kept: each caller gets the rule's own error."""
    rule = _Counted("1 / (chars - chars) > 0")
    for _ in range(2):
        with pytest.raises(ExpressionError, match="division by zero"):
            evaluate_once(rule, _memory(), NOW)
    assert rule.calls == 2
    forget_envs()


def test_one_table_serves_every_rule_with_the_values_kept() -> None:
    """The table of a time (vetting's) evaluates each rule once per memory and shares the
    kept values and environment with ``evaluate_once`` (the later phases' reads)."""
    memory = _memory()
    rules = [_Counted("priority == normal and age > 2d"), _Counted("chars > 10")]
    table = rule_table(NOW)
    assert table.env(memory) is memory_env_once(memory, NOW)
    assert [table.value(rule, memory) for rule in rules] == [True, True]
    assert [evaluate_once(rule, memory, NOW) for rule in rules] == [True, True]
    assert table.row(memory) == [memory, True, True]
    assert [rule.calls for rule in rules] == [1, 1]
    assert rule_table(NOW - timedelta(days=2)).value(rules[0], memory) is False
    assert rules[0].calls == 2
    forget_envs()


class _Hashed(Memory):
    """A memory that counts how often its fields are hashed."""

    hashes = 0

    def __hash__(self) -> int:
        _Hashed.hashes += 1
        return super().__hash__()


def test_a_memory_met_again_is_found_without_hashing_its_fields() -> None:
    """Each phase walks the same memory objects: the second look-up finds the values by
    the object itself; a copy made anew gets values of its own, the same ones."""
    first = _memory()
    memory = _Hashed(**{f: getattr(first, f) for f in first.__dataclass_fields__})
    rule = _Counted("priority == normal and age > 2d")
    hashed = _Hashed.hashes
    assert evaluate_once(rule, memory, NOW) is True
    assert evaluate_once(rule, memory, NOW) is True
    assert values_each(rule, [memory], NOW) == [True]
    assert _Hashed.hashes == hashed
    copy = replace(memory)
    assert evaluate_once(rule, copy, NOW) is True  # evaluated for the copy
    assert _Hashed.hashes == hashed  # a memory's fields are never hashed
    assert rule.calls == 2
    assert evaluate_once(rule, memory, NOW - timedelta(days=2)) is False  # another time
    forget_envs()
    assert evaluate_once(rule, memory, NOW) is True
    assert rule.calls == 4
    forget_envs()


def test_a_lazy_environment_reads_as_the_whole_mapping_and_stays_read_only() -> None:
    """Computed name by name, it still counts, iterates, compares and copies as the whole
    :func:`memory_env`, computes a name once, and refuses every change."""
    memory = _memory()
    env = LazyMemoryEnv(memory, NOW)
    whole = memory_env(memory, NOW)
    assert env["chars"] == len(memory.text)
    assert len(env) == len(whole) and list(env) == list(whole) and "age" in env
    assert "relevance" not in env and env.get("relevance", 1.5) == 1.5
    assert env.get("topic") == "plans" and dict(env.items()) == whole and {**env} == whole
    assert env == whole and sorted(map(str, env.values())) == sorted(map(str, whole.values()))
    assert env["age"] is env["age"]  # computed once
    with pytest.raises(KeyError):
        env["relevance"]
    for change in (
        lambda: env.__setitem__("age", 1),
        lambda: env.update(age=1),
        lambda: env.pop("age"),
        lambda: env.setdefault("relevance", 1),
        lambda: env.clear(),
        lambda: env.__delitem__("age"),
    ):
        with pytest.raises(TypeError):
            change()
    assert env == whole


def test_the_values_of_many_memories_are_those_each_look_up_gives() -> None:
    """``values_each`` gives, in order, the value ``evaluate_once`` keeps for each memory
    (evaluated where none is kept yet), per time and recall flag; an equal copy gets its
    own, evaluated anew (in the place of the memory's: met again, it is evaluated again)."""
    rule = _Counted("priority == normal and age > 2d")
    memory = _memory()
    other = replace(memory, id="m-env00002", created=NOW)
    assert evaluate_once(rule, memory, NOW) is True
    copy = replace(memory)
    assert values_each(rule, [other, memory, copy, memory], NOW) == [False, True, True, True]
    assert rule.calls == 4  # other's, the copy's, then memory's again
    assert values_each(rule, [memory, memory], NOW) == [True, True]
    assert values_each(rule, [memory], NOW, recalls_recorded=True) == [True]
    assert values_each(rule, [memory], NOW - timedelta(days=2)) == [False]
    assert rule.calls == 6
    forget_envs()


def test_the_first_rule_holding_is_found_evaluating_no_further() -> None:
    """``first_holding`` evaluates the rules in order up to the first that holds (a later
    one that would fail is not evaluated), each once per memory and time."""
    memory = _memory()
    rules = [_Counted("chars < 5"), _Counted("age > 2d"), _Counted("1 / (chars - chars) > 0")]
    for _ in range(2):
        assert first_holding(rules, memory, NOW) == 1
    assert [rule.calls for rule in rules] == [1, 1, 0]
    assert first_holding(rules[:1], memory, NOW) is None
    with pytest.raises(ExpressionError, match="division by zero"):
        first_holding([rules[0], rules[2]], memory, NOW)
    forget_envs()


def test_the_first_rule_holding_for_many_memories_is_each_ones() -> None:
    """``first_holding_each`` gives, in order, what ``first_holding`` gives each memory,
    reading the values kept and evaluating the others up to the first that holds."""
    young, old = _memory(), replace(_memory(), id="m-env00002", created=NOW - timedelta(days=9))
    rules = [_Counted("age > 7d"), _Counted("age > 2d"), _Counted("chars < 5")]
    assert first_holding(rules[:1], old, NOW) == 0
    assert first_holding_each(rules, [young, old, young], NOW) == [1, 0, 1]
    assert [rule.calls for rule in rules] == [2, 1, 0]
    assert first_holding_each(rules[2:], [young, old], NOW) == [None, None]
    assert first_holding_each(rules, [], NOW) == []
    forget_envs()


def test_a_walking_read_keeps_no_environment_but_uses_one_kept() -> None:
    """``evaluate_walking`` keeps the value, not an environment it had to make; an
    environment kept already (a pair rule read the memory) serves it."""
    memory = _memory()
    rule = _Counted("chars > 10")
    assert evaluate_walking(rule, memory, NOW) is True
    assert dict.keys(memory_env_once(memory, NOW)) == set()  # type: ignore[arg-type]
    env = memory_env_once(memory, NOW)
    other = _Counted("age > 2d")
    assert evaluate_walking(other, memory, NOW) is True
    assert "age" in dict.keys(env)  # type: ignore[arg-type]
    forget_envs()


def test_vetting_evaluates_on_the_environment_kept_for_the_memory_itself() -> None:
    """The vetting function gives a memory's kept values and the environment kept for that
    very object when there is one, else one filled for it and not kept (an equal copy
    gets its own)."""
    forget_envs()
    table = rule_table(NOW)
    memory = _memory()
    vetted = table.vetting(frozenset({"priority", "age"}))
    row, env = vetted(memory)
    assert row == [memory] and row is table.row(memory)
    assert set(dict.keys(env)) == {"priority", "age"}  # type: ignore[arg-type]
    assert memory_env_once(memory, NOW) is not env  # not kept
    kept = memory_env_once(memory, NOW)
    assert vetted(memory)[1] is kept
    copy = replace(memory)
    row_of_copy, env_of_copy = vetted(copy)
    assert env_of_copy is not kept and env_of_copy.memory is copy and row_of_copy[0] is copy
    forget_envs()
