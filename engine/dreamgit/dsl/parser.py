"""Parsing rule expressions: the lark parser, size limits, and readable syntax errors.

The LALR parser is built once per process from ``grammar.lark``; its analysis is
cached in the user's cache folder (lark checks the grammar's hash before reusing
it), which cuts the first build from about 45 ms to 3 ms. Every lark exception is
turned into an :class:`ExpressionError` that says, in the words a user types, what
is wrong and where: an unbalanced parenthesis, ``=`` for ``==``, a bad duration.
"""

from __future__ import annotations

import functools
import re
import sys

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from dreamgit.dsl.diagnostics import ExpressionError
from dreamgit.dsl.syntax import Leaf, Node
from dreamgit.usercache import user_cache_folder

__all__ = ["MAX_DEPTH", "MAX_LENGTH", "parse"]

#: Longest expression accepted, in characters.
MAX_LENGTH = 2000
#: Deepest nesting of parentheses, calls, lists, ``not`` and unary minus.
MAX_DEPTH = 32

_FRIENDLY = {
    "_OR": "'or'",
    "_AND": "'and'",
    "_NOT": "'not'",
    "_IN": "'in'",
    "_MATCHES": "'matches'",
    "_TRUE": "true",
    "_FALSE": "false",
    "COMP_OP": "a comparison",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "MUL_OP": "'*' or '/'",
    "DURATION": "a duration",
    "NUMBER": "a number",
    "STRING": "a string",
    "NAME": "a name",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "$END": "the end",
}
_OPERAND_START = {"NAME", "NUMBER", "DURATION", "STRING", "_TRUE", "_FALSE", "LPAR", "LSQB"}
_OPENERS = {"(": ")", "[": "]"}
_CLOSERS = {")": "(", "]": "["}
_GLUED = re.compile(r"\d+(?:\.\d+)?([A-Za-z_][A-Za-z0-9_]*)")
_KEYWORDS = ("and", "or", "not", "in", "matches")


@functools.cache
def _parser() -> Lark:
    return Lark.open(
        "grammar.lark",
        rel_to=__file__,
        parser="lalr",
        propagate_positions=True,
        cache=_cache_file() or False,
    )


def _cache_file() -> str | None:
    folder = user_cache_folder()
    if folder is None:
        return None  # a read-only home only costs the 45 ms of building the parser
    py = f"{sys.version_info[0]}{sys.version_info[1]}"
    return str(folder / f"grammar-lark{lark.__version__}-py{py}.cache")


def parse(text: str) -> Node:
    """Parse one expression into a tree of :mod:`dreamgit.dsl.syntax`, or raise
    :class:`ExpressionError`."""
    if not text.strip():
        raise ExpressionError("the expression is empty", text, 0)
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"the expression is too long ({len(text):,} characters; the limit is {MAX_LENGTH:,})",
            text,
            MAX_LENGTH,
        )
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None
    _check_depth(tree, text)
    return _plain(tree, text)


def _plain(tree: Tree[Token], text: str) -> Node:
    """lark's tree as :class:`Node` and :class:`Leaf` objects (spans as the compiler reads
    them: a node lark gave no position spans the whole text)."""

    def child(part: Tree[Token] | Token | None) -> Node | Leaf | None:
        if part is None:
            return None
        if isinstance(part, Token):
            return Leaf(str(part), part.type, part.start_pos or 0, part.end_pos or 0)
        return _plain(part, text)

    meta = tree.meta
    start, end = getattr(meta, "start_pos", 0), getattr(meta, "end_pos", len(text))
    return Node(str(tree.data), [child(c) for c in tree.children], start, end)


def _check_depth(tree: Tree[Token], text: str) -> None:
    # Iterative, so a pathological expression cannot exhaust the Python stack here.
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            start = getattr(node.meta, "start_pos", 0)
            raise ExpressionError(
                f"the expression is nested too deeply (more than {MAX_DEPTH} levels)", text, start
            )
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _syntax_error(exc: UnexpectedInput, text: str) -> ExpressionError:
    structural = _bracket_error(text)
    if structural is not None:
        return structural
    if isinstance(exc, UnexpectedCharacters):
        return _character_error(text, exc.pos_in_stream or 0)
    if isinstance(exc, UnexpectedToken):
        return _token_error(exc, text)
    return ExpressionError("the expression does not parse", text, 0)  # pragma: no cover


