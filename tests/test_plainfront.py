"""The plain front-matter reader: the YAML loader's answer, or none at all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory
from dreamgit.store import frontmatter
from dreamgit.store.memoryfile import parse_memory_record, render_memory, rewrite_memory
from dreamgit.store.plainfront import read_plain, write_plain

PATH = "memories/prefs/runner.md"


def _by_yaml(raw: str) -> Any:
    loader = vars(frontmatter)["_FastLoader"](raw)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _memory(text: str, **more: Any) -> Memory:
    when = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    return Memory(
        id="m-abc12345",
        topic="prefs",
        slug="runner",
        text=text,
        created=when,
        updated=when,
        **more,
    )


def test_a_rendered_memory_is_read_without_yaml_and_gives_the_same_record() -> None:
    """What dreamgit writes takes the plain path, and its record is the YAML loader's."""
    memory = _memory(
        "Runs the nightly checks with tox, then uploads the report.",
        key="ci.runner",
        tags=("ci", "night shift"),
        sources=("s-20260304-a1b2",),
        confidence=0.9,
    )
    text = render_memory(memory)
    raw = text.split("---\n")[1]
    plain = read_plain(raw)
    assert plain is not None
    assert plain == _by_yaml(raw)
    assert plain["dream"]["created"] == datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    record = parse_memory_record(text, path=PATH)
    assert record["tags"] == ["ci", "night shift"]
    assert record["created"] == "2026-03-04T05:06:07Z"
    assert record["confidence"] == 0.9


def test_yaml_beyond_the_plain_shape_is_left_to_the_yaml_loader() -> None:
    """Quotes, comments, booleans, nulls, block lists and lone keys are not read here."""
    for raw in (
        "name: 'quoted'\n",
        "name: a # comment\n",
        "flag: yes\n",
        "flag: True\n",
        "gone: null\n",
        "tags:\n- a\n",
        "lone:\n",
        "name: a\nname: b\n",
        "name: a: b\n",
        "when: 2026-13-01\n",
        "name: *alias\n",
        "code: 0123\n",
    ):
        assert read_plain(raw) is None, raw


_WORDS = st.sampled_from(
    [
        "a", "Tom", "yes", "No", "null", "true", "~", "1", "0", "012", "1.5", "1e5", ".5",
        "2026-01-02", "2026-01-02T03:04:05Z", "x:", "a: b", "#", "b #c", "&x", "*y", "!t",
        "[", "]", "{", "}", ",", "-", "'", '"', "|", ">", "%", "@", "`", "?", "é", "naïve",
        "3d", "v1.2", "s-20260101-ab", "--", "...", " ", "",
    ]
)  # fmt: skip
_KEYS = st.sampled_from(["name", "id", "on", "tags", "dream", "type", "x_y", "k-1", "Yes"])
_VALUE = st.one_of(
    st.lists(_WORDS, min_size=1, max_size=4).map(" ".join),
    st.lists(_WORDS, max_size=3).map(lambda ws: "[" + ", ".join(ws) + "]"),
    st.text(min_size=1, max_size=12),
)
_LINE = st.one_of(
    st.tuples(_KEYS, _VALUE).map(lambda kv: f"{kv[0]}: {kv[1]}"),
    st.tuples(_KEYS, st.lists(st.tuples(_KEYS, _VALUE), min_size=1, max_size=3)).map(
        lambda kv: "\n".join([f"{kv[0]}:", *(f"  {k}: {v}" for k, v in kv[1])])
    ),
    _KEYS.map(lambda k: f"{k}:"),
    st.text(max_size=10),
)


@given(st.lists(_LINE, min_size=1, max_size=6))
def test_a_plain_reading_always_equals_the_yaml_loaders(lines: list[str]) -> None:
    """Whatever the text, the plain reader gives None or exactly what YAML would build."""
    raw = "\n".join(lines) + "\n"
    plain = read_plain(raw)
    if plain is None:
        return
    assert plain == _by_yaml(raw)
    assert [type(v) for v in plain.values()] == [type(v) for v in _by_yaml(raw).values()]


_ODD_KEYS = st.one_of(
    _KEYS, _KEYS, st.sampled_from(["a:b", " x", "k ", "_", "-k", "9k", "é", "k.y", ""])
)
_SEPARATOR = st.sampled_from([": ", ": ", ":", ":  ", " : ", ":\t"])
_INDENT = st.sampled_from([" ", "  ", "  ", "   "])
_PLAIN_VALUE = st.one_of(
    st.sampled_from(["a", "Tom", "naïve", "v1.2", "3", "2026-01-02", "[a, b]", "x y"]), _VALUE
)
_NESTED = st.tuples(
    _ODD_KEYS,
    st.lists(st.tuples(_INDENT, _ODD_KEYS, _SEPARATOR, _PLAIN_VALUE), min_size=1, max_size=3),
).map(lambda kv: "\n".join([f"{kv[0]}:", *(f"{i}{k}{sep}{v}" for i, k, sep, v in kv[1])]))
_ODD_LINE = st.one_of(
    st.tuples(_ODD_KEYS, _SEPARATOR, _PLAIN_VALUE).map("".join),
    _NESTED,
    _NESTED,
    st.tuples(_INDENT, _ODD_KEYS).map(lambda ik: f"{ik[0]}{ik[1]}:"),
)


