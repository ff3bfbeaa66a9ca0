"""The index order of plain fields (priority, updated, created, chars) is built without
asking each value's type: the same keys, the same order, as for any other field."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.dream import ordering
from dreamgit.model import Memory
from dreamgit.ruleset import load_bundled
from dreamgit.ruleset.model import OrderKey

NOW = datetime(2026, 3, 1, tzinfo=UTC)
ORDERS = [
    (("priority", True), ("updated", True)),
    (("created", False),),
    (("chars", True), ("priority", False), ("updated", True)),
    (("updated", False), ("created", True)),
]


def _memories() -> list[Memory]:
    return [
        Memory(
            id=f"m-{k:03d}",
            topic="t",
            slug=f"s{k}",
            text="x" * (k % 7),
            created=NOW - timedelta(days=k % 5),
            updated=NOW - timedelta(hours=k % 3),
            priority=["low", "normal", "high", "core", "ephemeral"][k % 5],
        )
        for k in range(60)
    ]


@pytest.mark.parametrize("order", ORDERS)
def test_a_plain_order_gives_the_keys_of_the_general_one(order: tuple[tuple[str, bool]]) -> None:
    """Each memory's key equals the one built field by field, and so does the order."""
    rules = replace(load_bundled("default"), index_order=tuple(OrderKey(f, d) for f, d in order))
    plain = ordering.index_key(rules, NOW)
    parts = [(ordering.PLAIN_ORDER_FIELDS[f], d) for f, d in order]

    def general(m: Memory) -> tuple[object, ...]:
        return (*[-get(m) if d else get(m) for get, d in parts], m.id)

    memories = _memories()
    assert [plain(m) for m in memories] == [general(m) for m in memories]
    assert sorted(memories, key=plain) == sorted(memories, key=general)
