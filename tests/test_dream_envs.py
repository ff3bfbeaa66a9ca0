"""A dream's memory environments, computed once: the same names a rule would see."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

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
    """The kept environment equals a fresh one, and a caller's additions stay its own."""
    memory = _memory()
    first = memory_env_once(memory, NOW, recalls_recorded=True)
    assert first == memory_env(memory, NOW, recalls_recorded=True)
    first["relevance"] = 1.0
    assert "relevance" not in memory_env_once(memory, NOW, recalls_recorded=True)
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
