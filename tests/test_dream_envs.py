"""A dream's memory environments, computed once: the same names a rule would see."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.dream.envs import forget_envs, memory_env_once
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import memory_env

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
