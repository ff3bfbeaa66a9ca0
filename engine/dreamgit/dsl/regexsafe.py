"""Regular expressions for ``matches`` that cannot hang a dream, by construction.

Patterns run on RE2 (``google-re2``), an engine whose matching time grows
linearly with the text for every pattern it accepts: there is no pattern, however
written, that backtracks. Only the first :data:`MAX_INPUT` characters of a text are
searched, so one search costs at most about ``MAX_INPUT times the pattern length``
steps. What RE2 cannot run in linear time it does not accept: back-references,
look-arounds, conditional groups, atomic groups and possessive quantifiers are
refused when the rules load, with a message saying so.

The standard library reads the pattern first, only to name what is wrong in the
words (and at the position) people know from Python's ``re``. RE2 itself loads with
the first pattern compiled, not with this module: a recall whose rules hold no
``matches`` (the prompt hook's) never loads it.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from typing import Any

from dreamgit.errors import PatternError

__all__ = [
    "MAX_INPUT",
    "MAX_PATTERN",
    "Pattern",
    "PatternError",
    "compile_pattern",
    "matcher",
    "search",
]

#: Longest pattern accepted, in characters.
MAX_PATTERN = 200
#: Only this many leading characters of a text are searched.
MAX_INPUT = 2000

# The standard library's pattern parser is private (``re._parser`` since 3.11);
# reading its tree is how the messages name the construct RE2 lacks.
_sre: Any = importlib.import_module("re._parser")

_UNSUPPORTED = {
    "GROUPREF": "back-references",
    "GROUPREF_EXISTS": "conditional groups",
    "ASSERT": "look-arounds",
    "ASSERT_NOT": "look-arounds",
    "ATOMIC_GROUP": "atomic groups",
    "POSSESSIVE_REPEAT": "possessive quantifiers",
}
_WHY = "rule patterns run on RE2, which matches in linear time and has no such thing"


@functools.cache
def _re2() -> tuple[Any, Any]:
    """The ``re2`` module and the options every pattern compiles with (loaded once)."""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own copy of every error on stderr
    return re2, options


#: A compiled rule pattern (an RE2 regular expression).
Pattern = Any


def compile_pattern(pattern: str) -> Pattern:
    """Compile ``pattern`` for ``matches``, or raise :class:`PatternError` saying why not."""
    if len(pattern) > MAX_PATTERN:
        raise PatternError(f"pattern is longer than {MAX_PATTERN} characters")
    try:
        tree = _sre.parse(pattern)
    except re.error as exc:
        where = f" at position {exc.pos + 1}" if exc.pos is not None else ""
        raise PatternError(f"bad regular expression: {exc.msg}{where}") from None
    _refuse_unsupported(tree)
    re2, options = _re2()
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        text = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
        raise PatternError(f"bad regular expression for RE2: {text}") from None


def search(pattern: Pattern, text: str) -> bool:
    """Whether ``pattern`` occurs in the first :data:`MAX_INPUT` characters of ``text``."""
    return pattern.search(text[:MAX_INPUT]) is not None


def matcher(pattern: Pattern) -> Callable[[str], bool]:
    """:func:`search` of ``pattern`` as a function of the text, for a rule that searches
    every memory: RE2's own match of the text's UTF-8 bytes (what ``search`` runs, less
    the match object it builds) when the pattern has one, else :func:`search` itself."""
    regexp = getattr(pattern, "_regexp", None)
    anchor = getattr(getattr(_re2()[0], "_Anchor", None), "UNANCHORED", None)
    if regexp is None or anchor is None:  # pragma: no cover - another release of the binding
        return lambda text: search(pattern, text)
    missed = (-1, -1)

    def found(text: str) -> bool:
        if not isinstance(text, str):  # pragma: no cover - the checker wants a string
            return search(pattern, text)
        encoded = text[:MAX_INPUT].encode("utf-8")
        return bool(regexp.Match(anchor, encoded, 0, len(encoded))[0] != missed)

    return found


def _refuse_unsupported(seq: Any) -> None:
    for op, av in seq:
        name = str(op)
        if name in _UNSUPPORTED:
            raise PatternError(f"{_UNSUPPORTED[name]} are not allowed in rule patterns: {_WHY}")
        if name == "SUBPATTERN":
            _refuse_unsupported(av[3])
        elif name in ("MAX_REPEAT", "MIN_REPEAT"):
            _refuse_unsupported(av[2])
        elif name == "BRANCH":
            for branch in av[1]:
                _refuse_unsupported(branch)
