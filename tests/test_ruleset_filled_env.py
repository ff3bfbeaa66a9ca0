"""A dream's memory environments hold the names read straight from a memory's fields from
the start (``LazyMemoryEnv.filled``): the same values as each name computed when read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dsl import compile_expression
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import (
    MEMORY_FIELDS,
    MEMORY_SCHEMA,
    LazyMemoryEnv,
    memory_env,
    names_read,
)

TEXTS = [
    "Prefers pytest over unittest.",
    "The demo is on 7 March 2026 at 3pm.",
    "A call every Monday at 10:30 with the team.",
    "Deadline: 2 February 2026.",
    "",
]
NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    created = NOW - timedelta(hours=draw(st.integers(-48, 24 * 400)))
    recalled = draw(st.booleans())
    return Memory(
        id=f"m-{draw(st.integers(0, 99))}",
        topic=draw(st.sampled_from(["prefs", "plans"])),
        slug="s",
        text=draw(st.sampled_from(TEXTS)),
        created=created,
        updated=created + timedelta(hours=draw(st.integers(0, 100))),
        priority=draw(st.sampled_from(["ephemeral", "low", "normal", "high", "core", "odd"])),
        key=draw(st.sampled_from([None, "", "editor"])),
        tags=tuple(draw(st.lists(st.sampled_from(["session-note", "lesson", "x"]), max_size=2))),
        valid_from=draw(st.sampled_from([None, created - timedelta(days=3)])),
        valid_to=draw(st.sampled_from([None, NOW])),
        superseded_by=tuple(draw(st.lists(st.sampled_from(["m-1", "m-2"]), max_size=1))),
        confidence=draw(st.sampled_from([0.2, 1.0])),
        recalls=draw(st.integers(0, 4)),
        recall=RecallStats(count=2, queries=("q",), first=created, last=NOW) if recalled else None,
    )


@given(memories(), st.booleans())
def test_a_filled_environment_equals_each_name_computed_when_read(
    memory: Memory, recorded: bool
) -> None:
    """Every name, read from a filled environment, a lazy one and the whole ``memory_env``."""
    filled = LazyMemoryEnv.filled(memory, NOW, recalls_recorded=recorded)
    lazy = LazyMemoryEnv(memory, NOW, recalls_recorded=recorded)
    whole = memory_env(memory, NOW, recalls_recorded=recorded)
    assert list(whole) == list(MEMORY_FIELDS) == list(filled)
    for name in MEMORY_FIELDS:
        assert filled[name] == lazy[name] == whole[name], name
        assert type(filled[name]) is type(lazy[name]), name
    assert filled == lazy == whole


def test_a_filled_environment_computes_the_text_names_only_when_read() -> None:
    """``since_day``, ``recurs`` and ``recall`` read the text or the recall figures: a rule
    that never reads them never pays for them."""
    memory = Memory(
        id="m-1", topic="t", slug="s", text="On 2 March at 3pm.", created=NOW, updated=NOW
    )
    filled = LazyMemoryEnv.filled(memory, NOW)
    held = set(dict.keys(filled))
    assert {"priority", "age", "text", "tags"} <= held
    assert not held & {"since_day", "recurs", "recall"}


def test_a_memory_whose_fields_cannot_all_be_read_fails_only_on_those_names() -> None:
    """A date without a zone cannot be compared with a dream's time: ``age`` fails where
    a rule reads it, as before, and ``priority`` still reads."""
    naive = datetime(2026, 1, 1)
    memory = Memory(id="m-1", topic="t", slug="s", text="x", created=naive, updated=naive)
    filled = LazyMemoryEnv.filled(memory, NOW)
    assert filled["priority"].name == "normal"
    with pytest.raises(TypeError):
        filled["age"]


@given(memories(), st.booleans(), st.frozensets(st.sampled_from(list(MEMORY_FIELDS))))
def test_an_environment_filled_with_some_names_reads_every_name_alike(
    memory: Memory, recorded: bool, names: frozenset[str]
) -> None:
    """Filled with only the names some rules read, an environment holds those of them read
    straight from the fields and computes every other name when read, to the same values."""
    filled = LazyMemoryEnv.filled(memory, NOW, recalls_recorded=recorded, names=names)
    assert set(dict.keys(filled)) == names - {"since_day", "recurs", "recall"}
    lazy = LazyMemoryEnv(memory, NOW, recalls_recorded=recorded)
    for name in MEMORY_FIELDS:
        assert filled[name] == lazy[name], name
        assert type(filled[name]) is type(lazy[name]), name


def test_the_names_rules_read_are_their_memory_fields() -> None:
    """A field of a record reads its memory name (``recall``); calls are not names."""
    read = names_read(
        [
            compile_expression("min(recalls, 3) + days(age)", MEMORY_SCHEMA),
            compile_expression("recall.count > 2 and 'x' in tags", MEMORY_SCHEMA),
        ]
    )
    assert read == {"recalls", "age", "recall", "tags"}


@given(
    st.lists(memories(), max_size=4),
    st.booleans(),
    st.frozensets(st.sampled_from(list(MEMORY_FIELDS))),
)
def test_one_filling_function_makes_each_memorys_filled_environment(
    batch: list[Memory], recorded: bool, names: frozenset[str]
) -> None:
    """``LazyMemoryEnv.filling`` (vetting's, made once for many memories) gives each memory
    the environment ``filled`` gives it: the same names held, the same values, its memory."""
    made = LazyMemoryEnv.filling(NOW, recalls_recorded=recorded, names=names)
    for memory in batch:
        env = made(memory)
        alone = LazyMemoryEnv.filled(memory, NOW, recalls_recorded=recorded, names=names)
        assert type(env) is LazyMemoryEnv and env.memory is memory
        assert dict(dict.items(env)) == dict(dict.items(alone))
        assert env == alone == LazyMemoryEnv(memory, NOW, recalls_recorded=recorded)
        with pytest.raises(TypeError):
            env["text"] = "changed"  # type: ignore[index]


def test_a_filling_function_leaves_unreadable_fields_to_fail_when_read() -> None:
    """A memory whose fields cannot all be read gets an empty environment from the filling
    function too, each name failing (or not) only where a rule reads it."""
    naive = datetime(2026, 1, 1)
    memory = Memory(id="m-1", topic="t", slug="s", text="x", created=naive, updated=naive)
    env = LazyMemoryEnv.filling(NOW)(memory)
    assert set(dict.keys(env)) == set()
    assert env["priority"].name == "normal"
    with pytest.raises(TypeError):
        env["age"]
