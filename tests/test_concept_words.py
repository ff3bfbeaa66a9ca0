"""A text's content words are the same whichever way they are matched (ASCII or not)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.ruleset.context import concept_words
from dreamgit.textsim import STOP_WORDS

_UNICODE_WORD = re.compile(r"[^\W_]{3,}")


def _reference(text: str) -> set[str]:
    return {w for w in _UNICODE_WORD.findall(text.lower()) if w not in STOP_WORDS}


_PIECES = st.sampled_from(
    ["Prefers", "the", "DEMO", "on", "7", "March", "2026", "x_y", "abc123", "Café", "İstanbul",
     "naïve", "东京", "ß", "ǅemal", "and", " ", ",", ".", "_", "-", "\n", "ABC", "__init__"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_content_words_match_the_unicode_pattern_on_any_text(text: str) -> None:
    """Texts all ASCII take the ASCII pattern; every text gives the Unicode pattern's words."""
    assert concept_words(text) == _reference(text)


@given(st.text(max_size=40))
def test_content_words_of_arbitrary_text_match_the_unicode_pattern(text: str) -> None:
    """Any string at all, as the Unicode pattern reads it."""
    assert concept_words(text) == _reference(text)
