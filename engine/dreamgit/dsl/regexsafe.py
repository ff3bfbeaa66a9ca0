"""Regular expressions for ``matches`` that cannot hang a dream.

Python's ``re`` backtracks, so a pattern like ``(a+)+$`` takes exponential time and
``.*\\d+x`` cubic time on a hostile text. Patterns are therefore checked when the
rules load, from the standard library's own parse of the pattern:

- at most :data:`MAX_PATTERN` characters; no back-references, look-arounds or
  conditional groups;
- no quantifier inside a repeated group (``(a+)+``, ``(a*){3}``), and the
  branches of a repeated alternation start with different characters;
- every repeat except the last must stop at a character it cannot match itself
  (``\\d+\\.`` is fine, ``.*\\d`` is not), so backtracking never multiplies.

Together with searching only the first :data:`MAX_INPUT` characters, a search
costs at most about ``MAX_INPUT squared times the pattern length`` steps: milliseconds.
"""

from __future__ import annotations

import importlib
import re
import string
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_INPUT", "MAX_PATTERN", "PatternError", "compile_pattern", "search"]

#: Longest pattern accepted, in characters.
MAX_PATTERN = 200
#: Only this many leading characters of a text are searched.
MAX_INPUT = 2000

# The standard library's pattern parser is private (``re._parser`` since 3.11);
# reading its tree is how the checks see exactly what ``re`` will run.
_sre: Any = importlib.import_module("re._parser")

_CHAR_OPS = {"LITERAL", "NOT_LITERAL", "ANY", "IN"}
_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}
_FORBIDDEN = {
    "GROUPREF": "back-references",
    "GROUPREF_EXISTS": "conditional groups",
    "ASSERT": "look-arounds",
    "ASSERT_NOT": "look-arounds",
}
_ALL_ASCII = frozenset(range(128))
_CATEGORIES = {
    "CATEGORY_DIGIT": frozenset(map(ord, string.digits)),
    "CATEGORY_SPACE": frozenset(map(ord, " \t\n\r\f\v")),
    "CATEGORY_WORD": frozenset(map(ord, string.ascii_letters + string.digits + "_")),
}


class PatternError(ValueError):
    """A pattern that does not compile or that could make matching slow."""


@dataclass(frozen=True)
class _Chars:
    """A set of characters: exact over ASCII, "some or none" beyond it (conservative)."""

    ascii: frozenset[int]
    other: bool

    def overlaps(self, other: _Chars) -> bool:
        return bool(self.ascii & other.ascii) or (self.other and other.other)


@dataclass(frozen=True)
class _Elem:
    kind: str  # "char" (one character), "var" (variable repeat), "fixed" (anything else)
    chars: _Chars | None = None


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Compile ``pattern`` for ``matches``, or raise :class:`PatternError` saying why not."""
    if len(pattern) > MAX_PATTERN:
        raise PatternError(f"pattern is longer than {MAX_PATTERN} characters")
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        where = f" at position {exc.pos + 1}" if exc.pos is not None else ""
        raise PatternError(f"bad regular expression: {exc.msg}{where}") from None
    tree = _sre.parse(pattern)
    # Local flags such as (?i:...) are not tracked; assume case folding when any appear.
    fold = bool(compiled.flags & re.IGNORECASE) or "(?" in pattern
    elems = _flatten(tree, fold, enclosing_repeats=False)
    _check_order(elems)
    return compiled


def search(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` occurs in the first :data:`MAX_INPUT` characters of ``text``."""
    return pattern.search(text, 0, MAX_INPUT) is not None


