"""The one-match reader of memory files: the full parser's record, or none at all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory
from dreamgit.store.memoryfile import parse_full_record, parse_memory_record, render_memory
from dreamgit.store.plainrecord import plain_record

PATH = "memories/tools/editor.md"
WHEN = datetime(2025, 7, 8, 9, 10, 11, tzinfo=UTC)


def _memory(
    text: str = "Edits shell scripts in Helix, with spaces for indent.", **more: Any
) -> Memory:
    fields: dict[str, Any] = {
        "id": "m-q7w3e5r1",
        "topic": "tools",
        "slug": "editor",
        "text": text,
        "created": WHEN,
        "updated": WHEN,
    }
    fields.update(more)
    return Memory(**fields)


def _outcome(parse: Callable[..., dict[str, Any]], text: str) -> dict[str, Any] | str:
    """What ``parse`` gives for ``text``: the record, or its error's reason."""
    try:
        return parse(text, path=PATH)
    except MemoryFileError as exc:
        return exc.reason


def _full(text: str) -> dict[str, Any] | str:
    """The full parser's record, or its error's reason."""
    return _outcome(parse_full_record, text)


def test_every_field_dreamgit_writes_is_read_by_one_match_as_the_full_parser_reads_it() -> None:
    """A memory with every optional key set takes the fast path and gives the same record."""
    memory = _memory(
        key="editor.shell",
        tags=("helix", "shell scripts"),
        sources=("s-20250708-c3d4",),
        supersedes=("m-a1b2c3d4",),
        valid_from=datetime(2025, 1, 2, tzinfo=UTC),
        valid_to=datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC),
        superseded_by=("m-e5f6a7b8",),
        confidence=0.75,
        recalls=4,
        priority="high",
        type="feedback",
    )
    text = render_memory(memory)
    fast = plain_record(text)
    assert fast is not None
    assert fast == _full(text)
    assert list(fast) == list(parse_full_record(text, path=PATH))  # same order in the JSON
    assert fast["valid_to"] == "2026-03-04T05:06:07Z" and fast["recalls"] == 4


def test_a_plain_memory_without_optional_keys_is_read_by_one_match() -> None:
    """The common shape (no key, no validity, no recalls) is the fast path's."""
    text = render_memory(_memory(tags=("helix",), sources=()))
    assert plain_record(text) == _full(text) == parse_memory_record(text, path=PATH)


#: Each a rendered file with one thing changed that the one match must not read itself.
ODD = [
    ("name: editor\n", 'name: "editor"\n'),  # double quoted
    ("name: editor\n", "name: 'edi'tor'\n"),  # a lone quote inside
    ("name: editor\n", "name: 'editor' \n"),  # a space after the closing quote
    ("name: editor\n", "name: 'editor\tx'\n"),
    ("name: editor\n", "name: yes\n"),  # YAML 1.1 reads a boolean
    ("name: editor\n", "name: 2024\n"),  # a number
    ("name: editor\n", "name: editor # a comment\n"),
    ("priority: normal\n", "priority: urgent\n"),  # the full parser refuses it
    ("priority: normal\n", "priority: Normal\n"),
    ("id: m-q7w3e5r1\n", "id: m q7\n"),  # not one word
    ("id: m-q7w3e5r1\n", "id: 12345\n"),  # an int in YAML
    ("type: user\n", "type: null\n"),
    ("created: 2025-07-08T09:10:11Z\n", "created: 2025-02-30T09:10:11Z\n"),  # no such day
    ("created: 2025-07-08T09:10:11Z\n", "created: 2025-07-08 09:10:11Z\n"),
    ("created: 2025-07-08T09:10:11Z\n", "created: 2025-07-08\n"),  # a date
    ("created: 2025-07-08T09:10:11Z\n", "created: '2025-07-08T09:10:11Z'\n"),
    ("tags: [helix]\n", "tags: [helix, yes]\n"),
    ("tags: [helix]\n", "tags: [helix, 'two words']\n"),
    ("tags: [helix]\n", "tags:\n  - helix\n"),  # a block list
    ("tags: [helix]\n", "tags: helix, vim\n"),  # a string of commas
    ("confidence: 0.9\n", "confidence: 1e-3\n"),
    ("confidence: 0.9\n", "confidence: 1\n"),  # an int
    ("confidence: 0.9\n", "confidence: 0.9\n  recalls: 007\n"),
    ("confidence: 0.9\n", "confidence: 0.9\n  owner: team\n"),  # a key of someone else's
    ("metadata:\n  type: user\n", "type: user\n"),  # Claude's older shape
    ("  topic: tools\n", "  topic: tools\n  key:\n"),  # a key with no value
    ("---\nname", "\ufeff---\nname"),  # a byte-order mark
    ("---\nname", "--- \nname"),
    ("\n", "\r\n"),  # CRLF everywhere
    ("name: editor\n", "name: editor\t\n"),
    ("name: editor\n", "name: editor\u2028x\n"),
    ("description: ", "description: x\n...\ndescription: "),
]


