"""Tests for dreamgit.dream.consolidate.merge_text: the fields of a merged memory."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from dreamgit.dream.consolidate.merge_text import MergedFields, merge_ids, merge_memories
from dreamgit.model import Memory

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def memory(memory_id: str, text: str, *, days: int = 0, **changes: Any) -> Memory:
    created = T0 + timedelta(days=days)
    base = Memory(memory_id, "preferences", memory_id, text, created, created)
    return replace(base, **changes)


def test_merge_keeps_the_earliest_id_and_creation_time() -> None:
    """The survivor is the oldest memory; its id and created time are kept."""
    merged = merge_memories(
        [memory("m-b", "Prefers dark mode", days=3), memory("m-a", "prefers dark mode", days=1)],
        now=NOW,
    )
    assert (merged.id, merged.created, merged.absorbed) == ("m-a", T0 + timedelta(days=1), ("m-b",))


def test_equal_creation_times_keep_the_smallest_id() -> None:
    """Ties on created go to the smallest id."""
    merged = merge_memories([memory("m-z", "Uses uv"), memory("m-c", "uses uv")], now=NOW)
    assert merged.id == "m-c"


def test_merge_takes_the_most_informative_text() -> None:
    """The text with the most content words wins, then the longer one."""
    group = [
        memory("m-1", "Prefers pytest.", days=0),
        memory("m-2", "Prefers pytest over unittest for Python tests.", days=1),
        memory("m-3", "For Python tests prefers pytest over unittest", days=2),
    ]
    merged = merge_memories(group, now=NOW)
    assert (merged.text, merged.representative) == (group[1].text, "m-2")


def test_the_choice_does_not_depend_on_the_order_of_the_group() -> None:
    """Any order of the same memories gives the same fields."""
    group = [
        memory("m-1", "Uses uv for installs", days=2, tags=("python",)),
        memory("m-2", "uses uv for installs!", days=1, tags=("tools",)),
        memory("m-3", "Uses uv for installs.", days=1, sources=("s-1",)),
    ]
    assert merge_memories(group, now=NOW) == merge_memories(group[::-1], now=NOW)


def test_merge_unites_tags_and_sources_sorted_without_repeats() -> None:
    """Tags and sources are the sorted union of the group's."""
    merged = merge_memories(
        [
            memory("m-1", "Uses uv", tags=("python", "tools"), sources=("s-2",)),
            memory("m-2", "uses uv", days=1, tags=("tools", "cli"), sources=("s-1", "s-2")),
        ],
        now=NOW,
    )
    assert merged.tags == ("cli", "python", "tools")
    assert merged.sources == ("s-1", "s-2")


def test_merge_keeps_the_highest_priority() -> None:
    """Core beats high beats normal."""
    merged = merge_memories(
        [
            memory("m-1", "Uses uv", priority="normal"),
            memory("m-2", "uses uv", days=1, priority="core"),
            memory("m-3", "uses uv.", days=2, priority="low"),
        ],
        now=NOW,
    )
    assert merged.priority == "core"


def test_merge_sets_updated_to_now_and_combines_counters() -> None:
    """Updated is the run's time; confidence is the highest, recalls add up."""
    merged = merge_memories(
        [
            memory("m-1", "Uses uv", confidence=0.6, recalls=2),
            memory("m-2", "uses uv", days=1, confidence=0.9, recalls=3),
        ],
        now=NOW,
    )
    assert (merged.updated, merged.confidence, merged.recalls) == (NOW, 0.9, 5)


def test_merge_keeps_a_key_that_one_member_sets() -> None:
    """A key set on any member is the merged key; unset elsewhere is fine."""
    merged = merge_memories(
        [memory("m-1", "Uses uv"), memory("m-2", "uses uv", days=1, key="python.installer")],
        now=NOW,
    )
    assert merged.key == "python.installer"
    assert merge_memories([memory("m-1", "a b"), memory("m-2", "a b")], now=NOW).key is None


def test_merged_fields_name_every_value_the_caller_writes() -> None:
    """The result is a complete MergedFields value."""
    merged = merge_memories([memory("m-1", "Uses uv"), memory("m-2", "uses uv")], now=NOW)
    assert isinstance(merged, MergedFields)
    assert merged.topic == "preferences"


def test_conflicting_keys_are_rejected() -> None:
    """Two different keys mean two different slots: never one memory."""
    group = [
        memory("m-1", "3.12", key="python.version"),
        memory("m-2", "3.12", key="node.version"),
    ]
    with pytest.raises(
        ValueError,
        match=re.escape("cannot merge memories with different keys: node.version, python.version"),
    ):
        merge_memories(group, now=NOW)


def test_memories_from_different_topics_are_rejected() -> None:
    """A merge stays within one topic."""
    group = [memory("m-1", "Uses uv", topic="tools"), memory("m-2", "uses uv", topic="python")]
    with pytest.raises(
        ValueError, match="cannot merge memories from different topics: python, tools"
    ):
        merge_memories(group, now=NOW)


def test_a_group_of_one_is_rejected() -> None:
    """Merging needs at least two memories."""
    with pytest.raises(ValueError, match="a merge needs at least two memories"):
        merge_memories([memory("m-1", "Uses uv")], now=NOW)


def test_a_repeated_id_is_rejected() -> None:
    """The same memory twice is a caller's bug."""
    with pytest.raises(ValueError, match="a merge group repeats a memory id: m-1, m-1"):
        merge_memories([memory("m-1", "Uses uv"), memory("m-1", "uses uv")], now=NOW)


def test_merge_ids_name_who_merges_as_the_merged_fields_do() -> None:
    """``merge_ids`` gives the survivor and absorbed ids ``merge_memories`` gives, in order."""
    group = [
        memory("m-q", "Prefers dark mode in the editor", days=4),
        memory("m-b", "prefers dark mode", days=2),
        memory("m-k", "Prefers dark mode", days=2),
    ]
    survivor, absorbed = merge_ids(group)
    merged = merge_memories(group, now=NOW)
    assert (survivor.id, absorbed) == (merged.id, merged.absorbed) == ("m-b", ("m-k", "m-q"))


def test_merge_ids_refuse_what_merge_memories_refuses() -> None:
    """Both raise the same error for a group of mixed topics."""
    group = [memory("m-a", "Uses uv"), replace(memory("m-b", "uses uv"), topic="tools")]
    for merge in (merge_ids, lambda g: merge_memories(g, now=NOW)):
        with pytest.raises(ValueError, match="different topics: preferences, tools"):
            merge(group)
