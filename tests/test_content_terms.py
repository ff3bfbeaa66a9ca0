"""content_terms reads an ASCII text by a plain word pattern and a glue set: the same words,
in the same order, as the one pattern it uses for other scripts."""

from __future__ import annotations

import random

import pytest

from dreamgit.dream.gather.compact import content_words
from dreamgit.dream.gather.language import cjk_terms
from dreamgit.dream.gather.words import _CHAT_GLUE, _CONTENT, content_terms

EDGES = (
    "",
    "That's what I THINK about the Timesheet, really!",
    "it's gonna be well-known: others' thoughts, Things and THINGS",
    "abcd5 efgh_ijkl snake_case word2vec 2023abcd x-ray-tube Thatcher thanks4all",
    "   leading spaces\tand\ttabs\nnew lines — with a dash",
    "Führerschein in Москва, then a Timesheet",  # not ASCII: the one pattern reads it
    "東京 trip with Dana",
)


@pytest.mark.parametrize("text", EDGES)
def test_edges_read_as_the_one_pattern(text: str) -> None:
    assert content_terms(text) == [*_CONTENT.findall(text), *cjk_terms(text)]


def test_random_ascii_reads_as_the_one_pattern() -> None:
    pieces = [*_CHAT_GLUE, *(w.upper() for w in _CHAT_GLUE), *(w.title() for w in _CHAT_GLUE)]
    pieces += ["pytest", "Dana", "abc", "x", "2023", "_", "'", "-", ".", "s", "lots5", "timesx"]
    separators = [" ", "", "'", "-", "_", ", ", "\n", "3"]
    chance = random.Random(27)
    for _ in range(3000):
        text = "".join(
            chance.choice(pieces) + chance.choice(separators) for _ in range(chance.randint(0, 12))
        )
        assert content_terms(text) == _CONTENT.findall(text), text


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Prefers pytest over unittest", {"pytest", "unittest"}),
        ("Met Ana last Friday (5 May 2023), paid 3,50", {"ana", "5-may-2023", "3,50"}),
        ("Moved in the week of 12 June 2024", {"moved", "12-june-2024"}),
        ("Owes ٣ books", {"owe", "book", "٣"}),  # a digit of another script is a number too
    ],
)
def test_content_words_with_and_without_digits(text: str, held: set[str]) -> None:
    assert held <= content_words(text)
