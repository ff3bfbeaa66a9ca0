"""Parsing and compiling every construct of the expression language, and its precedence."""

from __future__ import annotations

from datetime import timedelta
from itertools import product
from typing import Any

import pytest
from lark import Lark

from dreamgit.dsl import ExpressionError, Priority, Schema, compile_expression
from dreamgit.dsl.types import BOOL, DURATION, NUMBER, PRIORITY, STRING, list_of, record

SCHEMA = Schema(
    "a test",
    {
        "x": NUMBER,
        "y": NUMBER,
        "s": STRING,
        "age": DURATION,
        "p": PRIORITY,
        "a": BOOL,
        "b": BOOL,
        "c": BOOL,
        "tags": list_of(STRING),
        "notes": NUMBER,
        "index": NUMBER,
        "m": record({"topic": STRING, "recall": record({"count": NUMBER})}),
    },
)
ENV: dict[str, Any] = {
    "x": 2,
    "y": 3,
    "s": "Prefers pytest",
    "age": timedelta(days=10),
    "p": Priority.low,
    "a": False,
    "b": True,
    "c": False,
    "tags": ("python", "testing"),
    "notes": 4,
    "index": 5,
    "m": {"topic": "prefs", "recall": {"count": 7}},
}


def ev(text: str, **env: Any) -> Any:
    """Compile ``text`` against the test schema and evaluate it."""
    return compile_expression(text, SCHEMA).evaluate({**ENV, **env})


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("42", 42),
        ("0.85", 0.85),
        ("'single'", "single"),
        ('"double"', "double"),
        (r"'it\'s'", "it's"),
        (r"'a\\b'", "a\\b"),
        (r"'\d+'", r"\d+"),
        ("true", True),
        ("false", False),
        ("[]", ()),
        ("[1, 2, 3]", (1, 2, 3)),
        ("['a', 'b',]", ("a", "b")),
    ],
)
def test_literals_evaluate_to_python_values(text: str, value: object) -> None:
    """Numbers, both string quotes with escapes, booleans and lists are literals."""
    assert ev(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500ms", timedelta(milliseconds=500)),
        ("90s", timedelta(seconds=90)),
        ("30m", timedelta(minutes=30)),
        ("24h", timedelta(hours=24)),
        ("7d", timedelta(days=7)),
        ("2w", timedelta(weeks=2)),
        ("1.5d", timedelta(hours=36)),
    ],
)
def test_durations_are_timedeltas(text: str, value: timedelta) -> None:
    """Every duration unit compiles to a timedelta."""
    assert ev(text) == value


def test_names_read_the_environment_including_dotted_names() -> None:
    """Plain and dotted names are looked up in the environment mapping."""
    assert ev("x") == 2
    assert ev("m.topic") == "prefs"
    assert ev("m.recall.count") == 7


def test_names_that_start_with_keywords_are_names() -> None:
    """`notes` and `index` are names even though `not` and `in` are keywords."""
    assert ev("notes + index") == 9
    assert ev("not notes == 4") is False


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x == 2", True),
        ("x != 2", False),
        ("x < 3", True),
        ("x <= 2", True),
        ("x > 2", False),
        ("x >= 2", True),
        ("age > 7d", True),
        ("age <= 24h", False),
        ("s == 'Prefers pytest'", True),
        ("'a' < 'b'", True),
        ("tags == ['python', 'testing']", True),
    ],
)
def test_comparisons(text: str, value: bool) -> None:
    """All six comparison operators, on numbers, durations, strings and lists."""
    assert ev(text) is value


def test_priorities_are_ordered_constants() -> None:
    """ephemeral < low < normal < high < core, and quoted names work next to a priority."""
    assert ev("ephemeral < low and low < normal and normal < high and high < core")
    assert ev("p == low")
    assert ev("p < normal")
    assert ev("p == 'low'")
    assert ev("p in ['ephemeral', 'low']")
    assert ev("p in [low, normal]")
    assert ev("p not in [high, core]")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'python' in tags", True),
        ("'rust' in tags", False),
        ("'rust' not in tags", True),
        ("'pytest' in s", True),
        ("x in [1, 2, 3]", True),
        ("x not in [1, 2, 3]", False),
        ("age in [7d, 10d]", True),
    ],
)
def test_membership_in_lists_and_strings(text: str, value: bool) -> None:
    """`in` and `not in` test list membership and substrings."""
    assert ev(text) is value


def test_matches_searches_with_a_regular_expression() -> None:
    """`matches` is a regular-expression search; inline flags work."""
    assert ev("s matches 'pytest$'") is True
    assert ev("s matches '(?i)^PREFERS'") is True
    assert ev("s matches '^pytest'") is False


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x + y", 5),
        ("x - y", -1),
        ("x * y", 6),
        ("y / x", 1.5),
        ("-x", -2),
        ("- - x", 2),
        ("(x + y) * 2", 10),
        ("age + 1d", timedelta(days=11)),
        ("age - 1d", timedelta(days=9)),
        ("age * 2", timedelta(days=20)),
        ("2 * age", timedelta(days=20)),
        ("age / 2", timedelta(days=5)),
        ("age / 5d", 2.0),
        ("-age", timedelta(days=-10)),
        ("'a' + 'b'", "ab"),
    ],
)
def test_arithmetic_on_numbers_durations_and_strings(text: str, value: object) -> None:
    """+ - * / and unary minus, with durations scaling and dividing sensibly."""
    assert ev(text) == value


