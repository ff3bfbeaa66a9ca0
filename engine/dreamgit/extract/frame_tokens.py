"""A memory sentence as the frame reader's tokens: words, numbers and punctuation marks.

``frame.py`` reads a sentence from its tokens: a word lower case, whether it is a name
(capitalised inside the sentence), and the canonical form its sets hold; contractions
split ("doesn't" is "does not", "user's" is "user 's"); the first sentence only. Words
repeat across a store's sentences (100,000 memories say a few tens of thousands of
words), so each word's tokens are made once, with their canonical forms and the verb
each may be, and shared; a sentence's tokens are then one pass of the pattern.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from dreamgit import lazyre
from dreamgit.extract.verbs import BE_FORMS, HAVE_FORMS, PRONOUN_USER, verb_base
from dreamgit.textsim import canonical_word

__all__ = ["Tok", "sentence_tokens"]

_TOKEN = lazyre.compile(
    r"(?P<num>[$€£]?\d+(?:[.,:/-]\d+)*(?:%|[a-zA-Z]+\b)?)"
    r"|(?P<word>[^\W\d_][\w'\u2019+#/-]*(?:\.[\w+#]+)*[\w+#]?)"
    r"|(?P<punct>[,;:()]|\s[-\u2014\u2013]\s|[.!?](?=\s|$))"
)
_CLAUSE_END = frozenset({".", "!", "?", ";"})
_UNCONTRACTED = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would"}


class Tok(NamedTuple):
    """One token of a sentence."""

    low: str
    kind: str  # word | num | punct
    capital: bool  # capitalised inside the sentence: a name
    canon: str  #: what the frame's word sets hold: a number as written, a word canonical
    #: The verb a word is a form of (:func:`~.verbs.verb_base`): the reader asks it of
    #: most words several times. None for a word that is no verb, a number or a mark.
    base: str | None = None


def sentence_tokens(text: str) -> list[Tok]:
    """The tokens of ``text``'s first sentence (up to its first ".", "!", "?" or ";")."""
    out: list[Tok] = []
    # one group of the three holds the match, the others are empty
    for num, word, punct in _TOKEN.findall(text.replace("\u2019", "'")):
        if word:
            out += (_INSIDE.get(word) or _inside(word)) if out else _word(word, False)
        elif num:
            low = num.lower().replace(",", "")
            out.append(Tok(low, "num", False, low))
        else:
            mark = _MARKS[punct.strip()]
            if mark.low in _CLAUSE_END and out:
                break  # one sentence: the first
            out.append(mark)
    return out


_MARKS = {
    raw: Tok("-" if raw in ("-", "\u2014", "\u2013") else raw, "punct", False, raw)
    for raw in ",;:().!?-\u2014\u2013"
}


#: The tokens of each word read inside a sentence (most words): looked up without
#: :func:`_word`'s cache's key of two; emptied when full, as that cache drops its oldest.
_INSIDE: dict[str, tuple[Tok, ...]] = {}
_INSIDE_HELD = 1 << 16


def _inside(raw: str) -> tuple[Tok, ...]:
    if len(_INSIDE) >= _INSIDE_HELD:
        _INSIDE.clear()
    toks = _INSIDE[raw] = _word(raw, True)
    return toks


@lru_cache(maxsize=1 << 16)
def _word(raw: str, inside: bool) -> tuple[Tok, ...]:
    """The tokens of one word, ``inside`` the sentence or opening it (shared: cached)."""
    low = raw.lower()
    capital = inside and raw[:1].isupper() and low not in PRONOUN_USER
    if low.endswith("n't"):
        base = {"can't": "can", "won't": "will"}.get(low, low[:-3])
        return _plain(base, False), _plain("not", False)
    if low.endswith("'s"):
        return _plain(low[:-2], capital), _plain("'s", False)
    if "'" in low:
        head, _, tail = low.partition("'")
        tail = _UNCONTRACTED.get(tail, "")
        return (_plain(head, capital), _plain(tail, False)) if tail else (_plain(head, capital),)
    return (_plain(low, capital),)


def _plain(low: str, capital: bool) -> Tok:
    return Tok(low, "word", capital, _canon_word(low), verb_base(low))


@lru_cache(maxsize=1 << 16)
def _canon_word(low: str) -> str:
    if low in PRONOUN_USER:
        return "user"
    if low in BE_FORMS:
        return "be"
    if low in HAVE_FORMS:
        return canonical_word("have")
    return canonical_word(verb_base(low) or low)
