"""A fact said to hold now (update_frames._said_now): its last words looked at first, the
same answer as the pattern searching the whole text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.consolidate.update_frames import _NOW_END, _said_now

#: The pattern's words, cased and run into others, and a long s and a Kelvin sign (which the
#: pattern, ignoring case, reads as an "s" and a "k").
_WORDS = ["now", "NOW", "Now", "currently", "Currently", "these", "days", "day\u017f", "know"]
_OTHERS = ["snow", "is", "30", "user", "Berlin", " ", "  ", "\n", "\t", ".", "!", "?", ",", "-"]
_PIECES = st.sampled_from([*_WORDS, *_OTHERS, "\u017f", "\u212a"])


def _pattern(text: str) -> bool:
    return _NOW_END.search(text.strip()) is not None


@given(st.lists(_PIECES, max_size=12).map(" ".join))
def test_said_now_is_what_the_pattern_finds(text: str) -> None:
    """Any text of the pattern's words and marks: the same answer."""
    assert _said_now(text) == _pattern(text)


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_said_now_is_what_the_pattern_finds_of_words_run_together(text: str) -> None:
    """Words run together ("knownow", "thesedays."): the same answer."""
    assert _said_now(text) == _pattern(text)


def test_said_now_of_a_few_endings() -> None:
    """'now', 'currently' and 'these days' at the end, with a mark or none; not inside."""
    said = [
        "The team is at 11 people now.",
        "Ana lives in Porto currently!",
        "Uses Vim these days",
        "these day\u017f.",
    ]
    for text in said:
        assert _said_now(text) and _pattern(text)
    for text in ["Knows the snow", "Now uses Vim.", "Is 30 now?"]:
        assert not _said_now(text) and not _pattern(text)