@pytest.mark.parametrize(("old", "new"), ODD)
def test_odd_front_matter_is_left_to_the_full_parser_or_read_as_it_reads_it(
    old: str, new: str
) -> None:
    """Quotes, other types, bad times, other keys and layouts: the one match gives None
    (the full parser reads the file) or exactly the full parser's record."""
    text = render_memory(_memory(tags=("helix",), confidence=0.9))
    assert old in text
    odd = text.replace(old, new, 1) if old != "\n" else text.replace(old, new)
    assert plain_record(odd) is None, new
    assert _read(odd) == _full(odd)


def test_a_description_the_dumper_quotes_is_read_by_one_match_as_the_full_parser_reads_it() -> None:
    """A description holding ": " (single-quoted by the dumper) takes the fast path and
    gives the full parser's record; a quote doubled inside reads as one."""
    text = render_memory(_memory("Reminder: keep pull requests small."))
    assert "description: 'Reminder: keep pull requests small.'\n" in text
    fast = plain_record(text)
    assert fast is not None and fast == _full(text)
    assert fast["description"] == "Reminder: keep pull requests small."
    doubled = text.replace("keep pull", "keep Ann''s pull", 1)
    assert plain_record(doubled) == _full(doubled)
    assert _full(doubled)["description"] == "Reminder: keep Ann's pull requests small."


@given(value=st.text(alphabet=st.sampled_from("a: '#\t\\\"é\u2028-"), max_size=12))
def test_any_single_quoted_name_or_description_reads_as_the_full_parser_reads_it(
    value: str,
) -> None:
    """Whatever stands between single quotes, the one match gives None or the full
    parser's record (or error)."""
    text = render_memory(_memory(tags=("helix",)))
    for field in ("name", "description"):
        line = next(x for x in text.split("\n") if x.startswith(f"{field}: "))
        odd = text.replace(line, f"{field}: '{value}'", 1)
        fast = plain_record(odd)
        if fast is not None:
            assert fast == _full(odd)
        assert _read(odd) == _full(odd)


def _read(text: str) -> dict[str, Any] | str:
    """What :func:`parse_memory_record` gives: the record, or its error's reason."""
    return _outcome(parse_memory_record, text)


def test_a_type_of_no_kind_is_read_as_user_by_both() -> None:
    """A type the model does not know reads as ``user`` on either path."""
    text = render_memory(_memory()).replace("type: user", "type: diary")
    fast = plain_record(text)
    assert fast is not None and fast["type"] == "user"
    assert fast == _full(text)


def test_a_file_the_full_parser_refuses_is_refused_with_its_words() -> None:
    """A priority the rules do not know still fails with the full parser's message."""
    text = render_memory(_memory()).replace("priority: normal", "priority: urgent")
    with pytest.raises(MemoryFileError, match="is not a priority"):
        parse_memory_record(text, path=PATH)


_WORD = st.sampled_from(
    ["helix", "Vim", "yes", "No", "null", "x1", "naïve", "a.b", "v1.2", "C++", "1", "é", "s-1"]
)
_PHRASE = st.one_of(
    st.lists(_WORD, min_size=1, max_size=4).map(" ".join),
    st.text(min_size=1, max_size=16),
)


@given(
    text=_PHRASE.filter(lambda t: t.strip()),
    name=st.one_of(st.just(""), _PHRASE),
    key=st.one_of(st.none(), _PHRASE),
    tags=st.lists(_PHRASE, max_size=3),
    sources=st.lists(_WORD, max_size=2),
    confidence=st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 0.5, 1e-7])),
    recalls=st.integers(0, 10**6),
    priority=st.sampled_from(["ephemeral", "low", "normal", "high", "core"]),
    when=st.datetimes(
        min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
)
def test_any_rendered_memory_reads_the_same_by_one_match_and_by_the_full_parser(
    text: str,
    name: str,
    key: str | None,
    tags: list[str],
    sources: list[str],
    confidence: float,
    recalls: int,
    priority: str,
    when: datetime,
) -> None:
    """Whatever a memory holds, the one match gives None or the full parser's record."""
    memory = _memory(
        text,
        name=name,
        key=key,
        tags=tuple(tags),
        sources=tuple(sources),
        confidence=confidence,
        recalls=recalls,
        priority=priority,
        created=when,
        updated=when,
    )
    rendered = render_memory(memory)
    fast = plain_record(rendered)
    if fast is not None:
        assert fast == _full(rendered)
