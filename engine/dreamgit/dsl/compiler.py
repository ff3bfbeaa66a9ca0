"""Compiling a parsed expression into a checked, typed Python closure (no ``eval``).

Every node of the tree becomes a :class:`_Node`: a closure ``fn(env)``, its static
type and its span in the text. Names are looked up in the :class:`Schema` of the
place the expression is used, functions in the fixed registry, and types are
checked as the tree is compiled, so every mistake is reported when the rules load
with the exact part of the expression underlined. Constant sub-expressions are
folded once. Environments are plain mappings read by key only: no attribute
access, imports or I/O are reachable from an expression.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamgit.clock import parse_duration
from dreamgit.dsl import ops, regexsafe
from dreamgit.dsl.diagnostics import ExpressionError, did_you_mean
from dreamgit.dsl.functions import FUNCTIONS, ArgumentTypeError
from dreamgit.dsl.ops import Env, Fn
from dreamgit.dsl.pysource import Bindings
from dreamgit.dsl.syntax import Leaf, Node
from dreamgit.dsl.types import (
    ANY,
    BOOL,
    DURATION,
    NUMBER,
    PRIORITY,
    STRING,
    Priority,
    Schema,
    Type,
    list_of,
)

__all__ = ["Compiler"]

_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t"}
_PRIORITY_NAMES = ", ".join(p.name for p in Priority)


@dataclass(slots=True)
class _Node:
    fn: Fn
    type: Type
    start: int
    end: int
    const: bool = False
    value: Any = None
    field: str | None = None  # set for a plain top-level name: enables the fast closures
    src: str = ""  # the node as Python source over ``env`` and the compiler's bindings


class Compiler:
    """Compiles one expression against one schema; collects the names it reads."""

    def __init__(self, text: str, schema: Schema) -> None:
        self.text = text
        self.schema = schema
        #: Source text of every name and call read, with its closure, for traces.
        self.probes: dict[str, Fn] = {}
        #: The values the nodes' Python source reads (``pysource``).
        self.bindings = Bindings()

    def compile(self, tree: Node | Leaf | None) -> _Node:
        """Compile a (sub)tree."""
        if isinstance(tree, Leaf):  # pragma: no cover - the grammar wraps every token
            raise self.error(f"unexpected '{tree}'", tree.start_pos or 0, len(tree))
        if tree is None:  # pragma: no cover - only list and call parts are optional
            raise self.error("a part of the expression is missing", 0, len(self.text))
        method = getattr(self, f"_c_{tree.data.rstrip('_')}")
        node: _Node = method(tree)
        return node

    def error(
        self, message: str, start: int, width: int = 1, hint: str | None = None
    ) -> ExpressionError:
        """An error pointing at ``width`` characters from ``start``."""
        return ExpressionError(message, self.text, start, width, hint=hint)

    # -- helpers ---------------------------------------------------------------

    def _span(self, tree: Node) -> tuple[int, int]:
        return tree.start, tree.end

    def _const(self, value: Any, type_: Type, start: int, end: int) -> _Node:
        src = self.bindings.name(value)
        return _Node(lambda env: value, type_, start, end, const=True, value=value, src=src)

    def _fold(self, node: _Node, parts: list[_Node]) -> _Node:
        """Evaluate a node made only of constants once, at compile time."""
        if not all(p.const for p in parts):
            return node
        try:
            value = node.fn({})
        except ExpressionError:
            raise
        except (ArithmeticError, ValueError) as exc:
            raise self.error(
                f"cannot compute this: {exc}", node.start, node.end - node.start
            ) from None
        return self._const(value, node.type, node.start, node.end)

    def _need_bool(self, node: _Node, what: str) -> None:
        if node.type.kind not in ("bool", "any"):
            raise self.error(
                f"{what} needs true/false, not {node.type.describe()}",
                node.start,
                node.end - node.start,
            )

    # -- literals ----------------------------------------------------------------

    def _c_number(self, tree: Node) -> _Node:
        tok = tree.children[0]
        assert isinstance(tok, Leaf)
        value: float = float(tok) if "." in tok else int(tok)
        return self._const(value, NUMBER, tok.start_pos or 0, tok.end_pos or 0)

    def _c_duration(self, tree: Node) -> _Node:
        tok = tree.children[0]
        assert isinstance(tok, Leaf)
        try:
            value = parse_duration(str(tok))
        except OverflowError:
            raise self.error(
                f"duration '{tok}' is too large", tok.start_pos or 0, len(tok)
            ) from None
        assert value is not None  # the grammar's DURATION token has the parser's shape
        return self._const(value, DURATION, tok.start_pos or 0, tok.end_pos or 0)

    def _c_string(self, tree: Node) -> _Node:
        tok = tree.children[0]
        assert isinstance(tok, Leaf)
        return self._const(_unquote(str(tok)), STRING, tok.start_pos or 0, tok.end_pos or 0)

    def _c_true(self, tree: Node) -> _Node:
        return self._const(True, BOOL, *self._span(tree))

    def _c_false(self, tree: Node) -> _Node:
        return self._const(False, BOOL, *self._span(tree))

    def _c_list(self, tree: Node) -> _Node:
        start, end = self._span(tree)
        items = [self.compile(c) for c in tree.children if c is not None]
        elem = ANY
        for item in items:
            if elem.kind == "any":
                elem = item.type
            elif not ops.comparable(elem, item.type):
                raise self.error(
                    f"a list cannot mix {elem.describe()} with {item.type.describe()}",
                    item.start,
                    item.end - item.start,
                )
        fns = [i.fn for i in items]
        src = "(" + "".join(f"{i.src}, " for i in items) + ")"
        node = _Node(lambda env: tuple(f(env) for f in fns), list_of(elem), start, end, src=src)
        return self._fold(node, items)

    # -- names and calls ---------------------------------------------------------

    def _c_name(self, tree: Node) -> _Node:
        parts = [str(t) for t in tree.children]
        dotted = ".".join(parts)
        start, end = self._span(tree)
        head = parts[0]
        type_ = self.schema.names.get(head)
        if type_ is None:
            if len(parts) == 1 and head in Priority.__members__:
                return self._const(Priority[head], PRIORITY, start, end)
            raise self._unknown_name(dotted, head, start, end)
        for i, part in enumerate(parts[1:], start=1):
            inner = type_.field(part) if type_.kind == "record" else None
            if inner is None:
                owner = ".".join(parts[:i])
                if type_.kind != "record":
                    raise self.error(f"'{owner}' has no fields", start, end - start)
                known = [name for name, _ in type_.fields]
                raise self.error(
                    f"'{owner}' has no field '{part}'{did_you_mean(part, known)}",
                    start,
                    end - start,
                )
            type_ = inner
        if len(parts) == 1:
            key = head
            fn: Fn = lambda env: env[key]  # noqa: E731 - the closure is the point
            node = _Node(fn, type_, start, end, field=head, src=f"env[{self.bindings.name(key)}]")
        else:
            keys = tuple(parts)
            fn = lambda env: _walk(env, keys)  # noqa: E731
            src = "env" + "".join(f"[{self.bindings.name(k)}]" for k in keys)
            node = _Node(fn, type_, start, end, src=src)
        if type_.kind != "record":  # a whole memory is too big to show in a trace
            self.probes.setdefault(dotted, node.fn)
        return node

    def _unknown_name(self, dotted: str, head: str, start: int, end: int) -> ExpressionError:
        if head in self.schema.hints:
            return self.error(
                f"unknown name '{dotted}': {self.schema.hints[head]}", start, end - start
            )
        if head in FUNCTIONS:
            return self.error(
                f"'{head}' is a function: call it as {FUNCTIONS[head].signature}",
                start,
                end - start,
            )
        candidates = [*self.schema.names, *Priority.__members__, "true", "false"]
        suggestion = did_you_mean(head, candidates)
        return self.error(f"unknown name '{dotted}'{suggestion}", start, end - start)

    def _c_call(self, tree: Node) -> _Node:
        name_tok = tree.children[0]
        assert isinstance(name_tok, Leaf)
        start, end = self._span(tree)
        name = str(name_tok)
        func = FUNCTIONS.get(name)
        where = name_tok.start_pos or 0
        if func is None:
            if name in self.schema.names:
                raise self.error(f"'{name}' is not a function", where, len(name))
            suggestion = did_you_mean(name, FUNCTIONS)
            raise self.error(f"unknown function '{name}'{suggestion}", where, len(name))
        args = [self.compile(c) for c in tree.children[1:] if isinstance(c, Node)]
        if len(args) < func.min_args or (func.max_args is not None and len(args) > func.max_args):
            raise self.error(
                f"{func.signature} takes {_arity(func.min_args, func.max_args)}, not {len(args)}",
                start,
                end - start,
            )
        try:
            result = func.check([a.type for a in args])
        except ArgumentTypeError as exc:
            bad = args[exc.index]
            raise self.error(
                f"{func.signature}: {exc.message}", bad.start, bad.end - bad.start
            ) from None
        text, width = self.text, end - start

        def failed(exc: Exception) -> ExpressionError:
            return ExpressionError(f"{name}() failed: {exc}", text, start, width)

        call = ops.call_fn(func.impl, [a.fn for a in args], failed)
        src = f"{self.bindings.name(func.impl)}({', '.join(a.src for a in args)})"
        node = self._fold(_Node(call, result, start, end, src=src), args)
        if not node.const:
            self.probes.setdefault(self.text[start:end], node.fn)
        return node

    # -- operators ---------------------------------------------------------------

    def _c_neg(self, tree: Node) -> _Node:
        start, end = self._span(tree)
        operand = self.compile(tree.children[1])
        if operand.type.kind not in ("number", "duration", "any"):
            raise self.error(f"cannot negate {operand.type.describe()}", start, end - start)
        inner = operand.fn
        node = _Node(lambda env: -inner(env), operand.type, start, end, src=f"(-{operand.src})")
        return self._fold(node, [operand])

    def _c_not(self, tree: Node) -> _Node:
        start, end = self._span(tree)
        operand = self.compile(tree.children[0])
        self._need_bool(operand, "'not'")
        inner = operand.fn
        node = _Node(lambda env: not inner(env), BOOL, start, end, src=f"(not {operand.src})")
        return self._fold(node, [operand])

    def _c_and(self, tree: Node) -> _Node:
        return self._chain(tree, conjunction=True)

    def _c_or(self, tree: Node) -> _Node:
        return self._chain(tree, conjunction=False)

    def _chain(self, tree: Node, *, conjunction: bool) -> _Node:
        start, end = self._span(tree)
        parts = [self.compile(c) for c in tree.children]
        for part in parts:
            self._need_bool(part, "'and'" if conjunction else "'or'")
        fn = ops.chain_fn([p.fn for p in parts], conjunction=conjunction)
        joiner = " and " if conjunction else " or "
        src = f"bool({joiner.join(p.src for p in parts)})"
        return self._fold(_Node(fn, BOOL, start, end, src=src), parts)

    def _c_compare(self, tree: Node) -> _Node:
        left_tree, op_tok, right_tree = tree.children
        start, end = self._span(tree)
        op = str(op_tok)
        left = self.compile(left_tree)
        right = self.compile(right_tree)
        left, right = self._priority_literal(left, right), self._priority_literal(right, left)
        if not ops.comparable(left.type, right.type):
            hint = None
            if {left.type.kind, right.type.kind} == {"duration", "number"}:
                hint = "write a duration with its unit, such as 7d or 24h"
            what = "memories" if "record" in (left.type.kind, right.type.kind) else None
            message = (
                "cannot compare whole memories; compare a field such as a.id"
                if what
                else f"cannot compare {left.type.describe()} with {right.type.describe()}"
            )
            raise self.error(message, start, end - start, hint)
        if op not in ("==", "!=") and left.type.kind not in ops.ORDERED_KINDS | {"any"}:
            raise self.error(f"'{op}' cannot order {left.type.describe()}", start, end - start)
        fn = ops.compare_fn(
            op, left.fn, right.fn, field=left.field, const=right.value, right_const=right.const
        )
        src = f"({left.src} {op} {right.src})"
        return self._fold(_Node(fn, BOOL, start, end, src=src), [left, right])

    def _priority_literal(self, node: _Node, other: _Node) -> _Node:
        """A quoted priority name next to a priority becomes the ordered constant."""
        if other.type.kind == "priority" and node.const and node.type.kind == "string":
            return self._as_priority(node)
        elem = node.type.elem
        is_names = node.type.kind == "list" and elem is not None and elem.kind == "string"
        if other.type.kind == "priority" and node.const and is_names:
            values = tuple(
                self._as_priority(self._const(v, STRING, node.start, node.end)).value
                for v in node.value
            )
            return self._const(values, list_of(PRIORITY), node.start, node.end)
        return node

    def _as_priority(self, node: _Node) -> _Node:
        name = str(node.value)
        if name not in Priority.__members__:
            raise self.error(
                f"unknown priority '{name}'{did_you_mean(name, Priority.__members__)}",
                node.start,
                node.end - node.start,
                hint=f"priorities are {_PRIORITY_NAMES}",
            )
        return self._const(Priority[name], PRIORITY, node.start, node.end)

    def _c_in(self, tree: Node) -> _Node:
        return self._membership(tree, negate=False)

    def _c_not_in(self, tree: Node) -> _Node:
        return self._membership(tree, negate=True)

    def _membership(self, tree: Node, *, negate: bool) -> _Node:
        start, end = self._span(tree)
        item = self.compile(tree.children[0])
        container = self.compile(tree.children[1])
        if item.type.kind == "priority":
            container = self._priority_literal(container, item)
        kind = container.type.kind
        if kind == "string":
            if item.type.kind not in ("string", "any"):
                raise self.error(
                    f"'in' a string needs a string on the left, not {item.type.describe()}",
                    start,
                    end - start,
                )
        elif kind == "list":
            elem = container.type.elem or ANY
            if not ops.comparable(item.type, elem):
                raise self.error(
                    f"cannot look for {item.type.describe()} in {container.type.describe()}",
                    start,
                    end - start,
                )
        elif kind != "any":
            raise self.error(
                f"'in' needs a list or a string on the right, not {container.type.describe()}",
                container.start,
                container.end - container.start,
            )
        const = frozenset(container.value) if container.const and kind == "list" else None
        fn = ops.in_fn(item.fn, container.fn, negate=negate, const=const)
        members = container.src if const is None else self.bindings.name(const)
        src = f"({item.src} {'not in' if negate else 'in'} {members})"
        return self._fold(_Node(fn, BOOL, start, end, src=src), [item, container])

    def _c_matches(self, tree: Node) -> _Node:
        start, end = self._span(tree)
        subject = self.compile(tree.children[0])
        pattern = self.compile(tree.children[1])
        if subject.type.kind not in ("string", "any"):
            raise self.error(
                f"'matches' needs a string on the left, not {subject.type.describe()}",
                subject.start,
                subject.end - subject.start,
            )
        if not (pattern.const and pattern.type.kind == "string"):
            raise self.error(
                "the pattern after 'matches' must be a quoted string",
                pattern.start,
                pattern.end - pattern.start,
            )
        try:
            compiled = regexsafe.compile_pattern(str(pattern.value))
        except regexsafe.PatternError as exc:
            raise self.error(str(exc), pattern.start, pattern.end - pattern.start) from None
        text_fn = subject.fn
        fn: Fn = lambda env: regexsafe.search(compiled, text_fn(env))  # noqa: E731
        src = f"{self.bindings.name(regexsafe.matcher(compiled))}({subject.src})"
        return self._fold(_Node(fn, BOOL, start, end, src=src), [subject])

    def _c_arith(self, tree: Node) -> _Node:
        children = tree.children
        node = self.compile(children[0])
        start = node.start
        for i in range(1, len(children), 2):
            op = str(children[i])
            right = self.compile(children[i + 1])
            result = ops.arith_type(op, node.type, right.type)
            if isinstance(result, str):
                raise self.error(result, start, right.end - start)
            if op == "/" and right.const and not right.value:
                raise self.error("division by zero", start, right.end - start)
            end = right.end
            text = self.text

            def on_zero(s: int = start, e: int = end, t: str = text) -> Exception:
                return ExpressionError("division by zero", t, s, e - s)

            sides = ((node.const, node.value), (right.const, right.value))
            fn = ops.arith_fn(op, node.fn, right.fn, on_zero, constants=sides)
            src = f"({node.src} {op} {right.src})"
            node = self._fold(_Node(fn, result, start, end, src=src), [node, right])
        return node


def _walk(env: Env, keys: tuple[str, ...]) -> Any:
    value: Any = env
    for key in keys:
        value = value[key]
    return value


def _arity(low: int, high: int | None) -> str:
    def count(n: int) -> str:
        return f"{n} argument" + ("" if n == 1 else "s")

    if high is None:
        return f"at least {count(low)}"
    if low == high:
        return count(low)
    return f"{low} to {count(high)}"


def _unquote(token: str) -> str:
    body, out, i = token[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            # Unknown escapes stay as written, so '\d+' reaches a pattern unchanged.
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)
