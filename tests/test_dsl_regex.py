"""Regular expressions in `matches` cannot hang a dream: a linear-time engine, bounded input.

How fast searches are on hostile texts is measured in tests/bench/bench_regex.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dsl import compile_expression
from dreamgit.dsl.regexsafe import MAX_INPUT, MAX_PATTERN, PatternError, compile_pattern, search
from dreamgit.ruleset import check_ruleset
from test_dsl_parser import SCHEMA

HOSTILE_TEXTS = [
    "a" * 5000,
    "a" * 5000 + "!",
    "ab" * 2500,
    "1" * 5000,
    " b c" * 1250,
    "aaaa1.1" * 700,
]


_NOT_IN_RE2 = "rule patterns run on RE2, which matches in linear time and has no such thing"


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(a)\\1", f"back-references are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("(?=a)a", f"look-arounds are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("(?<!a)b", f"look-arounds are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("(a)?(?(1)b|c)", f"conditional groups are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("(?>a+)b", f"atomic groups are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("x(a++)", f"possessive quantifiers are not allowed in rule patterns: {_NOT_IN_RE2}"),
        ("[", "bad regular expression: unterminated character set at position 1"),
        ("a{1001}", "bad regular expression for RE2: invalid repetition size: {1001}"),
        ("a" * (MAX_PATTERN + 1), f"pattern is longer than {MAX_PATTERN} characters"),
    ],
)
def test_patterns_a_linear_engine_cannot_run_are_rejected_at_load(
    pattern: str, message: str
) -> None:
    """Back-references, look-arounds and the like fail to load, saying RE2 lacks them."""
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern)
    assert str(info.value) == message


def test_unsupported_syntax_in_a_rule_file_names_file_line_and_column(tmp_path: Path) -> None:
    """A back-reference in a rule file is a load-time error at the pattern's file:line:col."""
    config = "prune:\n  - name: twice\n    when: \"text matches '(a)\\\\1'\"\n"
    errors = check_ruleset(config, filename=".dreamgit/config.yaml", base_dir=tmp_path)
    assert [str(e).splitlines()[0] for e in errors] == [
        ".dreamgit/config.yaml:3:25: prune[twice].when: back-references are not allowed"
        f" in rule patterns: {_NOT_IN_RE2}"
    ]


@pytest.mark.parametrize(
    "pattern",
    [
        "(a+)+$",
        "(a*)*b",
        "(a|aa)+$",
        "(x+x+)+y",
        ".*a.*b",
        ".*\\d+x",
        "(?i)k*\u212ak*\u212ak*\u212ax",
    ],
)
def test_patterns_that_backtrack_in_python_run_on_the_linear_engine(pattern: str) -> None:
    """Patterns that take exponential or cubic time under `re` compile to RE2 and finish."""
    compiled = compile_pattern(pattern)
    assert type(compiled).__module__.startswith("re2")
    for text in [*HOSTILE_TEXTS, "k" * MAX_INPUT]:
        assert search(compiled, text) is (re2.search(pattern, text[:MAX_INPUT]) is not None)


def test_case_folded_pattern_in_a_rule_passes_check_and_a_dream_finishes(tmp_path: Path) -> None:
    """`(?i)k*\u212a…x` (Kelvin sign folds to k) loads and searches 2,000 k's to an answer."""
    expr = compile_expression("s matches '(?i)k*\u212ak*\u212ak*\u212ax'", SCHEMA)
    assert expr.evaluate({"s": "k" * 2000}) is False
    assert expr.evaluate({"s": "k" * 10 + "x"}) is True


def test_catastrophic_pattern_in_a_rule_compiles_to_the_linear_engine() -> None:
    """`text matches '(a+)+$'` loads (RE2 cannot backtrack) and answers on hostile text."""
    expr = compile_expression("s matches '(a+)+$'", SCHEMA)
    assert expr.evaluate({"s": "a" * (MAX_INPUT - 1) + "!"}) is False
    assert expr.evaluate({"s": "aaa"}) is True


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
def test_useful_patterns_load_and_agree_with_python_re(pattern: str) -> None:
    """Accepted patterns give the answer Python's `re` gives on the same bounded text."""
    compiled = compile_pattern(pattern)
    for text in [*HOSTILE_TEXTS, "I prefer coloured output", "token: x", "deploying 12.5"]:
        want = re.search(pattern, text[:MAX_INPUT]) is not None
        assert search(compiled, text) is want, (pattern, text[:10])


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


@given(_patterns())
def test_any_pattern_is_refused_or_runs_on_the_linear_engine(pattern: str) -> None:
    """Property: a random pattern is refused with our error, or compiles to RE2 and answers."""
    try:
        compiled = compile_pattern(pattern)
    except PatternError:
        return
    assert type(compiled).__module__.startswith("re2")
    for text in ("a" * 3000, "ab" * 1500, "a" * 1999 + "b", "1 " * 1500):
        assert isinstance(search(compiled, text), bool)
