"""Each memory's rule environment, and the rules' values on it, computed once per dream.

Vetting, health, pruning, the index order and the promotion check each evaluate rules
over every memory at the same ``now``; building a memory's environment (its ages, the
day a plan names, its recall figures) cost more than the rules themselves, four
times over, and vetting evaluates ``rank`` and every prune rule that pruning, health
and the budgets' order evaluate again. :func:`memory_env_once` keeps the environments
of the dream under way (keyed by the memory object itself, ``now`` and whether recalls
are recorded: every phase passes the snapshot's objects), each computed name by name as
a rule reads it (a rule that fails on ``priority`` never reads a date out of the text,
and recall figures are read only by rules that ask for them); :func:`evaluate_once`
keeps each expression's value on such an environment (a failure is not kept: it is
raised again each time); :func:`forget_envs` drops them when the plan is made. Vetting
evaluates every memory rule with the names read from the fields computed at once
(:meth:`RuleValues.fill`) and lets the environment go after (:meth:`RuleValues.release`):
the values are what later phases read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from dreamgit.dsl import Expression
from dreamgit.model import Memory
from dreamgit.ruleset.context import LazyMemoryEnv

__all__ = [
    "RuleValues",
    "evaluate_once",
    "evaluate_walking",
    "forget_envs",
    "memory_env_once",
    "rule_values",
    "rule_values_each",
]


def memory_env_once(
    memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Mapping[str, object]:
    """:func:`~dreamgit.ruleset.context.memory_env`, each name computed once per memory
    and time, when a rule first reads it (the same mapping for every caller: read only)."""
    return rule_values(memory, now, recalls_recorded=recalls_recorded).env


def evaluate_once(
    expression: Expression, memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Any:
    """``expression.evaluate(memory_env_once(...))``, evaluated once per memory and time:
    a rule's value depends on the environment alone, which is read only."""
    return rule_values(memory, now, recalls_recorded=recalls_recorded)[expression]


def evaluate_walking(
    expression: Expression, memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Any:
    """:func:`evaluate_once` for a phase that walks every memory: the value is kept, the
    environment made for it (name by name: such a check reads one or two) is let go
    (``RuleValues.release``), so a store's worth of them is not held to the plan's end."""
    values = rule_values(memory, now, recalls_recorded=recalls_recorded)
    try:
        return values[expression]
    finally:
        values.release()


def rule_values(memory: Memory, now: datetime, *, recalls_recorded: bool = False) -> RuleValues:
    """One memory's kept rule values and environment at ``now``, looked up once: what
    :func:`evaluate_once` gives for each of many rules, without hashing the memory anew
    for each (vetting evaluates every memory rule on every memory)."""
    seen = _table(now, recalls_recorded)
    # Each phase passes the same Memory objects: found by the object itself, its fields
    # are never hashed (hashing a memory's 20 fields cost more than evaluating a rule).
    # A copy made anew gets its own values, the same ones: no phase of a dream makes any.
    found = seen.get(id(memory))
    if found is not None and found._memory is memory:
        return found
    if len(seen) >= _KEPT_MAX:
        seen.clear()
    values = seen[id(memory)] = RuleValues(memory, now, recalls_recorded)
    return values


def rule_values_each(
    memories: Iterable[Memory], now: datetime, *, recalls_recorded: bool = False
) -> list[RuleValues]:
    """:func:`rule_values` of each of ``memories``, in their order, the table of ``now``
    found once for all: pruning and health walk every memory for the values vetting
    kept, and a call per memory cost more than the look-up it makes."""
    get = _table(now, recalls_recorded).get
    found: list[RuleValues] = []
    for memory in memories:
        values = get(id(memory))
        if values is None or values._memory is not memory:
            values = rule_values(memory, now, recalls_recorded=recalls_recorded)
        found.append(values)
    return found


def _table(now: datetime, recalls_recorded: bool) -> dict[int, RuleValues]:
    """The values kept at ``now`` (with recalls recorded or not), by the memory's ``id``."""
    last = _LAST
    if last[0] is now and last[1] is recalls_recorded:  # the same as the call before
        seen: dict[int, RuleValues] = last[2]
        return seen
    seen = _TABLES.setdefault((now, recalls_recorded), {})
    _LAST[:] = [now, recalls_recorded, seen]
    return seen


class RuleValues(dict[Expression, Any]):
    """The rule values kept for one memory and time (``values[expression]`` evaluates an
    expression not read yet: :meth:`__missing__`), and its environment when needed.

    A dict of the values read so far, so a phase reading a value another phase computed
    (pruning and health read vetting's) does one dict look-up, not a method call."""

    __slots__ = ("_env", "_memory", "_now", "_recorded")

    def __init__(self, memory: Memory, now: datetime, recorded: bool) -> None:
        super().__init__()
        self._memory, self._now, self._recorded = memory, now, recorded
        self._env: LazyMemoryEnv | None = None

    @property
    def env(self) -> Mapping[str, object]:
        """:func:`memory_env_once` of the memory (read only), built when first read."""
        env = self._env
        if env is None:
            memory, now, recorded = self._memory, self._now, self._recorded
            env = self._env = LazyMemoryEnv(memory, now, recalls_recorded=recorded)
        return env

    def fill(self, names: frozenset[str] | None = None) -> None:
        """Hold the names read straight from the memory's fields at once (those of
        ``names``: ``LazyMemoryEnv.filled``), for a caller about to evaluate many rules
        on it: one dict built at once costs less than computing each name as it is read."""
        if self._env is None:
            memory, now, recorded = self._memory, self._now, self._recorded
            self._env = LazyMemoryEnv.filled(memory, now, recalls_recorded=recorded, names=names)

    def release(self) -> None:
        """Let the environment go (the values stay): made again, name by name, if a rule
        not evaluated yet reads it. Vetting keeps no environment for every memory of a
        store through the whole plan."""
        self._env = None

    def __missing__(self, expression: Expression) -> Any:
        # the expression object itself is the key: a rule set's expressions live as long
        # as the dream, and two rule sets' expressions of one text are two keys (no mix-up);
        # a failure is not kept (raised again each time)
        env = self._env
        value = self[expression] = expression.evaluate(self.env if env is None else env)
        return value


#: How many memories' values and environments are kept per time: more than any phase
#: walks (each phase walks every memory in turn; a store larger than this would evaluate
#: every rule afresh in every phase).
_KEPT_MAX = 1 << 17

#: Per ``now`` and whether recalls are recorded: the values met so far, by the memory
#: object's ``id`` (each :class:`RuleValues` holds its memory: the id is not reused).
_TABLES: dict[tuple[datetime, bool], dict[int, RuleValues]] = {}


#: The time, the flag and the table of the last :func:`rule_values`: a phase asks for one
#: memory after another at one time, and a key of a zoned time is slow to hash.
_LAST: list[Any] = [None, None, None]


def forget_envs() -> None:
    """Drop the environments and values kept so far (a dream's plan is made)."""
    _TABLES.clear()
    _LAST[:] = [None, None, None]
