"""Front matter: splitting, the fast C scan, careful rewrites, and hostile input."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.errors import MemoryFileError
from dreamgit.store import frontmatter

PATH = "memories/prefs/x.md"


def test_c_loader_is_in_use() -> None:
    """The fast scan really runs libyaml's C parser, not the pure-Python fallback."""
    assert frontmatter.HAVE_C_LOADER
    loader = vars(frontmatter)["_FastLoader"]
    compiled = [
        cls
        for cls in loader.__mro__
        if cls.__module__.endswith("_ruamel_yaml")
        and str(importlib.import_module(cls.__module__).__file__).endswith((".so", ".pyd"))
    ]
    assert compiled, loader.__mro__


def test_parse_splits_meta_and_keeps_body_verbatim() -> None:
    """The front matter is parsed and the body is returned exactly as written."""
    doc = frontmatter.parse("---\nname: a\ntags: [x, y]\n---\nBody  \n\n  more\n", path=PATH)
    assert doc.meta == {"name": "a", "tags": ["x", "y"]}
    assert doc.body == "Body  \n\n  more\n"
    assert doc.head == "---\nname: a\ntags: [x, y]\n---\n"


def test_file_without_front_matter_is_all_body() -> None:
    """A plain Markdown file has empty meta and its whole text as body."""
    doc = frontmatter.parse("# Title\n\ntext\n", path=PATH)
    assert doc.meta == {}
    assert doc.raw_meta is None
    assert doc.body == "# Title\n\ntext\n"


def test_empty_front_matter_gives_empty_meta() -> None:
    """`---` directly followed by `---` is an empty mapping."""
    doc = frontmatter.parse("---\n---\nbody\n", path=PATH)
    assert doc.meta == {}
    assert doc.body == "body\n"


def test_crlf_file_is_read() -> None:
    """Windows line endings in the fences and the YAML are accepted."""
    doc = frontmatter.parse("---\r\nname: a\r\nn: 2\r\n---\r\nbody\r\n", path=PATH)
    assert doc.meta == {"name": "a", "n": 2}
    assert doc.body == "body\r\n"


def test_byte_order_mark_is_skipped() -> None:
    """A UTF-8 BOM before the opening fence does not hide the front matter."""
    doc = frontmatter.parse("\ufeff---\nname: a\n---\nbody\n", path=PATH)
    assert doc.meta == {"name": "a"}
    assert frontmatter.parse("\ufeffjust text\n", path=PATH).body == "just text\n"


def test_dots_close_front_matter() -> None:
    """YAML's document end marker `...` closes the front matter too."""
    assert frontmatter.parse("---\na: 1\n...\nbody\n", path=PATH).meta == {"a": 1}


def test_unclosed_front_matter_reports_line_one() -> None:
    """An opening fence without a closing one names the file, line 1 and the fix."""
    with pytest.raises(MemoryFileError) as caught:
        frontmatter.parse("---\nname: a\nbody\n", path=PATH)
    assert caught.value.render() == (
        f"{PATH}:1: front matter opened with --- is never closed\n"
        "hint: close the front matter with a line holding only ---"
    )


def test_broken_yaml_reports_file_line_and_fix() -> None:
    """Invalid YAML is reported at its line in the file (the fence counts as line 1)."""
    text = "---\nname: a\ntags: [x, y\ndescription: b\n---\nbody\n"
    with pytest.raises(MemoryFileError) as caught:
        frontmatter.parse(text, path=PATH)
    assert caught.value.line == 4
    assert caught.value.render() == (
        f"{PATH}:4: front matter is not valid YAML: did not find expected ',' or ']'\n"
        "hint: fix the YAML between the --- lines (or restore the file with `git checkout`)"
    )


def test_front_matter_that_is_a_list_is_refused() -> None:
    """Front matter must be a mapping."""
    with pytest.raises(MemoryFileError, match="must be a mapping of keys to values, not a list"):
        frontmatter.parse("---\n- a\n- b\n---\n", path=PATH)


