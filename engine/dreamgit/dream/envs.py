"""Each memory's rule values and environment, computed once per dream.

Vetting, health, pruning, the index order and the promotion check each evaluate rules
over every memory at the same ``now``; building a memory's environment (its ages, the
day a plan names, its recall figures) cost more than the rules themselves, four
times over, and vetting evaluates ``rank`` and every prune rule that pruning, health
and the budgets' order evaluate again. A :class:`RuleTable` per ``now`` (and whether
recalls are recorded) keeps each memory's values: one list per memory (the memory,
then a value per expression, at the place the table gave the expression), found by
the memory's id and checked to be the very object (every phase passes the snapshot's
objects; a memory's fields are never hashed). A failure is not kept: it is raised
again each time. Vetting evaluates every memory rule on an environment made for the
one memory and let go after (:meth:`RuleTable.vetting`); :func:`forget_envs` drops
the tables when the plan is made.

A list a memory, not a dict: over 100,000 memories the dicts vetting kept were 34 MB
held to the plan's end (through the dream's peak), the lists are 11 MB.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from dreamgit.dsl import Expression
from dreamgit.model import Memory
from dreamgit.ruleset.context import LazyMemoryEnv

__all__ = [
    "UNSET",
    "RuleTable",
    "evaluate_once",
    "evaluate_walking",
    "first_holding",
    "first_holding_each",
    "forget_envs",
    "memory_env_once",
    "put",
    "rule_table",
    "values_each",
]


class _Unset:
    """A value not evaluated yet (or that failed: a failure is not kept)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


UNSET: Any = _Unset()


class RuleTable:
    """The values kept at one time (with recalls recorded or not): for each memory a list
    ``[memory, value, value, ...]``, each value at its expression's place (:meth:`place`;
    :data:`UNSET` where not evaluated), and the environments a caller asked for."""

    __slots__ = ("_envs", "_places", "_recorded", "_rows", "now")

    def __init__(self, now: datetime, recorded: bool) -> None:
        self.now, self._recorded = now, recorded
        self._rows: dict[str, list[Any]] = {}
        self._places: dict[Expression, int] = {}
        self._envs: dict[str, LazyMemoryEnv] = {}

    def place(self, expression: Expression) -> int:
        """Where each memory's list holds the value of ``expression`` (the expression
        object itself is the key: two rule sets' expressions of one text are two places)."""
        found = self._places.get(expression)
        if found is None:
            found = self._places[expression] = len(self._places) + 1
        return found

    def row(self, memory: Memory) -> list[Any]:
        """The values kept for ``memory`` (a new list if none: an equal copy gets its own)."""
        row = self._rows.get(memory.id)
        if row is None or row[0] is not memory:
            if len(self._rows) >= _KEPT_MAX:
                self._rows.clear()
                self._envs.clear()
            row = self._rows[memory.id] = [memory]
        return row

    def env(self, memory: Memory) -> LazyMemoryEnv:
        """:func:`memory_env_once`: the environment of ``memory``, kept."""
        env = self._kept_env(memory)
        if env is None:
            env = self._envs[memory.id] = self._new_env(memory)
        return env

    def _kept_env(self, memory: Memory) -> LazyMemoryEnv | None:
        """The environment kept for ``memory`` itself (not for an equal copy), if any."""
        env = self._envs.get(memory.id)
        return env if env is not None and env.memory is memory else None

    def _new_env(self, memory: Memory) -> LazyMemoryEnv:
        return LazyMemoryEnv(memory, self.now, recalls_recorded=self._recorded)

    def value(self, expression: Expression, memory: Memory, *, keep_env: bool = True) -> Any:
        """The value of ``expression`` for ``memory``, evaluated if not kept yet (on the
        kept environment, or with ``keep_env=False`` on one let go after unless kept)."""
        row = self.row(memory)
        at = self.place(expression)
        if at < len(row):
            value = row[at]
            if value is not UNSET:
                return value
        if keep_env:
            env: Mapping[str, object] = self.env(memory)
        else:  # the kept one if any, else one let go after
            kept = self._kept_env(memory)
            env = self._new_env(memory) if kept is None else kept
        value = expression.evaluate(env)
        put(row, at, value)
        return value

    def vetting(self, names: frozenset[str]) -> Callable[[Memory], tuple[list[Any], LazyMemoryEnv]]:
        """The function giving a memory's kept values and an environment to evaluate many
        rules on, not kept (the names of ``names`` computed at once:
        ``LazyMemoryEnv.filling``): a store's worth of environments is not held to the
        plan's end."""
        made = LazyMemoryEnv.filling(self.now, recalls_recorded=self._recorded, names=names)
        envs, kept_env, row = self._envs, self._kept_env, self.row

        def vetted(memory: Memory) -> tuple[list[Any], LazyMemoryEnv]:
            env = kept_env(memory) if envs else None  # none kept: the usual case
            return row(memory), made(memory) if env is None else env

        return vetted


