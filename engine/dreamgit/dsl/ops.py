"""Operators of the expression language: their static type rules and their closures.

The closures are built for speed, since a dream evaluates every prune rule on every
memory: the common shapes (a name compared with a constant, two or three operands
joined by ``and``) get a closure of their own, so evaluation is a dict lookup and a
comparison rather than a walk of a tree.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from dreamgit.dsl.types import ANY, DURATION, NUMBER, STRING, Type

__all__ = ["Env", "Fn", "arith_fn", "arith_type", "chain_fn", "comparable", "compare_fn", "in_fn"]

Env = Mapping[str, Any]
Fn = Callable[[Env], Any]

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
ORDERED_KINDS = {"number", "duration", "priority", "string"}


def comparable(left: Type, right: Type) -> bool:
    """Whether values of these two types may be compared with ``==``."""
    if "any" in (left.kind, right.kind):
        return True
    if left.kind != right.kind:
        return False
    if left.kind == "list":
        return comparable(left.elem or ANY, right.elem or ANY)
    return left.kind != "record"


def compare_fn(
    op: str, left: Fn, right: Fn, *, field: str | None, const: object, right_const: bool
) -> Fn:
    """The closure of ``left op right``; ``field``/``const`` pick the fast shape."""
    f = COMPARISONS[op]
    if field is not None and right_const:
        k, c = field, const
        if op == "==":
            return lambda env: env[k] == c
        if op == ">":
            return lambda env: env[k] > c
        if op == "<":
            return lambda env: env[k] < c
        return lambda env: f(env[k], c)
    return lambda env: f(left(env), right(env))


def in_fn(item: Fn, container: Fn, *, negate: bool, const: frozenset[Any] | None) -> Fn:
    """The closure of ``item in container`` (or ``not in``); a constant list becomes a set."""
    if const is not None:
        members = const
        if negate:
            return lambda env: item(env) not in members
        return lambda env: item(env) in members
    if negate:
        return lambda env: item(env) not in container(env)
    return lambda env: item(env) in container(env)


def chain_fn(parts: list[Fn], *, conjunction: bool) -> Fn:
    """The short-circuit closure of ``a and b and ...`` (or ``or``)."""
    if len(parts) == 2:
        a, b = parts
        if conjunction:
            return lambda env: bool(a(env) and b(env))
        return lambda env: bool(a(env) or b(env))
    if len(parts) == 3:
        a, b, c = parts
        if conjunction:
            return lambda env: bool(a(env) and b(env) and c(env))
        return lambda env: bool(a(env) or b(env) or c(env))
    if conjunction:
        # loops: all() and any() over a generator cost twice as much per part
        def all_of(env: Env) -> bool:
            for part in parts:  # noqa: SIM110
                if not part(env):
                    return False
            return True

        return all_of

    def any_of(env: Env) -> bool:
        for part in parts:  # noqa: SIM110
            if part(env):
                return True
        return False

    return any_of


def call_fn(
    impl: Callable[..., Any], args: list[Fn], failed: Callable[[Exception], Exception]
) -> Fn:
    """The closure of a call of ``impl``; an arithmetic or value error it raises becomes
    ``failed(exc)``. One and two arguments (nearly every call a rule makes) are passed
    without building a list."""
    if len(args) == 1:
        (a,) = args

        def call_1(env: Env) -> Any:
            try:
                return impl(a(env))
            except (ArithmeticError, ValueError) as exc:
                raise failed(exc) from None

        return call_1
    if len(args) == 2:
        a, b = args

        def call_2(env: Env) -> Any:
            try:
                return impl(a(env), b(env))
            except (ArithmeticError, ValueError) as exc:
                raise failed(exc) from None

        return call_2

    def call(env: Env) -> Any:
        try:
            return impl(*[f(env) for f in args])
        except (ArithmeticError, ValueError) as exc:
            raise failed(exc) from None

    return call


def arith_type(op: str, left: Type, right: Type) -> Type | str:
    """The type of ``left op right``, or a message saying why it is not allowed."""
    kinds = (left.kind, right.kind)
    if "priority" in kinds:
        return "a priority is not a number; use rank(priority) to compute with it"
    if "any" in kinds:
        return right if left.kind == "any" else left
    if op in "+-":
        if left.kind == right.kind and left.kind in ("number", "duration"):
            return left
        if op == "+" and kinds == ("string", "string"):
            return STRING
    elif op == "*":
        if kinds == ("number", "number"):
            return NUMBER
        if kinds in (("duration", "number"), ("number", "duration")):
            return DURATION
    elif op == "/":
        if kinds == ("number", "number") or kinds == ("duration", "duration"):
            return NUMBER
        if kinds == ("duration", "number"):
            return DURATION
    verb = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}[op]
    joiner = {"+": "to", "-": "from", "*": "by", "/": "by"}[op]
    a, b = (right, left) if op in "+-" else (left, right)
    return f"cannot {verb} {a.describe()} {joiner} {b.describe()}"


def arith_fn(
    op: str,
    left: Fn,
    right: Fn,
    on_zero: Callable[[], Exception],
    *,
    constants: tuple[tuple[bool, Any], tuple[bool, Any]] = ((False, None), (False, None)),
) -> Fn:
    """The closure of ``left op right``; division by zero raises ``on_zero()``.
    ``constants`` says, for each side, whether it is a constant and its value: a constant
    is used as it is (``10 * rank(priority)`` calls one closure, not two), the same
    operation on the same values."""
    (left_const, a), (right_const, b) = constants
    if op in "+-*" and (left_const or right_const):
        return _arith_const(COMPUTE[op], left, right, left_const, a, right_const, b)
    if op == "/" and right_const and b:  # a constant divisor: zero was refused when compiled
        return lambda env: left(env) / b
    if op == "+":
        return lambda env: left(env) + right(env)
    if op == "-":
        return lambda env: left(env) - right(env)
    if op == "*":
        return lambda env: left(env) * right(env)

    def divide(env: Env) -> Any:
        divisor = right(env)
        if not divisor:  # 0, 0.0 and timedelta(0) are all false
            raise on_zero()
        return left(env) / divisor

    return divide


#: ``+ - *`` as functions, for a side that is a constant.
COMPUTE: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


def _arith_const(
    f: Callable[[Any, Any], Any],
    left: Fn,
    right: Fn,
    left_const: bool,
    a: Any,
    right_const: bool,
    b: Any,
) -> Fn:
    if left_const and right_const:
        return lambda env: f(a, b)
    if left_const:
        if f is operator.mul:
            return lambda env: a * right(env)
        return lambda env: f(a, right(env))
    if f is operator.mul:
        return lambda env: left(env) * b
    return lambda env: f(left(env), b)
