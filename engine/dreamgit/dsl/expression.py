"""A compiled expression: what the rest of dreamgit holds and calls.

:func:`compile_expression` parses, checks and compiles an expression for one
schema; the resulting :class:`Expression` evaluates against an environment (a
mapping from names to values) and can also report the value of every name and
call it read, which is what ``dreamgit rules explain`` shows.

Evaluating runs the expression as one Python function (:mod:`dreamgit.dsl.pysource`);
when that function raises, the closures compiled from the same tree run instead and
give the error as they always have (the rule's words, the part underlined), so the
function changes what a value costs, never a value or an error. :func:`evaluate_each`
gives one function evaluating several expressions at once, from the same sources.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamgit.dsl.compiler import Compiler
from dreamgit.dsl.diagnostics import ExpressionError
from dreamgit.dsl.ops import Fn
from dreamgit.dsl.pysource import build, build_each
from dreamgit.dsl.treecache import parsed
from dreamgit.dsl.types import Schema, Type

__all__ = ["Expression", "Trace", "compile_expression", "evaluate_each"]


@dataclass(frozen=True)
class Trace:
    """The result of one evaluation and the values of the names and calls it read."""

    result: object
    values: dict[str, object]


class Expression:
    """A checked, compiled expression; evaluating it never runs ``eval`` on its text."""

    __slots__ = ("_fast", "_fn", "_probes", "_source", "names", "text", "type")

    def __init__(
        self,
        text: str,
        type_: Type,
        fn: Fn,
        probes: dict[str, Fn],
        *,
        fast: Fn | None = None,
        source: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        self.text = text
        self.type = type_
        self._fn = fn
        self._fast = fn if fast is None else fast
        #: The Python source ``fast`` was made from and the values it binds (None: no
        #: ``fast``), for :func:`evaluate_each`.
        self._source = source if fast is not None else None
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
    source = (node.src, compiler.bindings.values)
    return Expression(text, node.type, node.fn, compiler.probes, fast=fast, source=source)


def evaluate_each(
    expressions: Sequence[Expression],
) -> Callable[[Mapping[str, object]], tuple[Any, ...]] | None:
    """One function of an environment giving the value of each of ``expressions``, in
    their order: what :meth:`Expression.evaluate` of each gives, in one call, for a caller
    evaluating them all on many environments. When any of them fails it raises what the
    expression's Python function raises, not an :class:`ExpressionError`: evaluate each
    then to have the value or the error as :meth:`Expression.evaluate` gives it. None
    when an expression has no Python function (or the whole is too deep for Python)."""
    parts = [expression._source for expression in expressions]
    if any(part is None for part in parts):
        return None
    return build_each([part for part in parts if part is not None])
