"""Tests for gathering's closest known text (``compact._Overlaps.closest``): the set
sharing most of a statement's words, the latest of equals."""

from __future__ import annotations

from dreamgit.dream.gather.compact import _Overlaps, content_words


def _overlaps(known: list[str]) -> _Overlaps:
    holders: dict[str, list[int]] = {}
    for k, text in enumerate(known):
        for word in content_words(text):
            holders.setdefault(word, []).append(k)
    return _Overlaps(holders, known)


def test_the_latest_of_the_known_texts_sharing_most_words_is_the_closest() -> None:
    """Two known texts share two words each, a third shares one: the later of the two."""
    known = [
        "Keeps the garden hose in the red shed",
        "Keeps a spare bicycle pump near the garden gate",
        "Waters the garden with a blue hose every morning",
        "Bought a new bicycle helmet",
    ]
    words = content_words("Waters the garden hose daily")
    shared, found = _overlaps(known).closest(words)
    assert (shared, found) == (3, content_words(known[2]))
    shared, found = _overlaps(known[:2]).closest(content_words("The garden hose leaks"))
    assert (shared, found) == (2, content_words(known[0]))


def test_a_statement_added_after_the_known_texts_wins_a_tie() -> None:
    """A kept statement of the run counts after every known text: with as many shared
    words, it is the closest."""
    index = _overlaps(["Plays chess at the library on Fridays"])
    index.add(content_words("Plays chess online with a cousin on Fridays"))
    shared, found = index.closest(content_words("Plays chess on Fridays"))
    assert (shared, found) == (3, content_words("Plays chess online with a cousin on Fridays"))


def test_a_statement_sharing_no_word_has_no_closest() -> None:
    """Nothing shared: no count, no words."""
    assert _overlaps(["Drinks green tea"]).closest(content_words("Repairs old radios")) == (
        0,
        set(),
    )
