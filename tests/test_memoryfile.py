"""Memory files to Memory records and back: defaults, errors, and careful rewrites."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.errors import MemoryFileError
from dreamgit.ids import NAME_PATTERN, memory_id
from dreamgit.model import Memory
from dreamgit.store.memoryfile import (
    Shared,
    decode_text,
    memory_from_record,
    parse_memory_record,
    render_memory,
    rewrite_memory,
    split_memory_path,
)

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
PATH = "memories/preferences/prefers-pytest.md"

DESIGN_EXAMPLE = """\
---
name: prefers-pytest
description: Prefers pytest over unittest for Python tests
metadata:
  type: feedback
dream:
  id: m-7f3k2q9d
  topic: preferences
  priority: normal          # ephemeral | low | normal | high | core
  key: python.test-runner   # optional slot: a newer memory with the same key supersedes
  tags: [python, testing]
  created: 2026-11-20T10:04:00Z
  updated: 2026-11-21T09:12:00Z
  sources: [s-20261120-a1b2]
  confidence: 0.9
---
Prefers pytest over unittest for Python tests.
"""


def _memory(text: str) -> Memory:
    return memory_from_record(parse_memory_record(text, path=PATH), path=PATH, now=NOW)


def test_design_example_reads_every_field() -> None:
    """The file shown in DESIGN.md reads into the Memory it describes."""
    memory = _memory(DESIGN_EXAMPLE)
    assert memory == Memory(
        id="m-7f3k2q9d",
        topic="preferences",
        slug="prefers-pytest",
        text="Prefers pytest over unittest for Python tests.",
        created=datetime(2026, 11, 20, 10, 4, tzinfo=UTC),
        updated=datetime(2026, 11, 21, 9, 12, tzinfo=UTC),
        name="prefers-pytest",
        description="Prefers pytest over unittest for Python tests",
        type="feedback",
        priority="normal",
        key="python.test-runner",
        tags=("python", "testing"),
        sources=("s-20261120-a1b2",),
        confidence=0.9,
    )


def test_rendered_memory_reads_back_equal() -> None:
    """render_memory then parse gives the same Memory."""
    memory = dataclasses.replace(
        _memory(DESIGN_EXAMPLE), supersedes=("m-aaaaaaaa",), recalls=3, priority="core"
    )
    assert _memory(render_memory(memory)) == memory


def test_file_without_dream_block_gets_defaults() -> None:
    """A Claude-style file with no `dream:` block is a memory with defaults.

    Decision: its id is derived from its path (stable while the file stays put),
    its priority is normal, its topic and slug come from the path, and its
    unknown times read as "now", so age rules never prune a file dreamgit has
    not yet seen written.
    """
    text = "---\nname: x\ndescription: d\nmetadata:\n  type: project\n---\nBody.\n"
    memory = _memory(text)
    assert memory.id == memory_id("path", PATH)
    assert memory.id.startswith("m-")
    assert (memory.priority, memory.topic, memory.slug) == (
        "normal",
        "preferences",
        "prefers-pytest",
    )
    assert memory.created == memory.updated == NOW
    assert (memory.type, memory.text, memory.description) == ("project", "Body.", "d")


def test_plain_markdown_file_is_a_memory() -> None:
    """A file with no front matter at all is a memory whose text is the file."""
    memory = _memory("Just a fact.\n")
    assert (memory.text, memory.priority, memory.created) == ("Just a fact.", "normal", NOW)


def test_older_claude_shape_with_top_level_type() -> None:
    """Claude's older front matter with a top-level `type:` is read."""
    assert _memory("---\nname: x\ntype: reference\n---\nb\n").type == "reference"


def test_unknown_memory_type_reads_as_user() -> None:
    """A type Claude does not know falls back to `user`."""
    assert _memory("---\nmetadata:\n  type: weird\n---\nb\n").type == "user"


def test_tags_given_as_a_comma_string_are_split() -> None:
    """`tags: a, b` is read as two tags."""
    assert _memory("---\ndream:\n  tags: a, b\n---\nb\n").tags == ("a", "b")


