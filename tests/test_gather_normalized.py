"""How gather's repeat check reads a text: lower-case words without the leading subject."""

from __future__ import annotations

import pytest

from dreamgit.dream.gather.compact import normalized


@pytest.mark.parametrize(
    ("text", "subjects", "expected"),
    [
        ("The user prefers tea over coffee.", (), "prefers tea over coffee"),
        ("The user's sister lives in Porto.", (), "sister lives in porto"),
        ("Noor' bike is blue.", ("Noor",), "bike is blue"),
        ("Noor's bike is blue.", ("Noor",), "bike is blue"),
        ("Noor moved to Ghent in May.", ("Noor",), "moved to ghent in may"),
        ("Noor moved to Ghent.", (None,), "noor moved to ghent"),
        ("Noorland is a board game.", ("Noor",), "noorland is a board game"),
        ("Visiting Noor in June.", ("Noor",), "visiting noor in june"),
        ("The user Noor cycles daily.", ("Noor",), "cycles daily"),
    ],
)
def test_normalized_drops_only_a_leading_subject(
    text: str, subjects: tuple[str | None, ...], expected: str
) -> None:
    """A subject is left out only where it leads the text, as a whole word or possessive."""
    assert normalized(text, subjects) == expected
