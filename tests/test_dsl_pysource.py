"""Each expression runs as one Python function (``dsl.pysource``): it gives the value the
closures give, an error wherever they give one, and its source holds nothing of the rule."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dsl import (
    Expression,
    ExpressionError,
    Priority,
    compile_expression,
    evaluate_each,
    regexsafe,
)
from dreamgit.dsl.pysource import Bindings, build
from test_dsl_parser import ENV, SCHEMA
from test_dsl_properties import VALID, _mutated

NUMBERS = ["0", "1", "2", "0.5", "3", "x", "y", "notes", "index", "m.recall.count", "len(s)"]
DURATIONS = ["age", "7d", "0h", "24h"]
BOOLS = ["a", "b", "c", "true", "false", "'python' in tags", "s matches '(?i)^pre'"]
STRINGS = ["s", "m.topic", "'abc'", "''"]


def _recursive(leaves: list[str], shapes: list[str], atoms: dict[str, list[str]]) -> Any:
    def extend(inner: Any) -> Any:
        def fill(shape: str) -> Any:
            parts = [
                inner if p == "_" else st.sampled_from(atoms[p]) if p in atoms else st.just(p)
                for p in shape.split("~")
            ]
            return st.tuples(*parts).map("".join)

        return st.one_of(*(fill(s) for s in shapes))

    return st.recursive(st.sampled_from(leaves), extend, max_leaves=6)


NUM = _recursive(
    NUMBERS,
    [
        "(~_~ + ~_~)",
        "(~_~ - ~_~)",
        "(~_~ * ~_~)",
        "(~_~ / ~_~)",
        "-~_",
        "min(~_~, ~_~)",
        "max(~_~, ~_~, ~_~)",
        "exp(~_~)",
        "log(~_~)",
        "abs(~_~)",
        "days(~D~)",
        "rank(~P~)",
        "clamp(~_~, 0, 1)",
    ],
    {"D": ["age", "7d", "age - 24h", "age / 0", "age * 0"], "P": ["p", "low", "core"]},
)
BOOL = _recursive(
    BOOLS,
    [
        "(~_~ and ~_~)",
        "(~_~ or ~_~)",
        "(~_~ and ~_~ and ~_~ and ~_~)",
        "not ~_",
        "(~N~ < ~N~)",
        "(~N~ == ~N~)",
        "(~N~ >= ~N~)",
        "(~S~ in ~S~)",
        "(~S~ not in [~S~, 'prefs'])",
        "(~N~ in [1, 2, ~N~])",
        "(~D~ > ~D~)",
        "(p ~C~ low)",
        "(p in ['low', 'normal'])",
        "(~S~ matches '\\d+|pre')",
    ],
    {
        "N": [*NUMBERS, "x / y", "x / 0", "exp(x * 1000)", "log(x - 2)"],
        "S": STRINGS,
        "D": [*DURATIONS, "age / 0"],
        "C": ["<", "<=", "==", "!=", ">"],
    },
)
ENVS = st.fixed_dictionaries(
    {
        "x": st.one_of(st.integers(-3, 1000), st.floats(-5, 800, allow_nan=False)),
        "y": st.sampled_from([0, 0.0, 1, -2, 3.5]),
        "s": st.text(max_size=12),
        "age": st.sampled_from([timedelta(0), timedelta(hours=5), timedelta(days=40)]),
        "p": st.sampled_from(list(Priority)),
        "a": st.booleans(),
        "b": st.booleans(),
        "c": st.booleans(),
        "tags": st.lists(st.sampled_from(["python", "abc", "x"]), max_size=3).map(tuple),
        "notes": st.integers(0, 5),
        "index": st.integers(0, 5),
        "m": st.fixed_dictionaries(
            {"topic": st.sampled_from(["prefs", "abc"]), "recall": st.just({"count": 0})}
        ),
    }
)


def _closures_only(expr: Expression) -> Expression:
    """The same expression evaluated by its closures alone (as before ``pysource``)."""
    return Expression(expr.text, expr.type, expr._fn, expr._probes)


def _same_outcome(expr: Expression, env: dict[str, Any]) -> None:
    closures = _closures_only(expr)
    try:
        expected = closures.evaluate(env)
    except ExpressionError as exc:
        with pytest.raises(Exception):  # noqa: B017 - any error: the closures then run
            expr._fast(env)
        with pytest.raises(ExpressionError) as raised:
            expr.evaluate(env)
        assert (raised.value.reason, raised.value.offset, raised.value.width) == (
            exc.reason,
            exc.offset,
            exc.width,
        )
        return
    value = expr._fast(env)
    assert type(value) is type(expected)
    both_nan = isinstance(value, float) and math.isnan(value) and math.isnan(expected)
    assert value == expected or both_nan


def _compiled(text: str) -> Expression | None:
    try:
        return compile_expression(text, SCHEMA)
    except ExpressionError:
        return None


@given(st.one_of(NUM, BOOL), ENVS)
def test_the_function_gives_the_closures_value_or_their_error(
    text: str, env: dict[str, Any]
) -> None:
    """Random well-typed expressions over random environments: the same value and type, or
    an error from both, and ``evaluate`` raises exactly the closures' error."""
    expr = _compiled(text)
    if expr is not None:
        _same_outcome(expr, env)


