"""Static checks, functions, run-time errors, traces and the safety of compiled expressions."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

import pytest

from dreamgit.dsl import ExpressionError, compile_expression
from dreamgit.dsl.parser import MAX_DEPTH, MAX_LENGTH
from dreamgit.dsl.types import BOOL, DURATION, NUMBER, STRING, Schema
from test_dsl_parser import ENV, SCHEMA, ev


def error_of(text: str, schema: Schema = SCHEMA, **kwargs: Any) -> ExpressionError:
    """The ExpressionError compiling ``text`` raises."""
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, schema, **kwargs)
    return info.value


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("agee > 1d", "unknown name 'agee'; did you mean 'age'?", None),
        ("zzz", "unknown name 'zzz'", None),
        ("True", "unknown name 'True'; did you mean 'true'?", None),
        ("m.topik", "'m' has no field 'topik'; did you mean 'topic'?", None),
        ("x.y", "'x' has no fields", None),
        ("simlarity(s, s)", "unknown function 'simlarity'; did you mean 'similarity'?", None),
        ("x(1)", "'x' is not a function", None),
        ("len > 1", "'len' is a function: call it as len(x)", None),
        ("len(s, s)", "len(x) takes 1 argument, not 2", None),
        ("clamp(x)", "clamp(x, low, high) takes 3 arguments, not 1", None),
        ("max()", "max(x, y, ...) takes at least 1 argument, not 0", None),
        ("len(age)", "len(x): needs a string or a list, not a duration", None),
        ("log(s)", "log(x): needs a number, not a string", None),
        ("max(x, age)", "max(x, y, ...): mixes a number with a duration", None),
        ("age > 'x'", "cannot compare a duration with a string", None),
        (
            "age > 7",
            "cannot compare a duration with a number",
            "write a duration with its unit, such as 7d or 24h",
        ),
        ("x == 'many'", "cannot compare a number with a string", None),
        ("m == m", "cannot compare whole memories; compare a field such as a.id", None),
        ("a < b", "'<' cannot order true/false", None),
        (
            "p == 'urgent'",
            "unknown priority 'urgent'",
            "priorities are ephemeral, low, normal, high, core",
        ),
        ("p + 1", "a priority is not a number; use rank(priority) to compute with it", None),
        ("age + 1", "cannot add a number to a duration", None),
        ("s - 'a'", "cannot subtract a string from a string", None),
        ("s * 2", "cannot multiply a string by a number", None),
        ("x / 0", "division by zero", None),
        ("-s", "cannot negate a string", None),
        ("not x", "'not' needs true/false, not a number", None),
        ("a and x", "'and' needs true/false, not a number", None),
        ("x or a", "'or' needs true/false, not a number", None),
        ("[1, 'a']", "a list cannot mix a number with a string", None),
        ("x in s", "'in' a string needs a string on the left, not a number", None),
        ("x in tags", "cannot look for a number in a list of strings", None),
        ("x in y", "'in' needs a list or a string on the right, not a number", None),
        ("x matches 'a'", "'matches' needs a string on the left, not a number", None),
        ("s matches s", "the pattern after 'matches' must be a quoted string", None),
        (
            "s matches '[a-'",
            "bad regular expression: unterminated character set at position 1",
            None,
        ),
        ("99999999999999w > age", "duration '99999999999999w' is too large", None),
        ("exp(1000) > 1", "exp() failed: math range error", None),
        ("max([]) > 1", "max() failed: of an empty list", None),
        ("min(1) > 0", "min(x, y, ...): needs two or more values, or a list", None),
        (
            "min(tags) > 0",
            "min(x, y, ...): needs numbers, durations or priorities, not a list of strings",
            None,
        ),
        ("jaccard(s, tags) > 0", "jaccard(x, y): needs a string like the first argument", None),
    ],
)
def test_static_mistakes_are_reported_when_compiling(
    text: str, message: str, hint: str | None
) -> None:
    """Unknown names and functions, wrong arity and visible type mismatches fail at load."""
    error = error_of(text)
    assert error.reason == message
    assert error.hint == hint


def test_errors_underline_the_offending_part() -> None:
    """The caret sits under the unknown name, not at the start of the expression."""
    error = error_of("x > 1 and agee > 1d")
    assert (error.line, error.column, error.caret_width) == (1, 11, 4)
    assert error.render() == (
        "1:11: unknown name 'agee'; did you mean 'age'?\n"
        "    x > 1 and agee > 1d\n"
        "              ^^^^"
    )


def test_required_result_type_is_checked() -> None:
    """A condition must be true/false and a score a number."""
    assert error_of("x + 1", want=BOOL).reason == (
        "a condition must be true or false, but this is a number"
    )
    assert error_of("x > 1", want=NUMBER).reason == "this must be a number, but it is true/false"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("similarity(s, s)", 1.0),
        ("similarity(m, s) >= 0", True),
        ("jaccard(tags, ['python'])", 0.5),
        ("jaccard([], [])", 0.0),
        ("jaccard('a b', 'b c')", 1 / 3),
        ("contains(s, 'pytest')", True),
        ("contains(tags, 'rust')", False),
        ("startswith(s, 'Pre')", True),
        ("endswith(s, 'x')", False),
        ("upper('ab')", "AB"),
        ("words(s)", 2),
        ("max(age, 1d)", timedelta(days=10)),
        ("max(p, normal)", 2),
        ("abs(-x)", 2),
        ("abs(-age)", timedelta(days=10)),
        ("exp(0)", 1.0),
        ("log(1)", 0.0),
        ("sqrt(9)", 3.0),
        ("round(2.6)", 3),
        ("clamp(x, 0, 1)", 1),
        ("days(age)", 10.0),
        ("hours(age)", 240.0),
        ("rank(p)", 1),
    ],
)
def test_registered_functions(text: str, value: object) -> None:
    """Each function of the registry computes what its name says."""
    result = ev(text)
    assert result == pytest.approx(value) if isinstance(value, float) else result == value


@pytest.mark.parametrize(
    ("text", "env", "message"),
    [
        ("x / (y - 3) > 1", {}, "division by zero"),
        ("age / (age - age) > 1", {}, "division by zero"),
        ("log(x - 2) > 0", {}, "log() failed: log of 0 (it needs a number above 0)"),
        ("sqrt(-x) > 0", {}, "sqrt() failed: sqrt of -2 (it needs a number of 0 or more)"),
        ("exp(x) > 1", {"x": 10000}, "exp() failed: math range error"),
        ("age * x > age", {"x": 1e300}, "cannot evaluate: date value out of range"),
    ],
)
def test_run_time_failures_are_expression_errors(
    text: str, env: dict[str, Any], message: str
) -> None:
    """A value that breaks a rule at run time raises ExpressionError, never a bare exception."""
    expr = compile_expression(text, SCHEMA)
    with pytest.raises(ExpressionError) as info:
        expr.evaluate({**ENV, **env})
    assert info.value.reason.startswith(message.split(":")[0])
    assert info.value.reason == message or message.startswith("cannot evaluate")


def test_trace_reports_every_name_and_call_read() -> None:
    """A trace holds the result and the value of each name and call, in order."""
    expr = compile_expression("p == low and len(tags) > 1 and m.topic == 'prefs'", SCHEMA)
    trace = expr.trace(ENV)
    assert trace.result is True
    assert list(trace.values) == ["p", "tags", "len(tags)", "m.topic"]
    assert trace.values["len(tags)"] == 2
    assert str(trace.values["p"]) == "low"


def test_trace_records_a_failing_call_instead_of_raising_early() -> None:
    """A call that fails shows as an error value; the evaluation itself still raises."""
    expr = compile_expression("log(x - 2) > 0 or true", SCHEMA)
    with pytest.raises(ExpressionError):
        expr.trace(ENV)


def test_too_long_and_too_deep_expressions_are_refused() -> None:
    """Size limits keep a hostile expression from exhausting memory or the stack."""
    long_text = "x + " * (MAX_LENGTH // 4) + "1"
    assert error_of(long_text).reason.startswith("the expression is too long")
    deep = "abs(" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1)
    assert error_of(deep + " > 1").reason.endswith(f"(more than {MAX_DEPTH} levels)")
    assert ev("(" * 500 + "x" + ")" * 500) == 2  # parentheses alone add no depth
    negations = "not " * (MAX_DEPTH + 1) + "a"
    assert "nested too deeply" in error_of(negations).reason


def test_long_flat_chains_are_fine() -> None:
    """`a and b and ...` is one flat node, so hundreds of terms are not 'deep'."""
    assert ev(" and ".join(["b"] * 300)) is True
    assert ev(" + ".join(["1"] * 300)) == 300


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("b and b and b and a and x / (y - 3) > 1", False),  # stops at the first false
        ("b and b and b and b and b", True),
        ("a or c or a or b or x / (y - 3) > 1", True),  # stops at the first true
        ("a or c or a or c or a", False),
    ],
)
def test_chains_of_four_or_more_stop_where_their_value_is_known(text: str, value: bool) -> None:
    """A chain longer than three reads its parts in order and stops at the first that
    decides it: a part after it that would fail is never read."""
    assert ev(text) is value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abs(x / (y - 3)) > 1", "division by zero"),
        ("max(x, log(x - 2)) > 1", "log() failed: log of 0"),
        ("clamp(x, log(x - 2), 3) > 1", "log() failed: log of 0"),
        ("clamp(log(x - 2), 0, 1) > 1", "log() failed: log of 0"),
    ],
)
def test_a_failure_inside_an_argument_is_the_innermost_ones(text: str, message: str) -> None:
    """Calls of one, two and three arguments: a failure while reading an argument is
    reported as the innermost part that failed, whatever the number of arguments."""
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, SCHEMA).evaluate(ENV)
    assert info.value.reason.startswith(message)


@pytest.mark.parametrize(
    "text",
    [
        "x.__class__",
        "s.__class__.__mro__",
        "m.__dict__",
        "__import__('os')",
        "open('/etc/passwd')",
        "eval('1')",
        "exec('x')",
        "getattr(x, 'real')",
        "__builtins__",
        "globals()",
        "compile('1', 'f', 'eval')",
        "urlopen('http://example.com')",
        "x.real",
        "lower.__globals__",
    ],
)
def test_no_expression_reaches_attributes_imports_files_or_the_network(text: str) -> None:
    """Only schema names (dict lookups) and registry functions exist; the rest is an error."""
    error = error_of(text)
    assert (
        "unknown" in error.reason or "has no field" in error.reason or "a function" in error.reason
    )


def test_names_are_read_by_key_only_never_as_attributes() -> None:
    """Evaluation indexes the environment; an object with attributes but no keys is not read."""

    class Sneaky(dict[str, Any]):
        def __getattr__(self, name: str) -> Any:  # pragma: no cover - must never be called
            raise AssertionError(f"attribute {name} was read")

    env = Sneaky(ENV)
    assert compile_expression("m.topic == 'prefs' and x > 1", SCHEMA).evaluate(env) is True


def test_evaluation_uses_no_eval_exec_or_dynamic_imports() -> None:
    """The language's modules never call eval, __import__ or the builtins compile and exec,
    but ``pysource``: once each, on a source checked against its vocabulary
    (``test_dsl_pysource``)."""
    import inspect
    import re

    from dreamgit.dsl import compiler, expression, functions, ops, parser, pysource, regexsafe

    banned = re.compile(r"(?<![\w.])(?<!def )(eval|exec|compile|__import__)\(")
    for module in (compiler, expression, functions, ops, parser, regexsafe):
        assert not banned.findall(inspect.getsource(module)), module.__name__
    assert sorted(banned.findall(inspect.getsource(pysource))) == ["compile", "exec"]
    assert "_checked(source)" in inspect.getsource(pysource.build)


def test_math_constants_are_not_exposed() -> None:
    """Only the documented names exist; `pi` or `inf` are unknown names."""
    assert error_of("pi > 3").reason.startswith("unknown name 'pi'")
    assert error_of("inf > 3").reason.startswith("unknown name 'inf'")
    assert math.isfinite(ev("exp(1)"))


@pytest.mark.parametrize(
    ("constant", "named", "env"),
    [
        ("3 * x", "y * x", {"x": 0.1, "y": 3}),
        ("x * 3", "x * y", {"x": 0.1, "y": 3}),
        ("0.1 + x", "y + x", {"x": 0.2, "y": 0.1}),
        ("x - 0.3", "x - y", {"x": 0.1, "y": 0.3}),
        ("1 - x", "y - x", {"x": 0.9, "y": 1}),
        ("x / 30", "x / y", {"x": -0.7, "y": 30}),
        ("age / 3", "age / y", {"age": timedelta(days=10), "y": 3}),
        ("2 * age", "y * age", {"age": timedelta(hours=5), "y": 2}),
        ("age + 1d", "age + age2", {"age": timedelta(hours=5), "age2": timedelta(days=1)}),
        ("s + '!'", "s + s2", {"s": "Prefers tea", "s2": "!"}),
        (
            "10 * x + 3 * y / 7",
            "c10 * x + c3 * y / c7",
            {"x": 0.3, "y": 1.1, "c10": 10, "c3": 3, "c7": 7},
        ),
    ],
)
def test_a_constant_operand_gives_what_the_same_value_read_from_a_name_gives(
    constant: str, named: str, env: dict[str, Any]
) -> None:
    """Arithmetic with a constant side (compiled without a closure for the constant)
    computes the same operation on the same values: equal to the last bit."""
    schema = Schema(
        "a test",
        {
            **{name: NUMBER for name in ("x", "y", "c10", "c3", "c7")},
            "age": DURATION,
            "age2": DURATION,
            "s": STRING,
            "s2": STRING,
        },
    )
    got = compile_expression(constant, schema).evaluate(env)
    want = compile_expression(named, schema).evaluate(env)
    assert got == want and type(got) is type(want)


def test_a_divisor_that_becomes_zero_still_fails_as_division_by_zero() -> None:
    """Only a constant divisor skips the check for zero (a constant zero is refused when
    compiling); a computed one is checked at each evaluation."""
    with pytest.raises(ExpressionError, match="division by zero"):
        ev("x / (y - 3)")
    assert "division by zero" in error_of("x / 0").message
