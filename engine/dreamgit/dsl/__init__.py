"""The rule expression language: grammar, checker and compiler to closures.

``compile_expression(text, schema, want=BOOL)`` turns a condition such as
``priority == low and age > 7d and recalls == 0`` into an :class:`Expression`
whose ``evaluate(env)`` is a few dict lookups and comparisons. Mistakes are
:class:`ExpressionError` (a ``DslError``) pointing at the offending characters.

May import: ``textsim`` and the kernel.
"""

from __future__ import annotations

from dreamgit.dsl.diagnostics import ExpressionError
from dreamgit.dsl.expression import Expression, Trace, compile_expression, evaluate_each
from dreamgit.dsl.types import Priority, Schema

__all__ = [
    "Expression",
    "ExpressionError",
    "Priority",
    "Schema",
    "Trace",
    "compile_expression",
    "evaluate_each",
]