def test_python_tags_are_refused_not_executed() -> None:
    """The safe loader refuses Python object tags."""
    with pytest.raises(MemoryFileError, match="could not determine a constructor"):
        frontmatter.parse("---\na: !!python/object/apply:os.system [echo hi]\n---\n", path=PATH)


def test_impossible_date_is_a_memory_file_error() -> None:
    """A timestamp-looking value that is no real date is reported, not a crash."""
    with pytest.raises(MemoryFileError) as caught:
        frontmatter.parse("---\nname: a\ncreated: 2026-13-45\n---\n", path=PATH)
    assert caught.value.render().startswith(f"{PATH}:3: front matter is not valid YAML: ")


def test_scientific_float_parses_without_warning() -> None:
    """`1e5` reads as a float and prints no YAML 1.1 warning on stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert frontmatter.parse("---\nconfidence: 1e5\n---\n", path=PATH).meta == {
            "confidence": 100000.0
        }


def test_yaml_1_2_booleans() -> None:
    """`yes`/`no`/`on` stay strings, as in the round-trip writer (both YAML 1.2)."""
    meta = frontmatter.parse("---\na: yes\nb: no\nc: on\nd: true\n---\n", path=PATH).meta
    assert meta == {"a": "yes", "b": "no", "c": "on", "d": True}


ROUND_TRIP = """\
---
# a comment on top
name: prefers-pytest   # trailing comment
description: Prefers pytest
metadata:
  type: feedback
custom_key: {nested: [1, 2]}
dream:
  id: m-aaaaaaaa
  tags:
  - python
  - testing
  x-unknown: keep me
---
Body line one.

