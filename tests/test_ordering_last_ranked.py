"""The lowest-ranked memories picked without ranking them all: as a full ranking's tail."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.dream.envs import forget_envs
from dreamgit.dream.ordering import last_ranked, rank_key
from dreamgit.dsl import compile_expression
from dreamgit.model import Memory
from dreamgit.ruleset import load_ruleset
from dreamgit.ruleset.context import MEMORY_SCHEMA

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)
PRIORITIES = ("low", "normal", "high")


def _memories(seed: int, count: int) -> list[Memory]:
    """Memories whose ranks and update times often tie (three priorities, four days)."""
    pick = random.Random(seed)
    found = []
    for k in range(count):
        when = NOW - timedelta(days=pick.randrange(4))
        found.append(
            Memory(
                id=f"m-{pick.randrange(10**6):06d}{k:04d}",
                topic="work",
                slug=f"fact-{k}",
                text=f"Fact {k}.",
                created=when,
                updated=when,
                priority=pick.choice(PRIORITIES),
            )
        )
    return found


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rank", ["rank(priority)", "10 * rank(priority) + 3 * exp(-days(idle))"])
def test_the_lowest_ranked_are_the_tail_of_a_full_ranking_lowest_first(
    seed: int, rank: str
) -> None:
    """Ties of rank (and of rank and time) are broken as the full sort breaks them."""
    ruleset = replace(load_ruleset(None), rank=compile_expression(rank, MEMORY_SCHEMA))
    memories = _memories(seed, 60)
    ranked = sorted(memories, key=rank_key(ruleset, NOW))
    for count in (0, 1, 7, 20, 60, 75):
        picked = last_ranked(memories, count, rank_key(ruleset, NOW))
        assert picked == (ranked[-count:][::-1] if count else [])
    forget_envs()


def test_a_rank_that_is_not_a_number_ranks_them_all_as_before() -> None:
    """A NaN rank (a confidence of .nan) orders nothing: the full sort's tail is given."""
    ruleset = replace(load_ruleset(None), rank=compile_expression("confidence", MEMORY_SCHEMA))
    memories = [
        replace(m, confidence=float("nan") if k % 3 else k / 10)
        for k, m in enumerate(_memories(7, 30))
    ]
    expected = sorted(memories, key=rank_key(ruleset, NOW))[-5:][::-1]
    assert last_ranked(memories, 5, rank_key(ruleset, NOW)) == expected
    forget_envs()