def test_calls_reach_the_function_registry() -> None:
    """A call runs the registered function with evaluated arguments."""
    assert ev("len(tags)") == 2
    assert ev("max(x, y, 1)") == 3
    assert ev("min([x, y])") == 2
    assert ev("lower(s)") == "prefers pytest"


def test_boolean_operators_short_circuit_and_chain() -> None:
    """`and`/`or` chains of any length evaluate left to right, stopping early."""
    assert ev("b and b and b and b") is True
    assert ev("a or a or a or b") is True
    assert ev("a and x / (x - 2) > 0") is False  # the division is never reached
    assert ev("not a") is True


@pytest.mark.parametrize(("a", "b", "c"), list(product([False, True], repeat=3)))
def test_not_binds_tighter_than_and_which_binds_tighter_than_or(a: bool, b: bool, c: bool) -> None:
    """`not a and b or c` means `((not a) and b) or c`."""
    assert ev("not a and b or c", a=a, b=b, c=c) is (((not a) and b) or c)
    assert ev("a or b and c", a=a, b=b, c=c) is (a or (b and c))
    assert ev("not (a or b)", a=a, b=b) is (not (a or b))


def test_arithmetic_precedence_and_left_associativity() -> None:
    """Unary minus binds tighter than `*`, `*` than `+`; chains associate to the left."""
    assert ev("-x * y") == -6
    assert ev("-x * y", x=-2) == 6
    assert ev("1 + 2 * 3") == 7
    assert ev("10 - 4 - 3") == 3
    assert ev("8 / 4 / 2") == 1
    assert ev("x - -y") == 5


def test_comparison_binds_tighter_than_not() -> None:
    """`not x == 1` is `not (x == 1)`; arithmetic binds tighter than comparison."""
    assert ev("not x == 1") is True
    assert ev("x + 1 == y") is True


def test_constant_subexpressions_are_folded_once() -> None:
    """A constant part such as `24h * 7` is computed when compiling, not per evaluation."""
    expr = compile_expression("age > 24h * 7", SCHEMA)
    assert expr.names == ("age",)
    assert expr.evaluate({"age": timedelta(days=8)}) is True


def test_whitespace_and_newlines_are_insignificant() -> None:
    """Expressions may span lines, as in a folded YAML scalar."""
    assert ev("x == 2\n  and\n  y == 3") is True


def test_grammar_is_conflict_free_under_lark_strict_mode() -> None:
    """The LALR grammar has no shift/reduce conflicts or terminal collisions."""
    import dreamgit.dsl.parser as parser_module

    Lark.open("grammar.lark", rel_to=parser_module.__file__, parser="lalr", strict=True)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("x >", "the expression ends too early after '>'", 4),
        ("x > > 1", "missing a value before '>'", 5),
        ("x 1", "missing an operator before '1'", 3),
        ("x < y < 3", "comparisons cannot be chained; join them with 'and'", 7),
        ("(x > 1", "unbalanced parenthesis: '(' is never closed", 1),
        ("x > 1)", "unbalanced parenthesis: ')' has no matching '('", 6),
        ("[x, y)", "unbalanced parenthesis: ')' closes the '[' at column 1", 6),
        ("'open", "unterminated string", 1),
        ("x = 1", "'=' is not an operator; use '==' to compare", 3),
        ("a && b", "'&&' is not an operator; use 'and'", 3),
        ("a || b", "'||' is not an operator; use 'or'", 3),
        ("!a", "'!' is not an operator; use 'not' (or '!=')", 1),
        (
            "age > 7x",
            "bad duration '7x'; a duration is a number followed by ms, s, m, h, d or w"
            " (30m, 24h, 7d)",
            7,
        ),
        ("x > 1.2.3", "bad number '1.2.3'", 5),
        ("1and b", "put a space between '1' and 'and'", 1),
        ("m.topic(1)", "only a plain function name can be called", 8),
        ("x > 1 @", "unexpected character '@'", 7),
        ("", "the expression is empty", 1),
    ],
)
def test_syntax_errors_say_what_is_wrong_and_where(text: str, message: str, column: int) -> None:
    """Each syntax mistake has its own message and column."""
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, SCHEMA)
    assert info.value.reason == message
    assert info.value.column == column


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("x" * 2001, "the expression is too long (2,001 characters; the limit is 2,000)", 2001),
        ("-" * 40 + "x", "the expression is nested too deeply (more than 32 levels)", 33),
    ],
)
def test_huge_or_deep_expressions_are_refused_before_they_cost(
    text: str, message: str, column: int
) -> None:
    """Length and nesting are bounded: a rule cannot make the parser or compiler work hard."""
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, SCHEMA)
    assert (info.value.reason, info.value.column) == (message, column)