Body line two.
"""


def test_rewrite_preserves_comments_unknown_keys_and_body() -> None:
    """Changing one key leaves comments, key order, unknown keys and the body as they were."""

    def edit(data: Any) -> None:
        data["dream"]["id"] = "m-bbbbbbbb"

    out = frontmatter.rewrite(ROUND_TRIP, path=PATH, edit=edit)
    assert out == ROUND_TRIP.replace("m-aaaaaaaa", "m-bbbbbbbb")


def test_rewrite_with_new_body_keeps_front_matter() -> None:
    """A new body replaces only the body."""
    out = frontmatter.rewrite(ROUND_TRIP, path=PATH, edit=lambda _d: None, body="New body")
    head, _, body = out.partition("---\nNew")
    assert body == " body\n"
    assert head + "---\n" == ROUND_TRIP.split("Body line one.")[0]


def test_rewrite_of_file_without_front_matter_adds_it() -> None:
    """Rewriting a plain file gives it front matter in block style and keeps the body."""

    def edit(data: Any) -> None:
        data["name"] = "n"
        data["dream"] = frontmatter.styled({"id": "m-aaaaaaaa", "tags": ["a", "b"]})

    out = frontmatter.rewrite("plain body\n", path=PATH, edit=edit)
    assert out == "---\nname: n\ndream:\n  id: m-aaaaaaaa\n  tags: [a, b]\n---\nplain body\n"


@pytest.mark.parametrize(
    "meta",
    [
        "tags:\n- a\n- b\nname: x\n",
        "tags:\n  - a\n  - b\nname: x\n",
        "tags:\n    - a\n    - b\nname: x\n",
        "metadata:\n  type: user\ndream:\n  tags:\n    - a\nname: x\n",
        "metadata:\n    type: user\nname: x\n",
        "a:   # c\n    b:\n        c: 1\n    l:\n      - q\nname: x\n",
    ],
)
def test_rewrite_keeps_the_files_own_indentation(meta: str) -> None:
    """Block lists flush or indented, and 2- or 4-space mappings, come back as they were."""
    text = f"---\n{meta}---\nbody\n"

    def edit(data: Any) -> None:
        data["name"] = "y"

    assert frontmatter.rewrite(text, path=PATH, edit=edit) == text.replace("name: x", "name: y")


def test_rewrite_of_broken_yaml_is_a_memory_file_error() -> None:
    """Broken YAML is refused by the writer too, never half rewritten."""
    with pytest.raises(MemoryFileError, match="front matter is not valid YAML"):
        frontmatter.rewrite("---\na: [\n---\n", path=PATH, edit=lambda _d: None)


def test_dump_new_writes_block_maps_flow_lists_and_plain_times() -> None:
    """New files use block mappings, flow lists and `...Z` times without aliases."""
    from datetime import UTC, datetime

    when = datetime(2026, 11, 20, 10, 4, tzinfo=UTC)
    meta = {
        "name": "n",
        "metadata": {"type": "user"},
        "dream": {"tags": ["a"], "c": when, "u": when},
    }
    out = frontmatter.dump_new(meta, "Body")
    assert out == (
        "---\nname: n\nmetadata:\n  type: user\ndream:\n  tags: [a]\n"
        "  c: 2026-11-20T10:04:00Z\n  u: 2026-11-20T10:04:00Z\n---\nBody\n"
    )
    assert frontmatter.parse(out, path=PATH).meta["dream"]["c"] == when


_yaml_chars = st.sampled_from([*list("abc: -[]{}#&*!|>'\"%@`,?\n\t 019.eZT+"), "\ufeff", "\r"])
_yamlish = st.lists(_yaml_chars, max_size=60).map("".join)


@given(st.one_of(st.text(max_size=200), _yamlish.map(lambda s: f"---\n{s}\n---\nbody")))
def test_any_text_parses_or_raises_memory_file_error(text: str) -> None:
    """Whatever the text, parse gives a Document or a MemoryFileError, never another error."""
    try:
        doc = frontmatter.parse(text, path=PATH)
    except MemoryFileError as exc:
        assert exc.path == PATH
    else:
        assert isinstance(doc.meta, dict)


LAUGHS = (
    "---\nname: laughs\n"
    + "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9))
    + "---\nbody\n"
)


def test_yaml_aliases_are_refused_by_the_fast_reader() -> None:
    """Nested aliases (a billion laughs in 1 KB) are refused at the first alias, nothing built."""
    assert len(LAUGHS) < 1024
    with pytest.raises(MemoryFileError) as info:
        frontmatter.parse(LAUGHS, path="memories/t/laughs.md")
    assert info.value.render() == (
        "memories/t/laughs.md:4: YAML aliases (*name) are not allowed: each one repeats a value,"
        " and nested ones can make a small file expand without bound\n"
        "hint: write the value out where the alias stands"
    )


def test_yaml_aliases_are_refused_by_the_round_trip_rewriter() -> None:
    """rewrite() refuses aliases too, before the round-trip loader sees them."""
    with pytest.raises(MemoryFileError) as info:
        frontmatter.rewrite(LAUGHS, path="m.md", edit=lambda _data: None)
    assert info.value.line == 4
    assert "YAML aliases (*name) are not allowed" in info.value.reason


def test_an_asterisk_in_a_value_is_not_an_alias() -> None:
    """Quoted or inner asterisks are text: only a real alias is refused."""
    doc = frontmatter.parse('---\na: "*x"\nb: 2*3\n---\n', path="m.md")
    assert doc.meta == {"a": "*x", "b": "2*3"}


def test_front_matter_that_is_a_scalar_names_the_file_and_line() -> None:
    """Front matter holding one plain value is refused with the full message and the hint."""
    with pytest.raises(MemoryFileError) as info:
        frontmatter.parse("---\njust words\n---\nbody\n", path=PATH)
    assert info.value.render() == (
        f"{PATH}:2: front matter must be a mapping of keys to values, not a str\n"
        "hint: fix the YAML between the --- lines (or restore the file with `git checkout`)"
    )
