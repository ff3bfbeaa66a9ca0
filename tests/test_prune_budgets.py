"""Pruning to the budgets ranks only where a budget is exceeded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from dreamgit.dream.envs import forget_envs
from dreamgit.dream.limits import Budget
from dreamgit.dream.ordering import rank_key
from dreamgit.dream.prune import plan_prune
from dreamgit.dream.workset import WorkingSet
from dreamgit.dsl import Expression, compile_expression
from dreamgit.model import Memory
from dreamgit.ruleset import load_ruleset
from dreamgit.ruleset.context import MEMORY_SCHEMA

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)

RULES = """
extends: default
budgets: {max_memories: 1000, max_per_topic: 3}
limits: {max_changes_per_run: 100, max_removals_per_run: 100}
"""


class _Ranked(Expression):
    """A rank that records which memories it was evaluated for."""

    __slots__ = ("seen",)

    def __init__(self, text: str) -> None:
        inner = compile_expression(text, MEMORY_SCHEMA)
        super().__init__(inner.text, inner.type, inner._fn, inner._probes)
        self.seen: list[object] = []

    def evaluate(self, env: Mapping[str, object]) -> Any:
        self.seen.append(env["topic"])
        return super().evaluate(env)


def _memory(topic: str, k: int) -> Memory:
    when = NOW - timedelta(days=k + 1)
    return Memory(
        id=f"m-{topic[:4]}{k:04d}", topic=topic, slug=f"{topic}-{k}",
        text=f"A fact about {topic}, number {k}.", created=when, updated=when,
    )  # fmt: skip


def test_only_a_topic_over_its_budget_is_ranked_and_pruned() -> None:
    """Five memories in one topic (budget three), two in another: the two lowest-ranked of
    the first go, and the rank is never evaluated for the topic within its budget."""
    rank = _Ranked("days(age)")
    ruleset = replace(load_ruleset(RULES), rank=rank)
    memories = [_memory("travel", k) for k in range(5)] + [_memory("garden", k) for k in range(2)]
    ws = WorkingSet(memories, lambda _path: "")
    ops = plan_prune(ws, ruleset, now=NOW, budget=Budget(100, 100, 10**6, 100))
    forget_envs()
    assert [(op.rule, op.memories) for op in ops] == [
        ("budget-per-topic", ["m-trav0000"]),
        ("budget-per-topic", ["m-trav0001"]),
    ]
    assert set(rank.seen) == {"travel"}


def _over_budget(topics: str, each: int) -> list[Memory]:
    return [_memory(topic, k) for topic in topics.split() for k in range(each)]


def test_prunes_past_the_limits_are_named_for_the_first_topic_and_counted_for_the_rest() -> None:
    """With the change limit reached before pruning, the first topic's 20 lowest-ranked
    memories are named as deferred and every other prune is counted; a topic of which no
    prune would be named is not ranked at all."""
    rank = _Ranked("-days(age)")
    ruleset = replace(load_ruleset(RULES), rank=rank)
    ws = WorkingSet(_over_budget("alpha beta gamma", 30), lambda _path: "")
    budget = Budget(0, 100, 10**6, 100)
    assert plan_prune(ws, ruleset, now=NOW, budget=budget) == []
    forget_envs()
    named = [d.memories[0] for d in budget.deferred if d.memories]
    assert named == [f"m-alph{k:04d}" for k in range(29, 9, -1)]  # the oldest rank lowest
    assert [(d.rule, d.more) for d in budget.deferred if not d.memories] == [
        ("budget-per-topic", 7 + 27 + 27)
    ]
    assert set(rank.seen) == {"alpha"}


def test_the_total_budget_past_the_limits_names_the_lowest_of_all_and_counts_the_rest() -> None:
    """Over the total budget with the change limit reached, the 20 lowest-ranked memories
    of the whole store are named, the rest counted: as ranking every memory gives them."""
    rules = RULES.replace(
        "max_memories: 1000, max_per_topic: 3", "max_memories: 10, max_per_topic: 100"
    )
    ruleset = load_ruleset(rules)
    memories = _over_budget("alpha beta", 30)
    ws = WorkingSet(memories, lambda _path: "")
    budget = Budget(0, 100, 10**6, 100)
    assert plan_prune(ws, ruleset, now=NOW, budget=budget) == []
    forget_envs()
    lowest_first = sorted(memories, key=rank_key(ruleset, NOW), reverse=True)
    named = [d.memories[0] for d in budget.deferred if d.memories]
    assert named == [m.id for m in lowest_first[:20]]
    assert [(d.rule, d.more) for d in budget.deferred if not d.memories] == [
        ("budget-total", 60 - 10 - 20)
    ]


def test_a_topic_whose_protected_memories_fill_its_budget_loses_every_unprotected_one() -> None:
    """A budget of one, two core memories and four others: the four go, as the total
    budget's cut does (the topic's cut wrapped around and pruned one)."""
    rules = RULES.replace("max_per_topic: 3", "max_per_topic: 1") + (
        "protected: {topics: [], priorities: [core]}\n"
    )
    ruleset = load_ruleset(rules)
    memories = [
        replace(_memory("travel", k), priority="core") if k < 2 else _memory("travel", k)
        for k in range(6)
    ]
    ws = WorkingSet(memories, lambda _path: "")
    ops = plan_prune(ws, ruleset, now=NOW, budget=Budget(100, 100, 10**6, 100))
    forget_envs()
    pruned = sorted(m for op in ops for m in op.memories)
    assert pruned == ["m-trav0002", "m-trav0003", "m-trav0004", "m-trav0005"]
