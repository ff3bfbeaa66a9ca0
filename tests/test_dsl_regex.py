"""Regular expressions in `matches` cannot hang a dream: checked patterns, bounded input."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamgit.dsl import ExpressionError, compile_expression
from dreamgit.dsl.regexsafe import MAX_INPUT, MAX_PATTERN, PatternError, compile_pattern, search
from test_dsl_parser import SCHEMA

HOSTILE_TEXTS = [
    "a" * 5000,
    "a" * 5000 + "!",
    "ab" * 2500,
    "1" * 5000,
    " b c" * 1250,
    "aaaa1.1" * 700,
]


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(a+)+$", "a quantifier inside a repeated group can take exponential time"),
        ("(a*)*b", "a quantifier inside a repeated group can take exponential time"),
        ("(a+){10}$", "a quantifier inside a repeated group can take exponential time"),
        ("(x+x+)+y", "a quantifier inside a repeated group can take exponential time"),
        ("(a|aa)+$", "the branches of a repeated alternation must start with different characters"),
        ("(a|a?)+$", "a quantifier inside a repeated group can take exponential time"),
        (
            ".*a.*b",
            "pattern could be slow: every repeat but the last must stop at a character it"
            " cannot match (write [^,]*, not .*, before more pattern)",
        ),
        (
            ".*\\d+x",
            "pattern could be slow: every repeat but the last must stop at a character it"
            " cannot match (write [^,]*, not .*, before more pattern)",
        ),
        ("(a)\\1", "back-references are not allowed in rule patterns"),
        ("(?=a)a", "look-arounds are not allowed in rule patterns"),
        ("(?<!a)b", "look-arounds are not allowed in rule patterns"),
        ("(a)?(?(1)b|c)", "conditional groups are not allowed in rule patterns"),
        ("[", "bad regular expression: unterminated character set at position 1"),
        ("a" * (MAX_PATTERN + 1), f"pattern is longer than {MAX_PATTERN} characters"),
    ],
)
def test_dangerous_patterns_are_rejected_at_load(pattern: str, message: str) -> None:
    """Nested quantifiers, ambiguous repeats, back-references and huge patterns fail to load."""
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern)
    assert str(info.value) == message


def test_catastrophic_pattern_in_a_rule_is_an_error_not_a_hang() -> None:
    """`text matches '(a+)+$'` is refused when the rule compiles, with the pattern underlined."""
    start = time.perf_counter()
    with pytest.raises(ExpressionError) as info:
        compile_expression("s matches '(a+)+$'", SCHEMA)
    assert time.perf_counter() - start < 1
    assert (info.value.column, info.value.caret_width) == (11, 8)


@pytest.mark.parametrize(
    "pattern",
    [
        r"\d+\.\d+",
        r"\w+ing\b",
        r"\s+b\s+c.*z",
        r"(foo|bar)+",
        r"colou?r",
        r"https?://\S+",
        r"(\d{3})+",
        r"(ab)+c",
        r"(?i)deploy",
        r"^todo:",
        r"x{1,5}y",
        r"\bfoo\b",
        r".*",
        r"[^,]*,[^,]*,.*x",
        r"(?i)(password|secret|token)\s*[:=]",
    ],
)
def test_useful_patterns_load_and_stay_fast_on_hostile_text(pattern: str) -> None:
    """Accepted patterns search any hostile text in well under a second."""
    compiled = compile_pattern(pattern)
    for text in HOSTILE_TEXTS:
        start = time.perf_counter()
        search(compiled, text)
        assert time.perf_counter() - start < 0.5, (pattern, text[:10])


def test_only_the_first_max_input_characters_are_searched() -> None:
    """Input is bounded: a match beyond MAX_INPUT characters is not seen."""
    compiled = compile_pattern("needle")
    assert search(compiled, "x" * (MAX_INPUT - 6) + "needle")
    assert not search(compiled, "x" * MAX_INPUT + "needle")


_ATOMS = st.sampled_from(["a", "b", "ab", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "x"])
_QUANT = st.sampled_from(["", "", "*", "+", "?", "{2}", "{1,3}", "*?"])


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 2) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth > 0 and draw(st.booleans()):
            inner = draw(_patterns(depth - 1))
            if draw(st.booleans()):
                inner = inner + "|" + draw(_patterns(depth - 1))
            parts.append(f"({inner}){draw(_QUANT)}")
        else:
            parts.append(draw(_ATOMS) + draw(_QUANT))
    anchor = draw(st.sampled_from(["", "$", "!"]))
    return "".join(parts) + anchor


@settings(max_examples=150, deadline=None)
@given(_patterns())
def test_any_pattern_the_checker_accepts_is_fast_on_hostile_text(pattern: str) -> None:
    """Property: a random pattern is either refused or searches hostile texts quickly."""
    try:
        compiled = compile_pattern(pattern)
    except PatternError:
        return
    assert isinstance(compiled, re.Pattern)
    for text in ("a" * 3000, "ab" * 1500, "a" * 1999 + "b", "1 " * 1500):
        start = time.perf_counter()
        search(compiled, text)
        assert time.perf_counter() - start < 0.5, pattern
