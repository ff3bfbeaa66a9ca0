"""A compiled expression as one Python function: its source built from a fixed vocabulary.

The closure compiler makes a tree of closures, one call per node; a dream evaluates
every memory rule on every memory, so those calls are most of what a rule costs. The
compiler also writes each node as Python source, and :func:`build` makes the whole
expression one function of ``env`` from it (one code object per expression);
:func:`build_each` makes several expressions one function giving a tuple of their
values (vetting evaluates every memory rule on every memory: one call, not one each).

Nothing from the rule's text enters the source: every name read, string, number,
pattern and function is a value bound to a generated identifier (``_v0``, ``_v1``, …),
and the source is only those identifiers, ``env``, brackets, commas and the language's
operators, which :func:`build` checks before compiling. The function runs with no
builtins but ``bool``, so no expression can reach attributes, imports, files or the
network this way either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dreamgit.dsl.ops import Env, Fn

__all__ = ["Bindings", "build", "build_each"]

#: Every token a generated source may hold (anything else is a bug: :func:`build` refuses).
_TOKEN = re.compile(
    r"\s+|(?:_v\d+|env|bool|and|or|not|in|is|None)\b"
    r"|==|!=|<=|>=|<|>|\+|-|\*|/|\(|\)|\[|\]|,"
)
#: A bound value's identifier in a generated source (every ``_v`` token is one).
_IDENTIFIER = re.compile(r"\b_v\d+\b")


class Bindings:
    """The values a generated source reads, each under an identifier of its own."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def name(self, value: Any) -> str:
        """The identifier ``value`` is read by in the source."""
        ident = f"_v{len(self.values)}"
        self.values[ident] = value
        return ident


def _checked(source: str) -> str:
    at = 0
    while at < len(source):
        token = _TOKEN.match(source, at)
        if token is None:  # pragma: no cover - the compiler writes only the vocabulary
            raise ValueError(f"unexpected text in a generated expression at {at}: {source!r}")
        at = token.end()
    return source


def build(source: str, bindings: Bindings) -> Fn | None:
    """The function ``env -> value`` of an expression's ``source``; None when Python cannot
    compile it (a long chain nests more brackets than Python's parser takes): the
    closures then evaluate the expression alone."""
    fn: Fn | None = _made(_checked(source), bindings.values)
    return fn


def build_each(
    parts: Sequence[tuple[str, Mapping[str, Any]]],
) -> Callable[[Env], tuple[Any, ...]] | None:
    """The function ``env -> (value, value, ...)`` of several expressions, each given as
    its source and the values it binds (:class:`Bindings`), in their order; each source's
    identifiers are renamed apart. None when Python cannot compile the whole."""
    values: dict[str, Any] = {}
    sources: list[str] = []
    for source, bound in parts:
        renamed = {ident: f"_v{len(values) + k}" for k, ident in enumerate(bound)}
        values.update((renamed[ident], value) for ident, value in bound.items())
        sources.append(_renamed(_checked(source), renamed))
    made: Callable[[Env], tuple[Any, ...]] | None = _made(
        "(" + "".join(f"{source}, " for source in sources) + ")", values
    )
    return made


def _renamed(source: str, names: Mapping[str, str]) -> str:
    return _IDENTIFIER.sub(lambda found: names[found[0]], source)


def _made(source: str, values: Mapping[str, Any]) -> Any:
    namespace: dict[str, Any] = {"__builtins__": {}, "bool": bool, **values}
    try:
        code = compile(f"def _expression(env):\n return {source}\n", "<rule>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    exec(code, namespace)
    return namespace["_expression"]
