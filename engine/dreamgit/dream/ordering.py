"""Orders over memories: the rule set's ``rank`` (budgets) and ``index.order`` (MEMORY.md).

Both give sort keys where a smaller key means "keep / list first", so budget
eviction takes memories from the end and the index cuts from the end.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from dreamgit.dream.envs import evaluate_once, values_each
from dreamgit.dream.placing import PLAIN_ORDER_FIELDS
from dreamgit.dsl import Expression
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet

__all__ = ["RankKey", "index_key", "last_ranked", "rank_key"]


def rank_key(ruleset: RuleSet, now: datetime) -> RankKey:
    """Highest ``rank`` first, then the most recently updated, then by id; each memory's
    key made once for all the orders that use it (pruning sorts a topic, then all)."""
    return RankKey(ruleset.rank, now)


class RankKey:
    """:func:`rank_key`'s key, and the rank alone of many memories (:meth:`scores`)."""

    def __init__(self, rank: Expression, now: datetime) -> None:
        self._rank, self._now = rank, now
        self._made: dict[int, tuple[Memory, tuple[float, float, str]]] = {}

    def __call__(self, memory: Memory) -> tuple[float, float, str]:
        found = self._made.get(id(memory))
        if found is not None and found[0] is memory:
            return found[1]
        score = evaluate_once(self._rank, memory, self._now)
        assert isinstance(score, int | float)  # the rules loader checks rank is a number
        value = (-float(score), -memory.updated.timestamp(), memory.id)
        self._made[id(memory)] = (memory, value)  # the memory held: its id is not reused
        return value

    def scores(self, memories: Sequence[Memory]) -> list[float]:
        """Each memory's rank, as its key holds it (negated there), in their order."""
        return [float(score) for score in values_each(self._rank, memories, self._now)]


def last_ranked(memories: Sequence[Memory], count: int, key: RankKey) -> list[Memory]:
    """``sorted(memories, key=key)[-count:][::-1]``: the ``count`` lowest-ranked, the
    lowest first (``memories`` of distinct ids: no two keys alike), with the whole key
    made only for those whose rank is at most the ``count``-th lowest, as no other can
    be among them: naming the 20 lowest of 100,000 memories ranked them all."""
    if count <= 0:
        return []
    scores = key.scores(memories)
    if any(score != score for score in scores):  # NaN is in no order: rank all, as before
        return sorted(memories, key=key)[-count:][::-1]
    bar = heapq.nsmallest(count, scores)[-1]
    near = [memory for memory, score in zip(memories, scores, strict=True) if score <= bar]
    return heapq.nlargest(count, near, key=key)


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
