"""Vetting keeps each memory's rule values for the rest of the plan, not its environment:
later phases read the values, and a store's worth of environments is not held."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.dream.envs import evaluate_once, evaluate_walking, forget_envs, memory_env_once
from dreamgit.dream.vet import vet_memories
from dreamgit.dsl import ExpressionError, compile_expression
from dreamgit.model import Memory
from dreamgit.ruleset import load_bundled
from dreamgit.ruleset.context import MEMORY_SCHEMA

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)


def _memories() -> list[Memory]:
    texts = ["Prefers short answers.", "The review is on 2 May 2026 at 3pm.", "Uses a Kinesis."]
    return [
        Memory(
            id=f"m-vet0000{k}",
            topic="prefs",
            slug=f"m{k}",
            text=text,
            created=NOW - timedelta(days=k + 1),
            updated=NOW - timedelta(days=k + 1),
            priority=["low", "normal", "ephemeral"][k],
        )
        for k, text in enumerate(texts)
    ]


def test_vetting_keeps_the_values_and_lets_the_environments_go() -> None:
    """After vetting, the rank and every prune rule are answered from the kept values: the
    environment a later reader gets has computed no name for them."""
    forget_envs()
    rules = load_bundled("default")
    memories = _memories()
    good, broken = vet_memories(memories, rules, NOW)
    assert (len(good), broken) == (3, [])
    for memory in memories:
        env = memory_env_once(memory, NOW)
        assert dict.keys(env) == set()  # type: ignore[arg-type]
        assert isinstance(evaluate_once(rules.rank, memory, NOW), float)
        for rule in rules.prune:
            evaluate_once(rule.when, memory, NOW)
        assert dict.keys(env) == set()  # type: ignore[arg-type]
        assert memory_env_once(memory, NOW) is env
    held = [m.id for m in memories if any(evaluate_once(r.when, m, NOW) for r in rules.prune)]
    assert held == ["m-vet00002"]  # the ephemeral one, three days old
    forget_envs()


def test_a_walking_phase_keeps_the_value_not_the_environment() -> None:
    """``evaluate_walking`` (the index's promotion check over every memory) keeps the value
    it computes and lets the environment it made go."""
    forget_envs()
    rules = load_bundled("default")
    memory = _memories()[0]
    assert evaluate_walking(rules.rank, memory, NOW) == evaluate_once(rules.rank, memory, NOW)
    assert dict.keys(memory_env_once(memory, NOW)) == set()  # type: ignore[arg-type]
    forget_envs()


def test_vetting_evaluates_the_index_check_too_and_keeps_its_value() -> None:
    """The expressions vetting is handed ``also`` (the index's promotion check) are kept with
    the memory's values: the index then reads them without an environment."""
    forget_envs()
    rules = load_bundled("default")
    check = compile_expression("priority <= low", MEMORY_SCHEMA)
    memories = _memories()
    good, broken = vet_memories(memories, rules, NOW, also=[check])
    assert (len(good), broken) == (3, [])
    assert [evaluate_walking(check, m, NOW) for m in memories] == [True, False, True]
    for memory in memories:
        assert dict.keys(memory_env_once(memory, NOW)) == set()  # type: ignore[arg-type]
    forget_envs()


def test_an_index_check_that_fails_leaves_the_memory_in_and_fails_where_it_is_read() -> None:
    """A failure of an ``also`` expression is not vetting's to report: the memory stays, and
    the phase reading the value gets the error, as it did when only it evaluated it."""
    forget_envs()
    rules = load_bundled("default")
    check = compile_expression("1 / (recalls - recalls) > 0", MEMORY_SCHEMA)
    memories = _memories()
    good, broken = vet_memories(memories, rules, NOW, also=[check])
    assert (len(good), broken) == (3, [])
    with pytest.raises(ExpressionError):
        evaluate_walking(check, memories[0], NOW)
    forget_envs()
