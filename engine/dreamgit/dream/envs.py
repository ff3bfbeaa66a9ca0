"""Each memory's rule environment, computed once for all the phases of one dream.

Vetting, pruning, the index order and the promotion check each evaluate rules over
every memory at the same ``now``; building a memory's environment (its ages, the
day a plan names, its recall figures) cost more than the rules themselves, four
times over. :func:`memory_env_once` keeps the environments of the dream under way
(keyed by the memory's values, its recall figures, ``now`` and whether recalls are
recorded), each computed name by name as a rule reads it (a rule that fails on
``priority`` never reads a date out of the text, and recall figures are read only by
rules that ask for them); :func:`forget_envs` drops them when the plan is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache

from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import LazyMemoryEnv

__all__ = ["forget_envs", "memory_env_once"]


def memory_env_once(
    memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Mapping[str, object]:
    """:func:`~dreamgit.ruleset.context.memory_env`, each name computed once per memory
    and time, when a rule first reads it (the same mapping for every caller: read only)."""
    # ``recall`` takes no part in a Memory's equality: it is part of the key itself.
    return _env(memory, memory.recall, now, recalls_recorded)


@lru_cache(maxsize=1 << 14)
def _env(
    memory: Memory, _recall: RecallStats | None, now: datetime, recorded: bool
) -> LazyMemoryEnv:
    return LazyMemoryEnv(memory, now, recalls_recorded=recorded)


def forget_envs() -> None:
    """Drop the environments kept so far (a dream's plan is made)."""
    _env.cache_clear()
