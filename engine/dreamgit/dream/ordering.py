"""Orders over memories: the rule set's ``rank`` (budgets) and ``index.order`` (MEMORY.md).

Both give sort keys where a smaller key means "keep / list first", so budget
eviction takes memories from the end and the index cuts from the end.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from dreamgit.dream.envs import evaluate_once
from dreamgit.dream.placing import PLAIN_ORDER_FIELDS
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet

__all__ = ["index_key", "rank_key"]


def rank_key(ruleset: RuleSet, now: datetime) -> Callable[[Memory], tuple[float, float, str]]:
    """Highest ``rank`` first, then the most recently updated, then by id; each memory's
    key made once for all the orders that use it (pruning sorts a topic, then all)."""
    made: dict[int, tuple[Memory, tuple[float, float, str]]] = {}

    def key(memory: Memory) -> tuple[float, float, str]:
        found = made.get(id(memory))
        if found is not None and found[0] is memory:
            return found[1]
        score = evaluate_once(ruleset.rank, memory, now)
        assert isinstance(score, int | float)  # the rules loader checks rank is a number
        value = (-float(score), -memory.updated.timestamp(), memory.id)
        made[id(memory)] = (memory, value)  # the memory held: its id is not reused
        return value

    return key


def _field(name: str, ruleset: RuleSet, now: datetime) -> Callable[[Memory], Any]:
    plain = PLAIN_ORDER_FIELDS.get(name)
    if plain is not None:  # the same values the index cut keeps (``dream.placing``)
        return plain
    if name == "rank":
        ranked = rank_key(ruleset, now)  # made once for the whole order, not per memory
        return lambda m: -ranked(m)[0]
    return lambda m: getattr(m, name)


def index_key(ruleset: RuleSet, now: datetime) -> Callable[[Memory], tuple[Any, ...]]:
    """The ``index.order`` of the rule set as a sort key (descending fields negated)."""
    parts = [(_field(k.field, ruleset, now), k.descending) for k in ruleset.index_order]
    if all(k.field in PLAIN_ORDER_FIELDS for k in ruleset.index_order):
        return _plain_key([get for get, _ in parts], [descending for _, descending in parts])

    def key(memory: Memory) -> tuple[Any, ...]:
        values: list[Any] = []
        for get, descending in parts:
            value = get(memory)
            if descending:
                value = -value if isinstance(value, int | float) else _Reversed(value)
            values.append(value)
        values.append(memory.id)
        return tuple(values)

    return key


def _plain_key(
    gets: list[Callable[[Memory], float]], descending: list[bool]
) -> Callable[[Memory], tuple[Any, ...]]:
    """:func:`index_key` of fields that are all numbers (``PLAIN_ORDER_FIELDS``): the same
    key, without asking each value's type (the index sorts every memory by it)."""
    if len(gets) == 2:  # the bundled order: "priority desc, updated desc"
        (first, second), (first_down, second_down) = gets, descending
        return lambda m: (
            -first(m) if first_down else first(m),
            -second(m) if second_down else second(m),
            m.id,
        )
    pairs = list(zip(gets, descending, strict=True))
    return lambda m: (*[-get(m) if down else get(m) for get, down in pairs], m.id)


class _Reversed:
    """Wraps a value so it sorts in reverse (for descending text fields)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Reversed) -> bool:
        return bool(self.value > other.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reversed) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)
