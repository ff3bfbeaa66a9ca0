"""Which language a sentence is in, and where the sentences of any script end.

The English rules of gathering read English only; text in any other language is kept
as said (:mod:`.as_said`). A sentence's language comes first from its script: letters
of a script English never uses (Han, kana, Hangul, Cyrillic, Arabic, …) that outweigh
its Latin ones make it another language, whatever the detector says of a short CJK
line with a product name in it. Latin text goes to Google's Compact Language Detector
2 (``pycld2``: offline, deterministic, microseconds a call); a sentence too short for a
reliable answer takes its turn's language, then its session's; in a session of another
language, a sentence CLD2 calls English is English only in a turn that is English as a
whole (a pasted plan's line of English terms in a Portuguese request is Portuguese).
A session (all its people's words together) too short for CLD2 is weighed by langid.py
(:mod:`.language_guess`), and English is what is left when nothing is sure, so that
gathering reads as it always did when in doubt. Names do not make a sentence foreign:
when CLD2 calls Latin text another language but the text without its capitalised
names reads as English ("I met Jürgen in München last week."), it is English. Sentences end
at ``.!?…`` followed by a space, as the English rules split them, and also at the CJK
full stops ``。！？`` and the full-width ``．``, which need no space after them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pycld2

from dreamgit import lazyre
from dreamgit.dream.gather.language_guess import guess, surely_not_english, without_names

__all__ = [
    "CJK",
    "ENGLISH",
    "FULL_STOPS",
    "SPACED_LETTERS",
    "UNKNOWN",
    "UPPER_LETTERS",
    "Languages",
    "any_script_sentences",
    "cjk_terms",
    "detect",
    "script_language",
    "session_language",
]

ENGLISH = "en"
#: No detector was sure: the English rules read it, as they always have.
UNKNOWN = ""
#: ``(first, last, code)``: code points of scripts English never uses; ``code`` names
#: the language when the script alone tells it, else the script (ISO 15924).
_SCRIPTS: tuple[tuple[int, int, str], ...] = (
    (0x0370, 0x03FF, "el"),
    (0x0400, 0x052F, "Cyrl"),
    (0x0530, 0x058F, "hy"),
    (0x0590, 0x05FF, "he"),
    (0x0600, 0x06FF, "Arab"),
    (0x0900, 0x0DFF, "Indic"),
    (0x0E00, 0x0E7F, "th"),
    (0x10A0, 0x10FF, "ka"),
    (0x1100, 0x11FF, "ko"),
    (0x3040, 0x30FF, "ja"),
    (0x3400, 0x4DBF, "Hani"),
    (0x4E00, 0x9FFF, "Hani"),
    (0xAC00, 0xD7AF, "ko"),
    (0xF900, 0xFAFF, "Hani"),
)
#: Characters written without spaces between words: each is about two thirds of a word.
_UNSPACED = frozenset({"Hani", "ja"})
#: CJK characters (Han, kana, Hangul), for terms and sentence ends.
CJK = "\u1100-\u11ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: Letters of the scripts that put spaces between words (Latin, Greek, Cyrillic).
SPACED_LETTERS = "a-zA-Z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u052f"
_CJK_RUN = lazyre.compile(f"[{CJK}]+")
#: Capital letters of the scripts that space their words, for a regex class: "Łódź",
#: "Ørsted" and "Москва" open with a capital as "Berlin" does.
UPPER_LETTERS = "A-Z" + "".join(
    char for char in map(chr, range(0xC0, 0x0530)) if char.isupper() and char.isalpha()
)
#: Codes the detector gives short English sentences ("I love bowling!" as Scots).
_AS_ENGLISH = {"sco": ENGLISH}
#: Latin-script text of this many words is long enough for the detector; a shorter
#: sentence ("They're called Peruvian Lilies.") takes its turn's language.
_SURE_WORDS = 6
_WORD = lazyre.compile(r"[^\W\d_]{2,}")
#: The full stops that end a statement, in the scripts this module splits.
FULL_STOPS = (".", "。", "．", "\u0589", "\u06d4", "\u0964", "\u0965")
#: Where a sentence of any script ends: a CJK stop, or a stop and a space (Latin, the
#: Armenian and Urdu full stops, the Devanagari danda).
_SENTENCE_END = lazyre.compile(r"(?<=[。！？．])\s*|(?<=[.!?\u2026\u0589\u06d4\u0964\u0965])\s+")


def _script_of(char: str) -> str | None:
    """The script (or language) of a letter English never uses; None for Latin."""
    point = ord(char)
    if point < 0x0370:
        return None
    for first, last, code in _SCRIPTS:
        if first <= point <= last:
            return code
    return None


def script_language(text: str) -> str | None:
    """The language (or script) ``text`` is in by its letters alone, when most of its
    words are in scripts English never uses: "我们用 PostgreSQL 16。" is Chinese text with
    a product name in it. None for Latin text. Words are counted as runs of letters of
    one script, and two CJK characters as one word and a third."""
    if text.isascii():
        return None
    words: dict[str | None, float] = {}
    previous: str | bool | None = False  # False: not in a word
    for char in text:
        if not char.isalpha():
            previous = False
            continue
        script = _script_of(char)
        if script in _UNSPACED:
            words[script] = words.get(script, 0) + 2 / 3
        elif script != previous:
            words[script] = words.get(script, 0) + 1
        previous = script
    latin = words.pop(None, 0)
    if not words or sum(words.values()) <= latin:
        return None
    code = max(words, key=lambda c: (words[c], c or ""))
    if code == "Hani" and "ja" in words:
        return "ja"  # kanji with kana: Japanese
    return "zh" if code == "Hani" else code


#: Hiragana: what Japanese writes its particles and inflections in ("を", "ます").
_HIRAGANA = lazyre.compile("[\u3040-\u309f]+")


def cjk_terms(text: str) -> list[str]:
    """The content of CJK text as terms: each pair of neighbouring characters (a single
    character alone), so that sentences sharing words share terms without a dictionary.
    A pair all in hiragana is grammar, not content ("ます" ends every polite verb: two
    sentences sharing it share no word), and is left out."""
    terms: list[str] = []
    for run in _CJK_RUN.findall(text):
        pairs = [run] if len(run) == 1 else [run[k : k + 2] for k in range(len(run) - 1)]
        terms.extend(pair for pair in pairs if not _HIRAGANA.fullmatch(pair))
    return terms


def detect(text: str) -> str:
    """The language code of ``text`` (``"en"``, ``"de"``, ``"zh"``, ``"ru"``, …) when
    the detector is sure of it and the text is long enough, or in a script English
    never uses (then the script's code, ``"Cyrl"``, when the detector is unsure); else
    :data:`UNKNOWN` ("Hi, I'm Dana." is too short to be anything but a guess)."""
    by_script = script_language(text)
    if by_script is None and len(_WORD.findall(text)) < _SURE_WORDS:
        return UNKNOWN
    try:
        reliable, _, found = pycld2.detect(text)
    except (pycld2.error, UnicodeError):  # text the detector cannot take: not sure
        return by_script or UNKNOWN
    code = str(found[0][1])
    if not reliable or code in ("un", ENGLISH) or code.startswith("xx-"):
        # "xx-Qaai": emoji and symbols; a script English never uses is never English
        return by_script or (ENGLISH if reliable and code == ENGLISH else UNKNOWN)
    if by_script is not None:
        return code
    code = _AS_ENGLISH.get(code, code)
    return ENGLISH if code != ENGLISH and _english_but_names(text) else code


def _english_but_names(text: str) -> bool:
    """Whether Latin ``text`` reads as English once its capitalised names are left out."""
    bare = without_names(text)
    if bare == text:
        return False
    try:
        reliable, _, found = pycld2.detect(bare)
    except (pycld2.error, UnicodeError):
        return False
    if reliable and str(found[0][1]) in (ENGLISH, *_AS_ENGLISH):
        return True
    return guess(bare) == ENGLISH


def short_sentence_language(sentence: str) -> str:
    """The language of a Latin-script ``sentence`` too short for :func:`detect` when
    two detectors are sure it is the same language other than English ("Ich trinke gern
    Tee." inside an English session); else :data:`UNKNOWN`."""
    if script_language(sentence) is not None:
        return UNKNOWN
    try:
        _, _, found = pycld2.detect(without_names(sentence), bestEffort=True)
    except (pycld2.error, UnicodeError):
        return UNKNOWN
    return surely_not_english(sentence, str(found[0][1]))


def session_language(text: str) -> str:
    """The language of a session's people's words (``text``): :func:`detect`'s answer,
    else, for Latin text too short for it, langid.py's when it is sure; else
    :data:`UNKNOWN`."""
    found = detect(text)
    if found or script_language(text) is not None:
        return found
    return guess(text)


class Languages:
    """Languages of a session's sentences: a sentence's own when :func:`detect` is sure
    of it, else its turn's, else its session's (each turn and the session detected
    once, when first needed), else ``default``: the repository's ``language:``, when
    it has one."""

    def __init__(self, session: Callable[[], str], default: str = UNKNOWN) -> None:
        self._session_text = session
        self._session: str | None = None
        self._default = default

    def _of_session(self) -> str:
        if self._session is None:
            self._session = session_language(self._session_text()) or self._default
        return self._session

    def of(self, sentence: str, turn: Callable[[], str]) -> str:
        """The language of ``sentence``; ``turn`` gives its turn's language when needed.
        A short sentence two detectors are sure of keeps its own language in a session
        of another: "Ich trinke gern Tee." among English turns is German. A sentence CLD2
        calls English in a session of another language is that language when langid.py
        says so too (English terms in it misled CLD2), and unless its turn, read whole, is
        English: a line of a plan pasted into a Portuguese request, or a sentence of
        English terms among Portuguese ones, is in the turn's language, or the session's
        when the turn is too mixed for the detector."""
        own = detect(sentence)
        session = self._of_session()
        if own in (ENGLISH, UNKNOWN) and session not in (ENGLISH, UNKNOWN):
            if self._misread(sentence, own):
                return session
            of_turn = turn()
            if of_turn != ENGLISH:
                return of_turn or session
        own = own or turn() or short_sentence_language(sentence)
        return own or self._of_session()

    def turn(self, paragraphs: list[str]) -> Callable[[], str]:
        """The language of a turn made of ``paragraphs``, detected on first use."""
        found: list[str] = []

        def language() -> str:
            if not found:
                text = "\n".join(paragraphs)
                own = detect(text)
                found.append(self._of_session() if self._misread(text, own) else own)
            return found[0]

        return language

    def _misread(self, text: str, own: str) -> bool:
        """Whether CLD2 took ``text`` of a session of another language for English, or was
        unsure of it, where langid.py says the session's language: a short line full of
        English terms ("Faça o rollback do deploy de staging com o script.")."""
        session = self._of_session()
        return (
            own in (ENGLISH, UNKNOWN)
            and session not in (ENGLISH, UNKNOWN)
            and guess(text) == session
        )


def any_script_sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` in any script: a CJK full stop ends one with or without
    a space after it ("记住：端口是8080。我们用 PostgreSQL 16。" is two), the danda with one."""
    for sentence in _SENTENCE_END.split(text):
        sentence = sentence.strip()
        if sentence:
            yield sentence
