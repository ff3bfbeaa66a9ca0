"""A compiled expression: what the rest of dreamgit holds and calls.

:func:`compile_expression` parses, checks and compiles an expression for one
schema; the resulting :class:`Expression` evaluates against an environment (a
mapping from names to values) and can also report the value of every name and
call it read, which is what ``dreamgit rules explain`` shows.

Evaluating runs the expression as one Python function (:mod:`dreamgit.dsl.pysource`);
when that function raises, the closures compiled from the same tree run instead and
give the error as they always have (the rule's words, the part underlined), so the
function changes what a value costs, never a value or an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dreamgit.dsl.compiler import Compiler
from dreamgit.dsl.diagnostics import ExpressionError
from dreamgit.dsl.ops import Fn
from dreamgit.dsl.pysource import build
from dreamgit.dsl.treecache import parsed
from dreamgit.dsl.types import Schema, Type

__all__ = ["Expression", "Trace", "compile_expression"]


@dataclass(frozen=True)
class Trace:
    """The result of one evaluation and the values of the names and calls it read."""

    result: object
    values: dict[str, object]


class Expression:
    """A checked, compiled expression; evaluating it never runs ``eval`` on its text."""

    __slots__ = ("_fast", "_fn", "_probes", "names", "text", "type")

    def __init__(
        self, text: str, type_: Type, fn: Fn, probes: dict[str, Fn], *, fast: Fn | None = None
    ) -> None:
        self.text = text
        self.type = type_
        self._fn = fn
        self._fast = fn if fast is None else fast
        self._probes = probes
        #: Names and calls the expression reads, in order of appearance.
        self.names: tuple[str, ...] = tuple(probes)

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    def evaluate(self, env: Mapping[str, object]) -> Any:
        """The value of the expression in ``env``; a run-time failure is an ExpressionError."""
        try:
            return self._fast(env)
        except Exception:  # the closures below give the error in full
            pass
        try:
            return self._fn(env)
        except ExpressionError:
            raise
        except (ArithmeticError, ValueError) as exc:
            raise ExpressionError(f"cannot evaluate: {exc}", self.text, 0, len(self.text)) from None

    def trace(self, env: Mapping[str, object]) -> Trace:
        """Evaluate, and also record the value of every name and call the expression reads."""
        values: dict[str, object] = {}
        for source, probe in self._probes.items():
            try:
                values[source] = probe(env)
            except ExpressionError as exc:
                values[source] = f"error: {exc.reason}"
        return Trace(self.evaluate(env), values)


def compile_expression(text: str, schema: Schema, *, want: Type | None = None) -> Expression:
    """Parse, check and compile ``text`` for ``schema``; ``want`` is the required result type.

    Raises :class:`ExpressionError` (a ``DslError``) with the offending part underlined.
    """
    tree = parsed(text)
    compiler = Compiler(text, schema)
    node = compiler.compile(tree)
    if want is not None and node.type.kind not in (want.kind, "any"):
        if want.kind == "bool":
            message = f"a condition must be true or false, but this is {node.type.describe()}"
        else:
            message = f"this must be {want.describe()}, but it is {node.type.describe()}"
        raise ExpressionError(message, text, node.start, node.end - node.start)
    fast = build(node.src, compiler.bindings)
    return Expression(text, node.type, node.fn, compiler.probes, fast=fast)