def test_updated_defaults_to_created() -> None:
    """A file with only `created` has `updated` equal to it."""
    memory = _memory("---\ndream:\n  created: 2026-01-02\n---\nb\n")
    assert memory.created == memory.updated == datetime(2026, 1, 2, tzinfo=UTC)


def test_unknown_priority_names_file_line_and_choices() -> None:
    """An unknown priority is reported at its line with the allowed names."""
    text = "---\nname: x\ndream:\n  id: m-aaaaaaaa\n  priority: urgent\n---\nb\n"
    with pytest.raises(MemoryFileError) as caught:
        parse_memory_record(text, path=PATH)
    assert caught.value.render() == (
        f"{PATH}:5: dream.priority: 'urgent' is not a priority\n"
        "hint: use one of ephemeral, low, normal, high, core"
    )


def test_bad_time_names_field_and_line() -> None:
    """A time that is not ISO-8601 is reported with its key and line."""
    text = "---\ndream:\n  created: last tuesday\n---\nb\n"
    with pytest.raises(MemoryFileError) as caught:
        parse_memory_record(text, path=PATH)
    assert caught.value.render() == (
        f"{PATH}:3: dream.created: time: 'last tuesday' is not an ISO-8601 time"
    )


def test_dream_block_that_is_not_a_mapping_is_refused() -> None:
    """`dream: 5` is reported at its line."""
    with pytest.raises(MemoryFileError) as caught:
        parse_memory_record("---\nname: x\ndream: 5\n---\nb\n", path=PATH)
    assert caught.value.render() == f"{PATH}:3: 'dream' must be a mapping"


def test_infinite_recalls_is_a_memory_file_error() -> None:
    """`recalls: .inf` is a MemoryFileError, not an OverflowError."""
    with pytest.raises(MemoryFileError, match=r"dream\.recalls: cannot convert float infinity"):
        parse_memory_record("---\ndream:\n  recalls: .inf\n---\nb\n", path=PATH)


def test_time_out_of_range_in_utc_is_a_memory_file_error() -> None:
    """A time in year 1 east of UTC cannot be moved to UTC: reported, not a crash."""
    text = "---\ndream:\n  created: 0001-01-01T00:00:00+05:00\n---\nb\n"
    with pytest.raises(MemoryFileError, match=r":3: dream.created: date value out of range"):
        parse_memory_record(text, path=PATH)


def test_binary_content_is_refused_with_a_hint() -> None:
    """Bytes with NUL in them are a binary file, to be moved out of memories/."""
    with pytest.raises(MemoryFileError) as caught:
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00", path="memories/x/img.md")
    assert caught.value.render() == (
        "memories/x/img.md: is a binary file, not Markdown text\n"
        "hint: move it out of memories/ (memories are Markdown files)"
    )


def test_non_utf8_bytes_are_reported_with_line_and_offset() -> None:
    """Latin-1 bytes are reported at their line and offset."""
    with pytest.raises(MemoryFileError) as caught:
        decode_text(b"---\nname: x\n---\ncaf\xe9\n", path=PATH)
    assert caught.value.render() == (
        f"{PATH}:4: is not UTF-8 text (bad byte 0xe9 at offset 19)\nhint: save the file as UTF-8"
    )


@pytest.mark.parametrize(
    "path",
    [
        "memories/x.md",
        "memories/a/b/c.md",
        "memories/A/b.md",
        "memories/a/.hidden.md",
        "memories/../b.md",
        "memories/a/b.txt",
        "notes/a/b.md",
    ],
)
def test_paths_outside_the_memory_layout_are_refused(path: str) -> None:
    """Only memories/<topic>/<slug>.md with safe names is a memory path."""
    with pytest.raises(MemoryFileError) as caught:
        split_memory_path(path)
    assert caught.value.render() == (
        f"{path}: not a memory file path\n"
        "hint: memory files live at memories/<topic>/<slug>.md with lower-case names"
    )


