"""The scanner's cheap gates pass at least every line its case-folded patterns do."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dreamgit.store import secrets
from dreamgit.store.secret_formats import _FOLDING_ODDLY, KEYWORD, has_keyword
from dreamgit.store.secrets import _SUSPECT, _suspect, scan_text
from secretkit import LOOK_ALIKES, SECRETS

_FOLDED = re.compile(_SUSPECT, re.IGNORECASE)

#: Pieces of lines: credential words in odd cases, a Kelvin sign and a long s (which
#: re's case folding reads as k and s), a dotted capital I, long tokens, URLs.
_PIECES = st.sampled_from(
    [
        "Pass", "PWD", "pIn", "pin", "Secret", "TOKEN", "KeY", "Auth", "CRED", "Private",
        "bearer", "BASIC", "Sk_", "sk_", "\u212aey", "pa\u017f\u017f", "P\u0130N", "\u0131",
        "://", "@", "https://", "user@host", "abcdefghij", "0123456789", "-_+/=.", " ", "\t",
        "é", "\u2014", "word", "Kubernetes", "staging-review-kubernetes-message-7369", ".md",
    ]
)  # fmt: skip
_LINES = st.lists(_PIECES, max_size=10).map("".join) | st.text(max_size=40)


@given(_LINES)
@example("the \u212aey is here")
@example("- [Staging review](memories/decisions/staging-review-kubernetes-7369.md) \u2014 x")
def test_the_suspect_gate_passes_every_line_the_folded_pattern_does(line: str) -> None:
    """A line the folded pattern calls suspect is suspect to the gate too."""
    if _FOLDED.search(line):
        assert _suspect(line)


@given(_LINES)
@example("pa\u017f\u017fword")
@example("the API KEY")
def test_the_keyword_gate_answers_as_the_folded_pattern(line: str) -> None:
    """``has_keyword`` says what ``KEYWORD`` says, on every line."""
    assert has_keyword(line) == (KEYWORD.search(line) is not None)


def _scan_folded(text: str) -> list[secrets.Finding]:
    """``scan_text`` with the folded patterns as the gates (as before the cheap ones)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "_suspect", lambda line: _FOLDED.search(line) is not None)
        patch.setattr(secrets, "has_keyword", lambda line: KEYWORD.search(line) is not None)
        return scan_text(text)


@pytest.mark.parametrize("sentence", [s.sentence for s in SECRETS] + LOOK_ALIKES)
def test_every_secret_and_look_alike_is_scanned_as_with_the_folded_gates(sentence: str) -> None:
    """The findings over the fixtures are the same with either gate, upper-cased too."""
    for text in (sentence, sentence.upper(), f"- [{sentence}](memories/a/b.md)"):
        assert scan_text(text) == _scan_folded(text)


def test_every_fixture_secret_is_still_found() -> None:
    """Each credential of the fixtures is found where it stands."""
    for secret in SECRETS:
        start = secret.sentence.index(secret.value)
        end = start + len(secret.value)
        found = scan_text(secret.sentence)
        assert any(f.start < end and start < f.end for f in found), secret.kind


def test_the_odd_folders_are_every_character_folding_to_ascii_unlike_lower() -> None:
    """Every code point that re's case folding matches with an ASCII character of the
    patterns, or whose lower case is not one character of its own, is listed."""
    folded = re.compile(r"(?i)[a-z0-9_\-+/=.:@]")
    odd = [
        c
        for c in map(chr, range(128, sys.maxunicode + 1))
        if not "\ud800" <= c <= "\udfff"
        and (folded.fullmatch(c) or len(c.lower()) != 1 or c.lower().isascii())
    ]
    assert "".join(odd) == _FOLDING_ODDLY
