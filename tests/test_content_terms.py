"""content_terms reads an ASCII text by a plain word pattern and a glue set: the same words,
in the same order, as the one pattern it uses for other scripts; content words skip the
date patterns only where they could find nothing, and read an ASCII text chunk by chunk."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.gather.compact import (
    _DATE,
    _DATE_FRAME,
    _DIGIT,
    _NUMBER,
    _content_words,
    _text_words,
    _words,
    content_words,
)
from dreamgit.dream.gather.dates import _WEEKDAY_BESIDE
from dreamgit.dream.gather.language import cjk_terms
from dreamgit.dream.gather.words import _CHAT_GLUE, _CONTENT, content_terms, lower_content_terms

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


def test_lower_content_terms_are_the_content_terms_lowered() -> None:
    """The ASCII path finds the terms in the lower-case text: the same set as lowering each."""
    chance = random.Random(23)
    pieces = [*EDGES, *_CHAT_GLUE, "THINGS", "Thanks", "İstanbul", "K\u212aelvin", "SS", "x"]
    texts = [*EDGES, *(" ".join(chance.choices(pieces, k=5)) for _ in range(2000))]
    for text in texts:
        assert lower_content_terms(text) == {t.lower() for t in content_terms(text)}, text


def _content_words_read_whole(text: str) -> set[str]:
    """Content words as read before the year and bracket checks: every pattern, every text."""
    if _DIGIT.search(text) is None:
        return _text_words(text)
    text = _WEEKDAY_BESIDE.sub(lambda m: f"on {m['day']}", text)
    dates = {"-".join(m.group().lower().split()) for m in _DATE.finditer(text)}
    text = _DATE.sub(" ", _DATE_FRAME.sub(" ", text))
    return _text_words(text) | set(_NUMBER.findall(text)) | dates


_DATED_PIECES = st.sampled_from(
    [
        "Met", "Ana", "last", "Friday", "(5 May 2023)", "(12 june 2020)", "on", "5", "May",
        "2023", "12", "June", "2024", "summer", "2022", "week", "of", "before", "night",
        "after", "3,50", "1999", "(", ")", "K\u212aelvin", "n\u0131ght", "İstanbul", "٣",
        "2022-05", "July 2023", "things", "prefers", "pytest",
    ]
)  # fmt: skip


@given(st.lists(st.tuples(_DATED_PIECES, st.sampled_from([" ", "", ", ", "\n"])), max_size=10))
def test_content_words_skip_no_date_they_would_find(pieces: list[tuple[str, str]]) -> None:
    """Texts with and without years and brackets: the same words as every pattern reads."""
    text = "".join(piece + space for piece, space in pieces)
    assert _content_words(text) == _content_words_read_whole(text)


_ASCII_PIECES = st.sampled_from(
    [
        "Prefers", "pytest", "things", "THANKS", "cat", "gym", "the", "abcd5", "x-ray", "it's",
        "snake_case", "word2vec", "(fact", "4411).", "Dana's", "well-known:", "pie,", "ago",
    ]
)  # fmt: skip
_ASCII_SPACE = st.sampled_from([" ", "", "\n", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1f", ", "])


@given(st.lists(st.tuples(_ASCII_PIECES, _ASCII_SPACE), max_size=12))
def test_an_ascii_texts_words_read_chunk_by_chunk_are_its_whole_words(
    pieces: list[tuple[str, str]],
) -> None:
    """Any whitespace ASCII splits on, words glued to digits or underscores: the same
    words through the memo of chunks as by the patterns over the whole text."""
    text = "".join(piece + space for piece, space in pieces)
    assert _words(text) == _text_words(text)
    assert _words(text) == _text_words(text)  # read again through the memo