def _flatten(seq: Any, fold: bool, *, enclosing_repeats: bool) -> list[_Elem]:
    out: list[_Elem] = []
    for op, av in seq:
        name = str(op)
        if name in _FORBIDDEN:
            raise PatternError(f"{_FORBIDDEN[name]} are not allowed in rule patterns")
        if name in _CHAR_OPS:
            out.append(_Elem("char", _chars(name, av, fold)))
        elif name == "SUBPATTERN":
            out.extend(_flatten(av[3], fold, enclosing_repeats=enclosing_repeats))
        elif name == "ATOMIC_GROUP":
            out.extend(_flatten(av, fold, enclosing_repeats=enclosing_repeats))
        elif name in _REPEATS:
            out.extend(_repeat(av, fold, enclosing_repeats=enclosing_repeats))
        elif name == "BRANCH":
            branches = [_flatten(b, fold, enclosing_repeats=enclosing_repeats) for b in av[1]]
            if enclosing_repeats:
                _check_branches(branches)
            for branch in branches:
                # Each branch obeys the order rule itself; the alternation as a whole then
                # counts as one repeat that may overlap what follows it.
                _check_order(branch)
            varies = any(e.kind == "var" for b in branches for e in b)
            out.append(_Elem("var" if varies else "fixed"))
        elif name != "AT":  # anchors are zero-width: they neither vary nor consume
            out.append(_Elem("fixed"))
    return out


def _repeat(av: Any, fold: bool, *, enclosing_repeats: bool) -> list[_Elem]:
    low, high, body = av
    if low != high and enclosing_repeats:
        raise PatternError("a quantifier inside a repeated group can take exponential time")
    inner = _flatten(body, fold, enclosing_repeats=enclosing_repeats or high > 1 or low != high)
    if low == high:
        return inner * min(int(low), 2)  # a fixed count behaves like its body, twice is enough here
    single = inner[0].chars if len(inner) == 1 and inner[0].kind == "char" else None
    return [_Elem("var", single)]


def _check_branches(branches: list[list[_Elem]]) -> None:
    firsts = [b[0].chars if b and b[0].kind == "char" else None for b in branches]
    for i, first in enumerate(firsts):
        for later in firsts[i + 1 :]:
            if first is None or later is None or first.overlaps(later):
                raise PatternError(
                    "the branches of a repeated alternation must start with different characters"
                )


def _check_order(elems: list[_Elem]) -> None:
    varying = [i for i, e in enumerate(elems) if e.kind == "var"]
    for i in varying[:-1]:
        here, follower = elems[i].chars, elems[i + 1] if i + 1 < len(elems) else None
        if here is None or follower is None or follower.chars is None:
            raise PatternError(_SLOW)
        if follower.kind != "char" or here.overlaps(follower.chars):
            raise PatternError(_SLOW)


_SLOW = (
    "pattern could be slow: every repeat but the last must stop at a character it cannot"
    " match (write [^,]*, not .*, before more pattern)"
)


def _chars(name: str, av: Any, fold: bool) -> _Chars:
    if name == "ANY":
        return _Chars(_ALL_ASCII, True)
    if name in ("LITERAL", "NOT_LITERAL"):
        base = _literal(av, fold)
        return base if name == "LITERAL" else _Chars(_ALL_ASCII - base.ascii, True)
    codes: set[int] = set()
    other, negate = False, False
    for item_op, item in av:
        kind = str(item_op)
        if kind == "NEGATE":
            negate = True
        elif kind == "LITERAL":
            lit = _literal(item, fold)
            codes |= lit.ascii
            other = other or lit.other
        elif kind == "RANGE":
            low, high = item
            codes |= {c for c in range(low, min(high, 127) + 1)}
            other = other or high > 127
            if fold:
                codes |= {ord(chr(c).swapcase()) for c in range(low, min(high, 127) + 1)}
        elif kind == "CATEGORY":
            cat = str(item)
            positive = cat.replace("_NOT", "")
            members = _CATEGORIES.get(positive, _ALL_ASCII)
            codes |= (_ALL_ASCII - members) if "_NOT" in cat else members
            other = True  # \d \w \s also match beyond ASCII
        else:  # pragma: no cover - a future sre item: assume it matches anything
            codes |= _ALL_ASCII
            other = True
    if negate:
        return _Chars(_ALL_ASCII - frozenset(codes), True)
    return _Chars(frozenset(c for c in codes if c < 128), other)


def _literal(code: int, fold: bool) -> _Chars:
    if code >= 128:
        return _Chars(frozenset(), True)
    codes = {code, ord(chr(code).swapcase())} if fold else {code}
    return _Chars(frozenset(c for c in codes if c < 128), False)