@given(st.lists(st.one_of(_LINE, _ODD_LINE, _ODD_LINE), min_size=1, max_size=5))
@example(["dream:\n  key:Tom"])
@example(["dream:\n  a: x\n   b: w"])
@example(["dream:\n   a: x\n  b: w"])
@example(["name: Tom", "name: Tom"])
@example(["dream:\n  a: x\n  a: w"])
def test_names_separators_and_indents_read_plain_only_as_yaml_reads_them(
    lines: list[str],
) -> None:
    """Odd names (a colon, a space, a digit first), separators and mixed indents: the
    plain reader gives None or exactly what YAML would build, nested mappings included."""
    raw = "\n".join(lines) + "\n"
    plain = read_plain(raw)
    if plain is None:
        return
    assert plain == _by_yaml(raw)


def _by_dumper(meta: dict[str, Any]) -> str:
    return str(vars(frontmatter)["_dump_by_yaml"](meta))


def test_a_new_memory_is_written_without_the_dumper_as_the_dumper_would() -> None:
    """An ordinary memory's front matter is written plain, byte for byte the dumper's."""
    memory = _memory("Keeps the staging database on Postgres 16.", tags=("db",), confidence=0.75)
    text = render_memory(memory)
    meta = _by_yaml(text.split("---\n")[1])
    assert write_plain(meta) == _by_dumper(meta)
    assert "  created: 2026-03-04T05:06:07Z\n" in text


_SCALAR = st.one_of(
    _WORDS,
    st.text(max_size=20),
    st.lists(_WORDS, min_size=1, max_size=5).map(" ".join),
    st.integers(min_value=-5, max_value=10**18),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.datetimes(timezones=st.just(UTC)),
    st.lists(st.one_of(_WORDS, st.text(max_size=6)), max_size=3),
)
_META = st.dictionaries(
    st.one_of(_KEYS, st.text(max_size=5)),
    st.one_of(_SCALAR, st.dictionaries(_KEYS, _SCALAR, max_size=3)),
    min_size=1,
    max_size=5,
)


@given(_META)
def test_a_plain_writing_always_equals_the_dumpers(meta: dict[str, Any]) -> None:
    """Whatever the values, the plain writer gives None or exactly the dumper's text."""
    plain = write_plain(meta)
    if plain is not None:
        assert plain == _by_dumper(meta)
        assert read_plain(plain) == _by_yaml(plain)


_TEXT = st.one_of(
    st.lists(_WORDS, min_size=1, max_size=8).map(" ".join), st.text(min_size=1, max_size=30)
).filter(lambda t: t.strip())
_NAMES = st.lists(st.one_of(_WORDS, st.text(max_size=6)).filter(str.strip), max_size=3)
_WHEN = st.datetimes(
    min_value=datetime(2001, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)
)


@given(
    old_text=_TEXT,
    new_text=_TEXT,
    tags=_NAMES,
    supersedes=_NAMES,
    key=st.one_of(st.none(), _TEXT),
    when=_WHEN,
    confidence=st.floats(0, 1),
)
def test_a_plain_rewrite_equals_the_round_trip_rewrite(
    old_text: str,
    new_text: str,
    tags: list[str],
    supersedes: list[str],
    key: str | None,
    when: datetime,
    confidence: float,
) -> None:
    """Rewriting a memory file gives the round-trip parser's bytes, plain or not."""
    old = render_memory(_memory(old_text))
    new = replace(
        _memory(new_text, tags=tuple(tags), key=key, confidence=confidence),
        supersedes=tuple(supersedes),
        updated=when,
        valid_from=when,
    )
    try:
        fast = rewrite_memory(old, new, path=PATH)
    except MemoryFileError:
        fast = None
    with _round_trip_only():
        try:
            slow = rewrite_memory(old, new, path=PATH)
        except MemoryFileError:
            slow = None
    assert fast == slow


@contextmanager
def _round_trip_only() -> Iterator[None]:
    """Rewrites go through the round-trip parser only, meanwhile."""
    saved = vars(frontmatter)["_rewrite_plain"]
    frontmatter._rewrite_plain = lambda raw, edit: None  # type: ignore[attr-defined]
    try:
        yield
    finally:
        frontmatter._rewrite_plain = saved  # type: ignore[attr-defined]


def test_a_rendered_memory_is_rewritten_without_the_round_trip_parser() -> None:
    """The plain path really serves an ordinary rewrite (a new source and a supersession)."""
    memory = _memory("Deploys with Terraform.", sources=("s-1",))
    old = render_memory(memory)
    raw = old.split("---\n")[1]
    seen: list[str] = []
    new = replace(memory, sources=("s-1", "s-2"), supersedes=("m-old11111",))
    text = frontmatter.rewrite(old, path=PATH, edit=lambda data: seen.append(type(data).__name__))
    assert text == old and seen == ["dict"]  # a plain dict, not ruamel's CommentedMap
    assert read_plain(raw) is not None
    assert "  sources: [s-1, s-2]\n" in rewrite_memory(old, new, path=PATH)
