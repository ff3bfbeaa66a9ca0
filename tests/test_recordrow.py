"""A record as the record cache's row: the same record back, the same memory made of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.model import Memory
from dreamgit.store.memoryfile import (
    Shared,
    memory_from_record,
    parse_memory_record,
    render_memory,
)
from dreamgit.store.recordrow import (
    FIELDS,
    ROW_VERSION,
    is_row,
    memory_from_row,
    record_of_row,
    row_of,
)

PATH = "memories/tools/editor.md"
NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
_TIMES = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)
).map(lambda t: t.replace(microsecond=0))
_WORD = st.text(alphabet="abcxyz -", min_size=1, max_size=8).map(str.strip).filter(bool)
_WORDS = st.lists(_WORD, max_size=3).map(tuple)
_TEXT = st.text(alphabet="Ab c.\n", min_size=1, max_size=30).map(str.strip).filter(bool)


@st.composite
def _memories(draw: st.DrawFn) -> Memory:
    """A memory with any of the optional fields set."""
    text = draw(_TEXT)
    return Memory(
        id=draw(st.sampled_from(["m-q7w3e5r1", "m-a1b2c3d4"])),
        topic="tools",
        slug="editor",
        text=text,
        created=draw(_TIMES),
        updated=draw(_TIMES),
        name=draw(st.sampled_from(["", "editor", "Editor of choice"])),
        description=draw(st.sampled_from(["", text, "Another description."])),
        type=draw(st.sampled_from(["user", "feedback"])),
        priority=draw(st.sampled_from(["normal", "high"])),
        key=draw(st.none() | _WORD),
        tags=draw(_WORDS),
        sources=draw(_WORDS),
        supersedes=draw(_WORDS),
        valid_from=draw(st.none() | _TIMES),
        valid_to=draw(st.none() | _TIMES),
        superseded_by=draw(_WORDS),
        confidence=draw(st.sampled_from([1.0, 0.5, 0.9])),
        recalls=draw(st.integers(0, 3)),
    )


def _record(memory: Memory) -> dict[str, Any]:
    return parse_memory_record(render_memory(memory), path=PATH)


@given(_memories())
def test_a_row_gives_back_its_record_and_the_same_memory(memory: Memory) -> None:
    """Through the row and its JSON, a record comes back equal, keys in their order, and
    the memory made of the row is the one made of the record, field for field."""
    record = _record(memory)
    row = json.loads(json.dumps(row_of(record)))
    assert is_row(row)
    again = record_of_row(row)
    assert again == record and list(again) == list(FIELDS)
    from_row = memory_from_row(row, path=PATH, now=NOW, shared=Shared())
    from_record = memory_from_record(record, path=PATH, now=NOW)
    assert repr(from_row) == repr(from_record) and from_row == from_record


def test_a_plain_record_leaves_off_its_defaults_and_its_description() -> None:
    """No validity, tags, sources or supersessions: the row ends at the times, and the
    description that is the text is not written twice."""
    when = datetime(2025, 7, 8, tzinfo=UTC)
    record = _record(Memory("m-q7w3e5r1", "tools", "editor", "Uses Helix.", when, when))
    row = row_of(record)
    assert row[0] == ROW_VERSION and len(row) == FIELDS.index("valid_from") + 1
    assert row[1 + FIELDS.index("description")] is None
    assert "Uses Helix." in row and record_of_row(row) == record


def test_a_record_of_a_file_without_front_matter_comes_back_equal() -> None:
    """A plain Markdown file's record (no times, no id) survives the row as it is."""
    record = parse_memory_record("Just a note.\n", path=PATH)
    assert record_of_row(row_of(record)) == record
    made = memory_from_row(row_of(record), path=PATH, now=NOW)
    assert made == memory_from_record(record, path=PATH, now=NOW) and made.created == NOW


def test_entries_of_another_shape_or_version_are_not_rows() -> None:
    """Older entries (a dict, or a row of another version or length) are parsed again."""
    row = row_of(parse_memory_record("Just a note.\n", path=PATH))
    assert is_row(row)
    assert not is_row([ROW_VERSION - 1, *row[1:]])
    assert not is_row(row[:-1]) and not is_row([*row, None, None, None, None, None, None, 1])
    assert not is_row({"ok": record_of_row(row), "v": 2}) and not is_row(None)


def test_memories_of_one_read_share_their_repeated_values() -> None:
    """Made through one ``Shared``, two memories hold one object for each value they
    repeat (the topic, the type and priority, a tag list, a time); the name that is the
    slug is the slug itself, and a memory holds no ``extra`` dict until one is asked for."""
    when = datetime(2025, 7, 8, tzinfo=UTC)
    shared = Shared()
    made = []
    for ident, slug in (("m-q7w3e5r1", "editor"), ("m-a1b2c3d4", "shell")):
        memory = Memory(ident, "tools", slug, f"Text of {slug}.", when, when, tags=("a", "b"))
        path = f"memories/tools/{slug}.md"
        row = row_of(parse_memory_record(render_memory(memory), path=path))
        made.append(memory_from_row(row, path=path, now=NOW, shared=shared))
    one, two = made
    assert one.topic is two.topic and one.priority is two.priority and one.type is two.type
    assert one.tags is two.tags and one.created is two.created is one.updated
    assert one.name is one.slug and one.description is one.text
    assert not hasattr(one, "__dict__")
    assert one.extra == {} and one.extra is one.extra and one.extra is not two.extra
