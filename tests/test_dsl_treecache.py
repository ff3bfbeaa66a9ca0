"""Parsed expressions kept between processes: the same trees, values and errors with the
cache, without it and with a damaged one; a process that finds them never imports lark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.dsl import ExpressionError, compile_expression, treecache
from dreamgit.dsl.parser import parse
from dreamgit.dsl.types import BOOL, DURATION, NUMBER, STRING, Schema, list_of

SCHEMA = Schema(
    "the test",
    {"age": DURATION, "score": NUMBER, "topic": STRING, "tags": list_of(STRING)},
)
EXPRESSIONS = [
    "age > 7d and score >= 0.5",
    "topic in ['work', 'home'] or not (score < 2 * 3 - 1)",
    "'deploy' in tags and topic matches '^w'",
    "max(score, 1) + len(tags) > 2",
]
ENV = {"age": timedelta(days=9), "score": 0.75, "topic": "work", "tags": ("deploy", "x")}


def _files() -> list[Path]:
    return sorted(Path(os.environ["XDG_CACHE_HOME"], "dreamgit").glob("expressions-*.pickle"))


def _answers() -> list[object]:
    found: list[object] = []
    for text in EXPRESSIONS:
        expr = compile_expression(text, SCHEMA)
        found.append((expr.type.describe(), expr.evaluate(ENV), expr.trace(ENV).values))
    return found


@pytest.fixture(autouse=True)
def _forget_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new process would: nothing read from the cache yet."""
    monkeypatch.setattr(treecache, "_loaded", None)


def test_same_values_with_and_without_the_cache_and_with_a_damaged_one() -> None:
    """The first run keeps the trees; later runs, a damaged file and no file all agree."""
    first = _answers()
    [kept] = _files()
    treecache._loaded = None
    assert _answers() == first  # from the file
    kept.write_bytes(b"\x80\x04 not a pickle")
    treecache._loaded = None
    assert _answers() == first
    kept.unlink()
    treecache._loaded = None
    assert _answers() == first
    assert _files() == [kept]  # written again


def test_a_cached_tree_is_the_tree_the_parser_gives() -> None:
    """What comes out of the cache equals a fresh parse, positions included."""
    for text in EXPRESSIONS:
        treecache.parsed(text)
    treecache._loaded = None
    for text in EXPRESSIONS:
        cached = treecache.parsed(text)
        fresh = parse(text)
        assert cached == fresh
        assert repr(cached) == repr(fresh)  # the same spans, node by node


def test_a_file_of_another_shape_is_a_miss_not_an_error() -> None:
    """A pickle that is not a dict of trees is ignored and replaced."""
    compile_expression("score > 1", SCHEMA, want=BOOL)
    [kept] = _files()
    kept.write_bytes(__import__("pickle").dumps(["score > 1"]))
    treecache._loaded = None
    assert compile_expression("score > 1", SCHEMA, want=BOOL).evaluate(ENV) is False


def test_errors_are_worded_the_same_once_the_tree_is_kept() -> None:
    """A syntax error is never kept; a name the schema lacks is still found at each load."""
    with pytest.raises(ExpressionError, match="'=' is not an operator"):
        compile_expression("score = 1", SCHEMA)
    compile_expression("scroe > 1", Schema("other", {"scroe": NUMBER}))
    treecache._loaded = None
    for _ in range(2):
        with pytest.raises(ExpressionError, match="'=' is not an operator"):
            compile_expression("score = 1", SCHEMA)
        with pytest.raises(ExpressionError, match="unknown name 'scroe'; did you mean 'score'"):
            compile_expression("scroe > 1", SCHEMA)


def test_a_process_that_finds_every_tree_never_imports_lark(tmp_path: Path) -> None:
    """The second process compiles from the cache alone."""
    script = (
        "import json, sys\n"
        "from dreamgit.dsl import compile_expression\n"
        "from dreamgit.dsl.types import NUMBER, Schema\n"
        "e = compile_expression('x * 2 + 1 > 3', Schema('t', {'x': NUMBER}))\n"
        "print(json.dumps([e.evaluate({'x': 2}), 'lark' in sys.modules]))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        for _ in range(2)
    ]
    assert [json.loads(r.stdout) for r in runs] == [[True, True], [True, False]]


def test_an_expression_read_from_yaml_is_kept_as_plain_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule file's block scalar reaches the compiler as ruamel's str subclass; the cache
    keeps plain text, so a process reading it never imports ruamel (as a cached recall
    must not)."""
    from ruamel.yaml import YAML

    folded = YAML(typ="rt").load("weight: >\n  x * 2\n  + 1 > 3\n")["weight"]
    assert type(folded) is not str  # what the round-trip loader gives for a block scalar
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compile_expression(folded, Schema("t", {"x": NUMBER}))
    script = (
        "import json, sys\n"
        "from dreamgit.dsl import treecache\n"
        "found = treecache._read(treecache._file())\n"
        "print(json.dumps([len(found), 'ruamel' in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == [1, False]
