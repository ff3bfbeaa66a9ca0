"""Property tests: any text, any mutation of a valid expression or rule file gives a result
or our own error (DslError / RuleError), never another exception."""

from __future__ import annotations

from importlib import resources

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dsl import compile_expression
from dreamgit.errors import DslError, RuleError
from dreamgit.ruleset import check_ruleset, load_ruleset
from test_dsl_parser import ENV, SCHEMA

VALID = [
    "p == low and age > 7d and x == 2",
    "not a and b or c",
    "-x * y + max(x, y, 3) / 2",
    "p in ['low', 'normal'] and 'python' in tags",
    "s matches '(?i)^pre' or contains(s, 'x')",
    "exp(-days(age) / 30) * 10 + rank(p)",
    "m.topic == 'prefs' and m.recall.count >= 1",
    "[1, 2, 3] == [x, y, 4] or len(s) > 3",
    "age / 2d > 1.5 and abs(-age) < 2w",
    "similarity(s, m) >= 0.85 and jaccard(tags, ['a']) < 0.5",
]
ALPHABET = st.sampled_from(
    [
        *"abcdeglmnoprstxyz0123456789 ._,()[]'\"=!<>+-*/&|\\?$^#@\n\t",
        "and",
        "or",
        "not",
        "in",
        "matches",
        "true",
        "7d",
        "24h",
        "7x",
        "low",
        "core",
    ]
)


def _compile_or_dsl_error(text: str) -> None:
    try:
        expr = compile_expression(text, SCHEMA)
    except DslError:
        return
    try:
        expr.evaluate(ENV)
        expr.trace(ENV)
    except DslError:
        pass


@given(st.text(max_size=80))
def test_any_unicode_text_compiles_or_raises_a_dsl_error(text: str) -> None:
    """Arbitrary text never crashes the parser or compiler."""
    _compile_or_dsl_error(text)


@given(st.lists(ALPHABET, max_size=30).map("".join))
def test_text_made_of_language_tokens_compiles_or_raises_a_dsl_error(text: str) -> None:
    """Token soup (keywords, operators, literals) never crashes parser, compiler or evaluator."""
    _compile_or_dsl_error(text)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        piece = draw(ALPHABET)
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)) :]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece) :]
        else:
            other = draw(st.integers(0, len(text)))
            lo, hi = sorted((at, other))
            text = text[:lo] + text[hi:] + text[lo:hi]
    return text


@given(_mutated())
def test_mutated_valid_expressions_compile_or_raise_a_dsl_error(text: str) -> None:
    """Random edits of valid expressions give a value or a DslError, never another exception."""
    _compile_or_dsl_error(text)


def test_every_valid_sample_really_is_valid() -> None:
    """The seeds of the mutation test compile and evaluate."""
    for text in VALID:
        compile_expression(text, SCHEMA).evaluate(ENV)


DEFAULT_TEXT = (resources.files("dreamgit.rules") / "default.yaml").read_text(encoding="utf-8")
CONFIG = """\
extends: conservative
author: {name: Agent, email: agent@example.com}
llm: {provider: scripted}
disable: [skip-unsure]
limits: {max_changes_per_run: 5}
prune:
  - name: expire-ephemeral
    when: "priority == ephemeral and age > 48h"
  - name: drop-scratch
    when: "topic == 'scratch' and idle > 3d"
consolidate:
  - name: same-name
    action: merge
    when: "a.name == b.name and a.topic == b.topic"
"""
YAML_PIECES = st.sampled_from(
    [
        ":",
        "-",
        " ",
        "\n",
        "  ",
        "{",
        "}",
        "[",
        "]",
        '"',
        "'",
        "#",
        "&a",
        "*a",
        "<<: ",
        "!!str ",
        "when",
        "name",
        "7x",
        "null",
        "~",
        "\t",
        "? ",
        "|",
        ">",
        "%",
        "@",
        "extends: ./x.yaml\n",
    ]
)


@st.composite
def _mutated_file(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from([DEFAULT_TEXT, CONFIG]))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["char", "line-delete", "line-dup", "piece"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "line-delete" and len(lines) > 1:
            del lines[i]
        elif kind == "line-dup":
            lines.insert(i, lines[i])
        else:
            line = lines[i]
            at = draw(st.integers(0, len(line)))
            piece = draw(YAML_PIECES) if kind == "piece" else draw(st.characters())
            lines[i] = line[:at] + piece + line[at + draw(st.integers(0, 2)) :]
    return "".join(lines)


@given(_mutated_file())
def test_mutated_rule_files_load_or_raise_rule_errors(text: str) -> None:
    """Random edits of real rule files give a rule set or RuleErrors, never another exception."""
    errors = check_ruleset(text, filename="config.yaml")
    assert all(isinstance(e, RuleError) for e in errors)
    if not errors:
        load_ruleset(text, filename="config.yaml")
