"""Each memory's rule environment, and the rules' values on it, computed once per dream.

Vetting, health, pruning, the index order and the promotion check each evaluate rules
over every memory at the same ``now``; building a memory's environment (its ages, the
day a plan names, its recall figures) cost more than the rules themselves, four
times over, and vetting evaluates ``rank`` and every prune rule that pruning, health
and the budgets' order evaluate again. :func:`memory_env_once` keeps the environments
of the dream under way (keyed by the memory's values, its recall figures, ``now`` and
whether recalls are recorded), each computed name by name as a rule reads it (a rule
that fails on ``priority`` never reads a date out of the text, and recall figures are
read only by rules that ask for them); :func:`evaluate_once` keeps each expression's
value on such an environment (a failure is not kept: it is raised again each time);
:func:`forget_envs` drops them when the plan is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any

from dreamgit.dsl import Expression
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import LazyMemoryEnv

__all__ = ["RuleValues", "evaluate_once", "forget_envs", "memory_env_once", "rule_values"]


def memory_env_once(
    memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Mapping[str, object]:
    """:func:`~dreamgit.ruleset.context.memory_env`, each name computed once per memory
    and time, when a rule first reads it (the same mapping for every caller: read only)."""
    # ``recall`` takes no part in a Memory's equality: it is part of the key itself.
    return _kept(memory, memory.recall, now, recalls_recorded).env


def evaluate_once(
    expression: Expression, memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Any:
    """``expression.evaluate(memory_env_once(...))``, evaluated once per memory and time:
    a rule's value depends on the environment alone, which is read only."""
    return rule_values(memory, now, recalls_recorded=recalls_recorded).value(expression)


def rule_values(memory: Memory, now: datetime, *, recalls_recorded: bool = False) -> RuleValues:
    """One memory's kept rule values and environment at ``now``, looked up once: what
    :func:`evaluate_once` gives for each of many rules, without hashing the memory anew
    for each (vetting evaluates every memory rule on every memory)."""
    # Each phase passes the same Memory objects: found by identity first, the memory's
    # fields are not hashed again (an equal memory made anew is found by its value).
    mark = (id(memory), now, recalls_recorded)
    seen = _SEEN.get(mark)
    if seen is not None and seen[0] is memory:
        values = seen[1]
    else:
        values = _values(memory, memory.recall, now, recalls_recorded)
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[mark] = (memory, values)  # the memory held: its id is not reused meanwhile
    return RuleValues(memory, now, recalls_recorded, values)


class RuleValues:
    """The rule values kept for one memory and time, and its environment when needed."""

    __slots__ = ("_env", "_key", "_values")

    def __init__(
        self, memory: Memory, now: datetime, recorded: bool, values: dict[Expression, Any]
    ) -> None:
        self._key = (memory, memory.recall, now, recorded)
        self._values = values
        self._env: Mapping[str, object] | None = None

    @property
    def env(self) -> Mapping[str, object]:
        """:func:`memory_env_once` of the memory (read only)."""
        if self._env is None:
            self._env = _kept(*self._key).env
        return self._env

    def value(self, expression: Expression) -> Any:
        """``expression`` evaluated on the environment, once per memory and time."""
        # the expression object itself is the key: a rule set's expressions live as long
        # as the dream, and two rule sets' expressions of one text are two keys (no mix-up)
        values = self._values
        if expression in values:
            return values[expression]
        value = values[expression] = expression.evaluate(self.env)
        return value


class _Kept:
    """One memory's environment, its names computed as rules read them."""

    __slots__ = ("env",)

    def __init__(self, env: LazyMemoryEnv) -> None:
        self.env = env


@lru_cache(maxsize=1 << 14)
def _kept(memory: Memory, _recall: RecallStats | None, now: datetime, recorded: bool) -> _Kept:
    return _Kept(LazyMemoryEnv(memory, now, recalls_recorded=recorded))


#: The values are kept for more memories than the environments: a few rules' values are
#: small, and each phase walks every memory in turn, so a store larger than the cache
#: would evaluate every rule afresh in every phase (at 100,000 memories, four times).
@lru_cache(maxsize=1 << 17)
def _values(
    _memory: Memory, _recall: RecallStats | None, _now: datetime, _recorded: bool
) -> dict[Expression, Any]:
    return {}


#: The values of the memories met so far, by the memory object, ``now`` and whether
#: recalls are recorded (as many as :func:`_values` keeps).
_SEEN: dict[tuple[int, datetime, bool], tuple[Memory, dict[Expression, Any]]] = {}
_SEEN_MAX = 1 << 17


def forget_envs() -> None:
    """Drop the environments and values kept so far (a dream's plan is made)."""
    _kept.cache_clear()
    _values.cache_clear()
    _SEEN.clear()