def _bracket_error(text: str) -> ExpressionError | None:
    """Unterminated strings and unbalanced brackets, found by a scan that skips strings."""
    stack: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "'\"":
            end = _string_end(text, i)
            if end < 0:
                return ExpressionError("unterminated string", text, i)
            i = end
        elif ch in _OPENERS:
            stack.append((ch, i))
        elif ch in _CLOSERS:
            if not stack:
                return ExpressionError(
                    f"unbalanced parenthesis: '{ch}' has no matching '{_CLOSERS[ch]}'", text, i
                )
            opener, at = stack.pop()
            if _OPENERS[opener] != ch:
                return ExpressionError(
                    f"unbalanced parenthesis: '{ch}' closes the '{opener}' at column {at + 1}",
                    text,
                    i,
                )
        i += 1
    if stack:
        opener, at = stack[-1]
        return ExpressionError(f"unbalanced parenthesis: '{opener}' is never closed", text, at)
    return None


def _string_end(text: str, start: int) -> int:
    quote, i = text[start], start + 1
    while i < len(text) and text[i] != "\n":
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return -1


def _character_error(text: str, pos: int) -> ExpressionError:
    ch = text[pos]
    if ch == "=":
        return ExpressionError("'=' is not an operator; use '==' to compare", text, pos)
    if ch in "&|":
        word = "and" if ch == "&" else "or"
        width = 2 if text[pos : pos + 2] == ch * 2 else 1
        return ExpressionError(
            f"'{text[pos : pos + width]}' is not an operator; use '{word}'", text, pos, width
        )
    if ch == "!":
        return ExpressionError("'!' is not an operator; use 'not' (or '!=')", text, pos)
    glued = _GLUED.match(text, pos)
    if glued:
        word = glued.group(1)
        if any(word.startswith(k) for k in _KEYWORDS):
            return ExpressionError(
                f"put a space between '{text[pos : glued.start(1)]}' and '{word}'",
                text,
                pos,
                glued.end() - pos,
            )
        return ExpressionError(
            f"bad duration '{glued.group(0)}'; a duration is a number followed by"
            " ms, s, m, h, d or w (30m, 24h, 7d)",
            text,
            pos,
            glued.end() - pos,
        )
    if ch.isdigit():
        bad = re.match(r"[\d.]+", text[pos:])
        width = len(bad.group(0)) if bad else 1
        return ExpressionError(f"bad number '{text[pos : pos + width]}'", text, pos, width)
    return ExpressionError(f"unexpected character '{ch}'", text, pos)


def _token_error(exc: UnexpectedToken, text: str) -> ExpressionError:
    token = exc.token
    expected = set(exc.expected)
    if token.type == "$END":
        before = text.rstrip()
        last = before.split()[-1] if before.split() else ""
        return ExpressionError(f"the expression ends too early after '{last}'", text, len(before))
    pos = token.start_pos or 0
    width = max(1, len(str(token)))
    shown = f"'{token}'"
    if (
        token.type in ("COMP_OP", "_IN", "_MATCHES")
        and "COMP_OP" not in expected
        and ("_AND" in expected or "RPAR" in expected or "$END" in expected)
    ):
        return ExpressionError(
            "comparisons cannot be chained; join them with 'and'", text, pos, width
        )
    if token.type == "LPAR" and "DOT" in expected:
        return ExpressionError("only a plain function name can be called", text, pos)
    if token.type in _OPERAND_START | {"_NOT"} and expected & {"COMP_OP", "_AND", "_OR"}:
        return ExpressionError(f"missing an operator before {shown}", text, pos, width)
    if token.type not in _OPERAND_START and expected & {"NAME", "NUMBER"}:
        return ExpressionError(f"missing a value before {shown}", text, pos, width)
    wanted = sorted({_FRIENDLY.get(t, t) for t in expected})
    return ExpressionError(f"unexpected {shown}; expected {', '.join(wanted)}", text, pos, width)