def test_rewrite_updates_our_keys_and_keeps_everything_else() -> None:
    """Rewriting keeps comments, unknown keys and the body; our keys follow the Memory."""
    text = DESIGN_EXAMPLE.replace("metadata:", "x-agent: {keep: true}\nmetadata:")
    memory = dataclasses.replace(_memory(text), priority="high", tags=("python",))
    out = rewrite_memory(text, memory, path=PATH)
    assert "x-agent: {keep: true}" in out
    assert "# ephemeral | low | normal | high | core" in out
    assert out.endswith("---\nPrefers pytest over unittest for Python tests.\n")
    assert _memory(out) == memory


def test_rewrite_keeps_body_bytes_when_text_is_unchanged() -> None:
    """An unchanged body keeps its exact bytes, blank lines and all."""
    text = DESIGN_EXAMPLE.replace("tests.\n", "tests.\n\n\n")
    memory = dataclasses.replace(_memory(text), priority="low")
    assert rewrite_memory(text, memory, path=PATH).endswith("tests.\n\n\n")


def test_rewrite_adds_dream_block_to_a_claude_file() -> None:
    """A file without `dream:` gets one, and its own keys stay first."""
    text = "---\nname: x\ndescription: d\nmetadata:\n  type: project\n---\nBody.\n"
    memory = _memory(text)
    out = rewrite_memory(text, memory, path=PATH)
    assert out.startswith("---\nname: x\ndescription: d\nmetadata:\n  type: project\ndream:\n")
    assert _memory(out) == memory


_chars = st.sampled_from([*list("abdefmrtyc: -[]{}#&*!|>'\",?\n 019.eZT+:"), "\t", "\r"])
_keys = st.sampled_from(
    ["dream", "id", "priority", "created", "updated", "tags", "confidence", "recalls", "key"]
)
_line = st.tuples(_keys, st.lists(_chars, max_size=12).map("".join)).map(
    lambda kv: f"{kv[0]}: {kv[1]}"
)
_front = st.lists(st.one_of(_line, _line.map(lambda s: "  " + s)), max_size=8).map("\n".join)


@given(st.one_of(st.text(max_size=200), _front.map(lambda s: f"---\n{s}\n---\nbody\n")))
def test_any_text_gives_a_record_or_a_memory_file_error(text: str) -> None:
    """Whatever the file holds, parsing gives a record or a MemoryFileError, never a crash."""
    try:
        record = parse_memory_record(text, path=PATH)
    except MemoryFileError as exc:
        assert exc.path == PATH
        return
    try:
        memory = memory_from_record(record, path=PATH, now=NOW)
    except MemoryFileError:  # pragma: no cover - the record was already checked
        raise AssertionError("a checked record must make a Memory") from None
    assert memory.priority in ("ephemeral", "low", "normal", "high", "core")


_PARTS = st.text(alphabet="abz09_-./AM\n", max_size=12)


@given(_PARTS, _PARTS)
def test_a_path_splits_as_its_parts_are_names(topic: str, slug: str) -> None:
    """A path is split exactly when its topic and slug are names (the one-match path and
    the checked one agree), whatever characters the parts hold."""
    path = f"memories/{topic}/{slug}.md"
    named = all(part and "/" not in part and NAME_PATTERN.match(part) for part in (topic, slug))
    if named:
        assert split_memory_path(path) == (topic, slug)
    else:
        with pytest.raises(MemoryFileError):
            split_memory_path(path)


def test_memories_made_with_a_time_memo_equal_those_made_without() -> None:
    """A caller's memo of parsed times gives the same memories, each distinct time parsed
    once and held as one object by every memory that says it."""
    first = parse_memory_record(DESIGN_EXAMPLE, path=PATH)
    second = {**first, "id": "m-other", "valid_from": "2026-11-20T10:04:00Z"}
    shared = Shared()
    made = [memory_from_record(r, path=PATH, now=NOW, shared=shared) for r in (first, second)]
    plain = [memory_from_record(r, path=PATH, now=NOW) for r in (first, second)]
    assert made == plain and [m.valid_from for m in made] == [m.valid_from for m in plain]
    assert made[0].created is made[1].created is made[1].valid_from
    assert made[0].updated is made[1].updated and made[0].updated != made[0].created
    assert sorted(shared.times) == ["2026-11-20T10:04:00Z", "2026-11-21T09:12:00Z"]
