"""The fixed registry of functions an expression may call.

Each function declares how many arguments it takes and checks their static types
when the rules load, so ``len(age)`` or ``log("x")`` never reaches a dream. The
implementations are small pure functions of plain values; a value error at run
time (``log(0)``) becomes an :class:`~dreamgit.dsl.diagnostics.ExpressionError`
in the compiler. Nothing here touches attributes, files or the network.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from dreamgit import textsim
from dreamgit.dsl.types import ANY, BOOL, NUMBER, STRING, Type
from dreamgit.errors import InternalSignal

__all__ = ["FUNCTIONS", "ArgumentTypeError", "Function"]

_WORD = re.compile(r"\w+")

#: The units of ``days()`` and ``hours()``, made once (a rank reads ``days(idle)`` per memory).
_DAY = timedelta(days=1)
_HOUR = timedelta(hours=1)


class ArgumentTypeError(InternalSignal):
    """An argument of the wrong static type; ``index`` is the argument's position."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class Function:
    """One callable: its signature for messages, arity, static check and implementation."""

    name: str
    signature: str
    min_args: int
    max_args: int | None
    check: Callable[[list[Type]], Type]
    impl: Callable[..., object]


def _need(types: list[Type], index: int, allowed: set[str], what: str) -> Type:
    t = types[index]
    if t.kind not in allowed and t.kind != "any":
        raise ArgumentTypeError(index, f"needs {what}, not {t.describe()}")
    return t


def _text(value: object) -> str:
    if isinstance(value, Mapping):
        return str(value.get("text", ""))
    return str(value)


def _jaccard(x: object, y: object) -> float:
    sx, sy = _items(x), _items(y)
    union = sx | sy
    # Two empty sets share nothing: no evidence of overlap, so 0 (not 1).
    return len(sx & sy) / len(union) if union else 0.0


def _items(value: object) -> set[str]:
    if isinstance(value, str):
        return set(_WORD.findall(value.lower()))
    return {str(v) for v in value} if isinstance(value, Iterable) else set()


def _contains(container: object, item: object) -> bool:
    if isinstance(container, str):
        return str(item) in container
    return item in container if isinstance(container, Iterable) else False


def _extreme(pick: Callable[..., object]) -> Callable[..., object]:
    def run(*args: object) -> object:
        values = args[0] if len(args) == 1 else args
        if not values:  # an empty list
            raise ValueError("of an empty list")
        return pick(values)

    return run


def _check_extreme(types: list[Type]) -> Type:
    orderable = {"number", "duration", "priority"}
    if len(types) == 1:
        t = types[0]
        if t.kind != "list":
            raise ArgumentTypeError(0, "needs two or more values, or a list")
        elem = t.elem or ANY
        if elem.kind not in orderable | {"any"}:
            raise ArgumentTypeError(
                0, f"needs numbers, durations or priorities, not {t.describe()}"
            )
        return elem
    first = types[0]
    for i, t in enumerate(types):
        _need(types, i, orderable, "numbers, durations or priorities")
        if first.kind != "any" and t.kind not in (first.kind, "any"):
            raise ArgumentTypeError(i, f"mixes {first.describe()} with {t.describe()}")
    return first


def _same(kinds: set[str], what: str, result: Type | None = None) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        for i in range(len(types)):
            _need(types, i, kinds, what)
        return result or types[0]

    return check


def _check_pairwise(kinds: set[str], what: str, result: Type) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        a = _need(types, 0, kinds, what)
        b = _need(types, 1, kinds, what)
        if "any" not in (a.kind, b.kind) and a.kind != b.kind:
            raise ArgumentTypeError(1, f"needs {a.describe()} like the first argument")
        return result

    return check


def _check_contains(types: list[Type]) -> Type:
    container = _need(types, 0, {"string", "list"}, "a string or a list")
    if container.kind == "string":
        _need(types, 1, {"string"}, "a string")
    elif container.elem is not None and container.elem.kind != "any":
        elem, item = container.elem, types[1]
        if item.kind not in (elem.kind, "any"):
            raise ArgumentTypeError(1, f"needs {elem.describe()}, not {item.describe()}")
    return BOOL


def _log(x: float) -> float:
    if x <= 0:
        raise ValueError(f"log of {x:g} (it needs a number above 0)")
    return math.log(x)


def _sqrt(x: float) -> float:
    if x < 0:
        raise ValueError(f"sqrt of {x:g} (it needs a number of 0 or more)")
    return math.sqrt(x)


def _abs(x: Any) -> Any:
    return abs(x)


def _fn(
    name: str,
    args: str,
    arity: tuple[int, int | None],
    check: Callable[[list[Type]], Type],
    impl: Callable[..., object],
) -> Function:
    return Function(name, f"{name}({args})", arity[0], arity[1], check, impl)


_TEXTUAL = {"string", "record"}
_NUMERIC = {"number"}

FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in (
        _fn(
            "similarity",
            "x, y",
            (2, 2),
            _same(_TEXTUAL, "a string or a memory", NUMBER),
            lambda x, y: textsim.similarity(_text(x), _text(y)),
        ),
        _fn(
            "jaccard",
            "x, y",
            (2, 2),
            _check_pairwise({"string", "list"}, "a string or a list", NUMBER),
            _jaccard,
        ),
        _fn("len", "x", (1, 1), _same({"string", "list"}, "a string or a list", NUMBER), len),
        _fn("contains", "container, item", (2, 2), _check_contains, _contains),
        _fn(
            "startswith",
            "text, prefix",
            (2, 2),
            _same({"string"}, "a string", BOOL),
            str.startswith,
        ),
        _fn("endswith", "text, suffix", (2, 2), _same({"string"}, "a string", BOOL), str.endswith),
        _fn("lower", "text", (1, 1), _same({"string"}, "a string", STRING), str.lower),
        _fn("upper", "text", (1, 1), _same({"string"}, "a string", STRING), str.upper),
        _fn(
            "words",
            "text",
            (1, 1),
            _same({"string"}, "a string", NUMBER),
            lambda s: len(_WORD.findall(s)),
        ),
        _fn("min", "x, y, ...", (1, None), _check_extreme, _extreme(min)),
        _fn("max", "x, y, ...", (1, None), _check_extreme, _extreme(max)),
        _fn("abs", "x", (1, 1), _same({"number", "duration"}, "a number or a duration"), _abs),
        _fn("exp", "x", (1, 1), _same(_NUMERIC, "a number", NUMBER), math.exp),
        _fn("log", "x", (1, 1), _same(_NUMERIC, "a number", NUMBER), _log),
        _fn("sqrt", "x", (1, 1), _same(_NUMERIC, "a number", NUMBER), _sqrt),
        _fn("round", "x", (1, 1), _same(_NUMERIC, "a number", NUMBER), round),
        _fn(
            "clamp",
            "x, low, high",
            (3, 3),
            _same(_NUMERIC, "a number", NUMBER),
            lambda x, lo, hi: min(max(x, lo), hi),
        ),
        _fn(
            "days",
            "duration",
            (1, 1),
            _same({"duration"}, "a duration", NUMBER),
            lambda d: d / _DAY,
        ),
        _fn(
            "hours",
            "duration",
            (1, 1),
            _same({"duration"}, "a duration", NUMBER),
            lambda d: d / _HOUR,
        ),
        _fn("rank", "priority", (1, 1), _same({"priority"}, "a priority", NUMBER), int),
    )
}
