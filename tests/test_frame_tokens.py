"""A sentence's tokens for the frame reader (extract/frame_tokens.py) and the numbers and
dates it is framed with (extract/signature.py): the same as the readings they replaced."""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.extract import frame_tokens
from dreamgit.extract.frame import parse_frame
from dreamgit.extract.frame_tokens import sentence_tokens
from dreamgit.extract.signature import numbers_and_dates, signature
from dreamgit.extract.verbs import PRONOUN_USER, verb_base
from dreamgit.textsim import canonical_word

sys.path.insert(0, str(Path(__file__).parent / "bench"))

from corpus import generate

# The tokenizer as it was before each word's tokens were shared, frozen here as the
# reference: (low, kind, capital) of each token, and the canonical form of a token.
_OLD_TOKEN = re.compile(
    r"(?P<num>[$€£]?\d+(?:[.,:/-]\d+)*(?:%|[a-zA-Z]+\b)?)"
    r"|(?P<word>[^\W\d_][\w'\u2019+#/-]*(?:\.[\w+#]+)*[\w+#]?)"
    r"|(?P<punct>[,;:()]|\s[-\u2014\u2013]\s|[.!?](?=\s|$))"
)


def _old_tokens(text: str) -> list[tuple[str, str, bool]]:
    out: list[tuple[str, str, bool]] = []
    for m in _OLD_TOKEN.finditer(text.replace("\u2019", "'")):
        kind = m.lastgroup or "word"
        raw = m.group().strip()
        if kind == "punct":
            if raw in {".", "!", "?", ";"} and out:
                break
            out.append(("-" if raw in ("-", "\u2014", "\u2013") else raw, "punct", False))
            continue
        if kind == "num":
            out.append((raw.lower().replace(",", ""), "num", False))
            continue
        capital = bool(out) and raw[:1].isupper() and raw.lower() not in PRONOUN_USER
        low = raw.lower()
        if low.endswith("n't"):
            base = {"can't": "can", "won't": "will"}.get(low, low[:-3])
            out += [(base, "word", False), ("not", "word", False)]
        elif low.endswith("'s"):
            out += [(low[:-2], "word", capital), ("'s", "word", False)]
        elif "'" in low:
            head, _, tail = low.partition("'")
            tail = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would"}.get(tail, "")
            out += [(head, "word", capital)] + ([(tail, "word", False)] if tail else [])
        else:
            out.append((low, "word", capital))
    return out


def _old_canon(low: str, kind: str) -> str:
    if kind == "num":
        return low
    if low in PRONOUN_USER:
        return "user"
    if low in ("is", "are", "was", "were", "am", "be", "been", "being"):
        return "be"
    if low in ("has", "have", "had"):
        return canonical_word("have")
    return canonical_word(verb_base(low) or low)


def _same_as_before(text: str) -> None:
    tokens = sentence_tokens(text)
    assert [(t.low, t.kind, t.capital) for t in tokens] == _old_tokens(text), text
    assert [t.canon for t in tokens if t.kind != "punct"] == [
        _old_canon(t.low, t.kind) for t in tokens if t.kind != "punct"
    ], text
    assert [t.base for t in tokens] == [
        verb_base(t.low) if t.kind == "word" else None for t in tokens
    ], text
    sig = signature(text)
    assert numbers_and_dates(text) == (sig.numbers, sig.dates), text


@cache
def _bench_texts() -> list[str]:
    return [m["text"] for m in generate(3000).memories]


#: Pieces sentences are made of: words with apostrophes (both kinds), contractions,
#: capitals, identifiers, numbers with units and separators, dates, dashes, punctuation.
_PIECES = st.sampled_from(
    [
        "The",
        "user's",
        "I",
        "I'm",
        "can't",
        "won't",
        "doesn't",
        "they'd",
        "we've",
        "O'Brien",
        "Ana\u2019s",
        "isn\u2019t",
        "Python",
        "3.11",
        "v3.12",
        "$1,400",
        "15:00",
        "3pm",
        "20%",
        "2026-03-04",
        "12/05",
        "may",
        "May",
        "June",
        "Monday",
        "twenty-five",
        "four",
        "hundred",
        "billing-api",
        "node.js",
        "C++",
        "C#",
        "user",
        "me",
        "Myself",
        "is",
        "was",
        "has",
        "had",
        "moved",
        "went",
        "up",
        "not",
        "never",
        "no",
        "longer",
        "now",
        ",",
        ";",
        ":",
        "(",
        ")",
        ".",
        "!",
        "?",
        "-",
        "\u2014",
        "\u2013",
        "and",
        "over",
        "to",
        "than",
        "of",
        "the",
        "a",
        "an",
    ]
)
_SEPARATORS = st.sampled_from([" ", " ", " ", "", "  ", "\n", ". ", ", ", " - "])


@given(st.lists(st.tuples(_PIECES, _SEPARATORS), max_size=16))
def test_tokens_and_numbers_are_those_of_the_readers_before_on_any_sentence(
    parts: list[tuple[str, str]],
) -> None:
    """Any string of sentence pieces gives the tokens, canonical forms, numbers and dates
    the frame reader had before its word tokens were shared."""
    _same_as_before("".join(piece + sep for piece, sep in parts))


@given(st.text(max_size=60))
def test_tokens_and_numbers_are_those_of_the_readers_before_on_any_text(text: str) -> None:
    """Any text at all (any character) gives the same tokens, numbers and dates too."""
    _same_as_before(text)


def test_tokens_and_numbers_are_those_of_the_readers_before_on_the_bench_store() -> None:
    """The benchmark store's memory sentences give the same tokens, numbers and dates."""
    for text in _bench_texts():
        _same_as_before(text)


def test_a_words_tokens_are_shared_between_sentences() -> None:
    """A word said in two sentences is one token object: made once, with its canonical
    form."""
    first = sentence_tokens("The user deploys billing-api on Fridays.")
    second = sentence_tokens("Ana deploys billing-api on Mondays.")
    assert first[2] is second[1] and first[2].canon == canonical_word("deploy")
    assert first[3] is second[2]


def test_only_the_first_sentence_is_read_and_a_name_is_capitalised_inside_it() -> None:
    """Tokens stop at the first sentence's end; a capital opening the sentence is no name,
    one inside it is, "I" never is."""
    tokens = sentence_tokens("Maya said I use Vim. Then more.")
    assert [(t.low, t.capital) for t in tokens] == [
        ("maya", False),
        ("said", False),
        ("i", False),
        ("use", False),
        ("vim", True),
    ]
    frame = parse_frame("Maya said I use Vim. Then more.")
    assert frame is not None and "then" not in frame.words


def test_words_read_inside_a_full_table_are_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of words read inside a sentence starts over when full: the same tokens."""
    text = "The user's team deploys billing-api on Monday with Python 3.11 and Rust"
    before = sentence_tokens(text)
    monkeypatch.setattr(frame_tokens, "_INSIDE_HELD", 2)
    monkeypatch.setattr(frame_tokens, "_INSIDE", {})
    assert sentence_tokens(text) == before
    assert len(frame_tokens._INSIDE) <= 2
