"""The language of Latin-script text too short for CLD2, and the words that are names.

CLD2 (:mod:`.language`) answers only for text of some length; a session of one short
sentence ("Ich bin Lehrerin in Leipzig.", "Eu moro em Porto.") gets no answer from it and
would be read by the English rules. For such text :func:`guess` asks langid.py
(``py3langid``: a naive Bayes classifier over byte n-grams, offline, deterministic, its
model shipped in the package), restricted to :data:`LATIN_LANGUAGES`, and keeps its
answer when the normalised probability reaches :data:`SURE`. Both detectors are asked
about the text without its names (:func:`without_names`): capitalised words after the
first are names of people and places in any language, and "I met Jürgen in München"
is English once "Jürgen" and "München" no longer count. The classifier (numpy and a
model of a few megabytes, unpacked once per machine: :mod:`.langid_model`) is loaded on
first use only, so commands that never gather never pay for it. langid.py comes with
the ``languages`` extra (``pip install 'dreamgit[languages]'``; the plain install stays
small): without it :func:`guess` and :func:`surely_not_english` answer ``""``, as CLD2 alone would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dreamgit import lazyre
from dreamgit.dream.gather.langid_model import identifier

__all__ = ["LATIN_LANGUAGES", "SURE", "guess", "surely_not_english", "without_names"]

#: The languages of Latin script a short text is weighed between (ISO 639-1, as
#: langid.py names them): English and the languages people most often write to agents
#: in Latin letters. Fewer candidates keep a short English sentence English; any other
#: Latin language is still told apart from English when CLD2 reads it.
LATIN_LANGUAGES = tuple(str.split("en de fr es pt nl it pl sv da no cs sk tr id ro hu fi ca hr vi"))
#: The normalised probability a guess needs. Sentences written for the tests: every
#: German, French, Spanish, Portuguese and Dutch one-liner scores above it; English
#: one-liners with a name of another language in them score English or below it.
SURE = 0.5
#: What a short sentence of another language inside an English session needs: langid.py
#: this sure, and CLD2's best effort naming the same language. On one-liners written for
#: the tests (50 English, 9 in other languages) no English one reaches it; five of the
#: nine others do ("Ich trinke gern Tee." does; "Danke schön." at 0.89 does not).
SURE_ALONE = 0.9
#: A word of letters (any Latin letters) with apostrophes or hyphens inside.
_WORD = lazyre.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
#: Where a sentence ends inside a text: the next word is capitalised for that reason.
_SENTENCE_END = lazyre.compile(r"[.!?:]\s*$")


def without_names(text: str) -> str:
    """``text`` without the capitalised words that do not open a sentence or line:
    "I work at Société Générale." → "I work at  .". The lone "I" stays."""
    out: list[str] = []
    start = 0
    after_word = 0  # where the word before ends: only the gap since then is read
    for m in _WORD.finditer(text):
        word = m.group()
        gap = text[after_word : m.start()]  # what a sentence end can lie in (linear work)
        first = after_word == 0 and not gap.strip()
        opens = first or _SENTENCE_END.search(gap) or gap.endswith("\n")
        if word[0].isupper() and len(word) > 1 and not opens:
            out.append(text[start : m.start()])
            start = m.end()
        after_word = m.end()
    out.append(text[start:])
    return "".join(out)


@cache
def _identifier() -> Any:
    """langid.py's classifier over :data:`LATIN_LANGUAGES` (None without the extra)."""
    return identifier(LATIN_LANGUAGES)


def surely_not_english(sentence: str, cld2_best_effort: str) -> str:
    """The language of a short Latin-script ``sentence`` when langid.py is
    :data:`SURE_ALONE` of a language other than English and CLD2's best effort
    (``cld2_best_effort``, asked by the caller on the same text) names the same one;
    else ``""``."""
    if cld2_best_effort in ("", "en", "un"):
        return ""
    code, probability = _classified(sentence)
    return code if code == cld2_best_effort and probability >= SURE_ALONE else ""


def guess(text: str) -> str:
    """The language code of short Latin-script ``text`` when langid.py is sure enough
    of it (names left out), else ``""``."""
    code, probability = _classified(text)
    return code if probability >= SURE else ""


def _classified(text: str) -> tuple[str, float]:
    """langid.py's language of ``text`` without its names, and how sure it is; ``("", 0.0)``
    when no word is left or the ``languages`` extra is not installed."""
    bare = without_names(text)
    identifier = _identifier() if _WORD.search(bare) else None
    if identifier is None:
        return "", 0.0
    code, probability = identifier.classify(bare)
    return str(code), float(probability)