@given(st.one_of(st.sampled_from(VALID), _mutated()), ENVS)
def test_mutated_samples_give_the_closures_value_or_their_error(
    text: str, env: dict[str, Any]
) -> None:
    """The property tests' valid samples and their mutations, over random environments."""
    expr = _compiled(text)
    if expr is not None:
        _same_outcome(expr, env)


def test_an_error_keeps_the_rule_words_and_the_part_underlined() -> None:
    """A failure inside the function is reported as the closures report it."""
    expr = compile_expression("x + log(x - 2)", SCHEMA)
    with pytest.raises(ExpressionError) as raised:
        expr.evaluate(ENV)
    assert raised.value.reason.startswith("log() failed")
    assert (raised.value.offset, raised.value.width) == (4, len("log(x - 2)"))


def test_an_expression_too_deep_for_python_runs_on_its_closures() -> None:
    """300 terms nest 300 brackets, more than Python's parser takes: no function is made,
    and the closures evaluate the expression as before."""
    expr = compile_expression(" + ".join(["x"] * 300) + " > 1", SCHEMA)
    assert expr._fast is expr._fn
    assert expr.evaluate(ENV) is True


def test_nothing_of_the_rule_text_enters_the_source() -> None:
    """Strings, names and patterns are bound values: a string that is Python source stays a
    string, and a source with anything but the vocabulary is refused before compiling."""
    expr = compile_expression("s == '__import__(\"os\").getcwd()' or s matches 'x\\)'", SCHEMA)
    assert expr.evaluate({**ENV, "s": '__import__("os").getcwd()'}) is True
    with pytest.raises(ValueError, match="unexpected text"):
        build("__import__('os')", Bindings())
    with pytest.raises(ValueError, match="unexpected text"):
        build("env.__class__", Bindings())


def test_the_function_has_no_builtins_but_bool() -> None:
    """Even a name the vocabulary allows reaches nothing: the function's globals are its
    bindings, ``bool`` and empty builtins."""
    bindings = Bindings()
    one = bindings.name(1)
    fn = build(f"bool(env[{one}])", bindings)
    assert fn is not None
    assert fn({1: 0}) is False
    assert fn.__globals__["__builtins__"] == {}
    assert set(fn.__globals__) == {"__builtins__", "bool", one, "_expression"}


PATTERNS = [
    r"(?i)\b(appointment|deadline)s?\b|\b\d{1,2}(:\d{2})?\s?(am|pm)\b",
    r"^pre",
    r"x$",
    r"caf\w",
    r"(a+)+$",
    r"",
    r"\d{3}",
]


@given(
    st.sampled_from(PATTERNS),
    st.one_of(
        st.text(max_size=40),
        st.text(alphabet="ab9é: x", min_size=1990, max_size=2010),
    ),
)
def test_a_rules_matcher_finds_what_search_finds(pattern: str, text: str) -> None:
    """``matcher`` (RE2's match of the text's bytes) agrees with ``search`` everywhere,
    the :data:`MAX_INPUT` cut and text that is not ASCII included."""
    compiled = regexsafe.compile_pattern(pattern)
    assert regexsafe.matcher(compiled)(text) is regexsafe.search(compiled, text)


def test_a_rules_matcher_runs_on_the_linear_engine() -> None:
    """A pattern that backtracks for ever in Python's ``re`` answers at once."""
    found = regexsafe.matcher(regexsafe.compile_pattern(r"(a+)+$"))
    assert found("a" * 1900 + "b") is False
    assert found("a" * 30) is True


@given(st.lists(st.one_of(NUM, BOOL), min_size=1, max_size=4), ENVS)
def test_expressions_evaluated_at_once_give_each_ones_value_or_raise(
    texts: list[str], env: dict[str, Any]
) -> None:
    """``evaluate_each`` of random expressions (their bound values renamed apart) gives the
    tuple of what each one's ``evaluate`` gives, or raises when one of them fails."""
    exprs = [e for e in map(_compiled, texts) if e is not None]
    at_once = evaluate_each(exprs)
    assert at_once is not None
    outcomes: list[Any] = []
    for expr in exprs:
        try:
            outcomes.append(expr.evaluate(env))
        except ExpressionError:
            with pytest.raises(Exception):  # noqa: B017 - the caller then evaluates each
                at_once(env)
            return
    values = at_once(env)
    assert len(values) == len(outcomes)
    for value, expected in zip(values, outcomes, strict=True):
        assert type(value) is type(expected)
        both_nan = isinstance(value, float) and math.isnan(value) and math.isnan(expected)
        assert value == expected or both_nan


def test_expressions_at_once_need_every_one_to_have_its_function() -> None:
    """An expression run on its closures alone (too deep for Python) has no source to join:
    no function at once, and the caller evaluates each."""
    deep = compile_expression(" + ".join(["x"] * 300) + " > 1", SCHEMA)
    plain = compile_expression("x > 1", SCHEMA)
    assert evaluate_each([plain, deep]) is None
    assert evaluate_each([plain, _closures_only(plain)]) is None
    at_once = evaluate_each([plain, plain])
    assert at_once is not None
    assert at_once(ENV) == (plain.evaluate(ENV), plain.evaluate(ENV))