def put(row: list[Any], at: int, value: Any) -> None:
    """Keep ``value`` at ``at`` of a memory's list."""
    if at < len(row):
        row[at] = value
    else:
        if at > len(row):
            row.extend([UNSET] * (at - len(row)))
        row.append(value)


def rule_table(now: datetime, *, recalls_recorded: bool = False) -> RuleTable:
    """The values kept at ``now`` (with recalls recorded or not)."""
    last = _LAST
    if last[0] is now and last[1] is recalls_recorded:  # the same as the call before
        table: RuleTable = last[2]
        return table
    key = (now, recalls_recorded)
    found = _TABLES.get(key)
    table = _TABLES[key] = RuleTable(now, recalls_recorded) if found is None else found
    _LAST[:] = [now, recalls_recorded, table]
    return table


def memory_env_once(
    memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Mapping[str, object]:
    """:func:`~dreamgit.ruleset.context.memory_env`, each name computed once per memory
    and time, when a rule first reads it (the same mapping for every caller: read only)."""
    return rule_table(now, recalls_recorded=recalls_recorded).env(memory)


def evaluate_once(
    expression: Expression, memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Any:
    """``expression.evaluate(memory_env_once(...))``, evaluated once per memory and time:
    a rule's value depends on the environment alone, which is read only."""
    return rule_table(now, recalls_recorded=recalls_recorded).value(expression, memory)


def evaluate_walking(
    expression: Expression, memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> Any:
    """:func:`evaluate_once` for a phase that walks every memory: the value is kept, an
    environment made for it (name by name: such a check reads one or two) is let go, so
    a store's worth of them is not held to the plan's end."""
    (value,) = values_each(
        expression, (memory,), now, recalls_recorded=recalls_recorded, walking=True
    )
    return value


def values_each(
    expression: Expression,
    memories: Iterable[Memory],
    now: datetime,
    *,
    recalls_recorded: bool = False,
    walking: bool = False,
) -> list[Any]:
    """:func:`evaluate_once` of ``expression`` for each of ``memories``, in their order
    (the budgets' order reads every memory's rank vetting kept; the index's promotion
    check, ``walking``, its values as :func:`evaluate_walking` does)."""
    table = rule_table(now, recalls_recorded=recalls_recorded)
    at = table.place(expression)
    get = table._rows.get
    found: list[Any] = []
    append = found.append
    for memory in memories:
        row = get(memory.id)
        try:  # a row of this memory holding the value (try: free when it does)
            if row[0] is memory and (value := row[at]) is not UNSET:  # type: ignore[index]
                append(value)
                continue
        except (TypeError, IndexError):  # no row, or none holding the value yet
            pass
        append(table.value(expression, memory, keep_env=not walking))
    return found


def first_holding(
    expressions: Sequence[Expression],
    memory: Memory,
    now: datetime,
    *,
    recalls_recorded: bool = False,
) -> int | None:
    """Where the first of ``expressions`` that holds for ``memory`` is (None: none holds):
    :func:`first_holding_each` of one memory."""
    return first_holding_each(expressions, (memory,), now, recalls_recorded=recalls_recorded)[0]


def first_holding_each(
    expressions: Sequence[Expression],
    memories: Iterable[Memory],
    now: datetime,
    *,
    recalls_recorded: bool = False,
) -> list[int | None]:
    """For each of ``memories``, in their order, where the first of ``expressions`` that
    holds for it is (None: none holds), each evaluated once per memory and time, and only
    up to the first that holds (as ``any`` would): health and pruning read the prune
    rules' values vetting kept."""
    table = rule_table(now, recalls_recorded=recalls_recorded)
    places = list(enumerate(table.place(expression) for expression in expressions))
    rows = table._rows
    found: list[int | None] = []
    for memory in memories:
        row = rows.get(memory.id)
        if row is None or row[0] is not memory:
            row = table.row(memory)
        size = len(row)
        for k, at in places:
            if at >= size or (value := row[at]) is UNSET:
                value = table.value(expressions[k], memory)
                size = len(row)
            if value:
                found.append(k)
                break
        else:
            found.append(None)
    return found


#: How many memories' values are kept per time: more than any phase walks (each phase
#: walks every memory in turn; a store larger than this would evaluate every rule
#: afresh in every phase).
_KEPT_MAX = 1 << 17

#: Per ``now`` and whether recalls are recorded: the values met so far.
_TABLES: dict[tuple[datetime, bool], RuleTable] = {}

#: The time, the flag and the table of the last :func:`rule_table`: a phase asks for one
#: memory after another at one time, and a key of a zoned time is slow to hash.
_LAST: list[Any] = [None, None, None]


def forget_envs() -> None:
    """Drop the environments and values kept so far (a dream's plan is made)."""
    _TABLES.clear()
    _LAST[:] = [None, None, None]
