"""Text similarity used by the rules' ``similarity`` function and the duplicate finder.

A memory is reduced to its *features*: the set of canonical content words. Case and
punctuation are dropped, contractions are expanded, function words (and words like
"user" that every memory shares) are stop words, a light suffix stripper folds
"prefers / preferred / preferring" together, a few synonyms and product aliases are
folded ("favours" → prefer, "PostgreSQL" → postgres), spelled numbers become digits
and negations become one :data:`NOT` feature so that a negated fact is less similar, not
more. ``similarity`` is the Dice coefficient of two feature sets: reordered words,
case and punctuation score 1.0, one extra word in a six-word fact about 0.92, one
swapped word about 0.83. Guards against opposites, numbers, dates and names live in
``dream/guards.py``; this module only measures overlap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from functools import lru_cache
from typing import NamedTuple

__all__ = [
    "FEATURE_KEEPER",
    "Token",
    "content_norms",
    "features",
    "jaccard",
    "similarity",
    "tokenize",
]

# Order matters: times before plain numbers, numbers before words.
_TOKEN = re.compile(
    r"(?P<time>\b\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\b\.?))"
    r"|(?P<num>[$€£]?\d+(?:[.,:/-]\d+)*(?:%|[a-z]+\b)?)"
    r"|(?P<word>[^\W\d][\w]*(?:[-.+#'\u2019/][\w+#]+)*[+#]*)"
    r"|(?P<sym>[%$€£&])"
    r"|(?P<stop>[.!?;:]+(?:\s|$))",
    re.IGNORECASE,
)
# A label before the fact ("Note: ...", "Update: ...") says nothing about the fact.
_LABEL = re.compile(
    r"\s*(?:note|update|fyi|reminder|important|context|tip|nb|btw|heads[- ]up)\s*:\s*",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?\s?([ap])", re.IGNORECASE)
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_NUM_UNIT = re.compile(r"([$€£]?)(\d+(?:[.,:/-]\d+)*)(.*)")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


STOP_WORDS = _wordset(
    """a about above across again against all almost along also although always am among an and
    any anyone anything are aren around as at be became because become been being below between
    both but by can could currently did do does doing done down during each either else etc e.g
    eg ever every for from further generally had has have having he her here hers herself him
    himself his how however i i.e ie if in into is it its itself just least let lot lots may me
    might mine most mostly much must my myself now of often on once only onto or other our ours
    ourselves out over own per perhaps please quite rather really same she should so some
    something sometimes still such than that the their theirs them themselves then there these
    they this those though through thus to too typically under until up upon us usually very via
    was we were what when whenever where whether which while who whom whose why will with within
    would yet you your yours yourself yourselves user users agent assistant nor fyi btw reminder
    apparently get gets got getting gotten"""
)
# "nor" only continues a "neither": counting it would make "neither X nor Y" a double negative.
_NEGATIONS = _wordset("not no never none nobody nothing nowhere neither without cannot n't")

#: The one feature every negation becomes; not a word, so no stem ("note" → "not") hits it.
NOT = "~not"

_UNITS = {"%": "percent", "$": "dollar", "€": "euro", "£": "pound", "&": "and"}

_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "twice": 2,
    "first": 1, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_SPELLED_RUN = frozenset([*_SMALL, *_SCALES, "and"])

# Synonyms and aliases, written as surface words; both sides are stemmed at import.
_FOLD_SURFACE = {
    "favor": "prefer", "favour": "prefer", "favors": "prefer", "favours": "prefer",
    "likes": "prefer", "like": "prefer", "liked": "prefer", "enjoys": "prefer",
    "utilize": "use", "utilise": "use", "employs": "use",
    "reside": "live", "resides": "live",
    "begin": "start", "begins": "start", "commence": "start",
    "large": "big", "huge": "big", "tiny": "small",
    "kid": "child", "kids": "child", "children": "child",
    "e-mail": "email", "repository": "repo", "repositories": "repo",
    "postgresql": "postgres", "psql": "postgres", "js": "javascript", "ts": "typescript",
    "k8s": "kubernetes", "golang": "go", "osx": "macos", "py": "python",
    "documentation": "docs", "configuration": "config", "mins": "minute", "min": "minute",
    "hrs": "hour", "hr": "hour", "secs": "second", "sec": "second",
}  # fmt: skip


class Token(NamedTuple):
    """One word of a text: its surface form, canonical form and where it stands."""

    text: str  #: as written
    norm: str  #: canonical: lower case, stemmed, folded; digits for numbers; :data:`NOT`
    stop: bool  #: a stop word (carries no content)
    start: bool  #: first word of a sentence
    kind: str  #: ``word``, ``num`` or ``time``


def _undouble(w: str) -> str:
    if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1] not in "aeiou":
        return w[:-1]
    return w


def _has_vowel(w: str) -> bool:
    return any(c in "aeiouy" for c in w)


@lru_cache(maxsize=1 << 15)
def _stem(w: str) -> str:
    """Light suffix stripping: plural, then -ed/-ing, then a final e."""
    if len(w) <= 2 or not w.isalpha():
        return w
    if len(w) > 3:
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith(("sses", "shes", "ches", "xes", "zes")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
    if w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) > 4 and _has_vowel(w[:-3]):
        w = _undouble(w[:-3])
    elif w.endswith("ed") and len(w) > 3 and not w.endswith("eed") and _has_vowel(w[:-2]):
        w = _undouble(w[:-2])
    if w.endswith("e") and len(w) >= 3:
        w = w[:-1]
    return w


_FOLD = {_stem(k): _stem(v) for k, v in _FOLD_SURFACE.items()}
_FOLD.update({k: _stem(v) for k, v in _FOLD_SURFACE.items()})


def canonical_word(lower: str) -> str:
    """Canonical form of one lower-case word: stemmed, then folded (synonyms, aliases)."""
    if lower in _FOLD:
        return _FOLD[lower]
    s = _stem(lower.replace("-", "")) if "-" in lower else _stem(lower)
    return _FOLD.get(s, s)


def _norm_number(raw: str) -> tuple[str, str]:
    """Canonical digits and a unit word (possibly empty) of a numeric token."""
    m = _NUM_UNIT.fullmatch(raw)
    if m is None:  # pragma: no cover - the token pattern guarantees a match
        return raw, ""
    cur, digits, tail = m.groups()
    if _THOUSANDS.fullmatch(digits):
        digits = digits.replace(",", "")
    tail = tail.lower()
    if tail in ("st", "nd", "rd", "th"):
        tail = ""
    unit = _UNITS.get(tail, tail) or _UNITS.get(cur, "")
    return digits, canonical_word(unit) if unit.isalpha() else unit


def _clock(raw: str) -> str:
    m = _CLOCK.match(raw)
    if m is None:  # pragma: no cover - the token pattern guarantees a match
        return raw
    hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
    return f"{hour:02d}:{m.group(2) or '00'}"


def _spelled(words: list[str]) -> str | None:
    """Value of a run of number words ("twenty five", "two hundred"), else None."""
    total, current = 0, 0
    for w in words:
        if w in _SMALL:
            current += _SMALL[w]
        elif w in _SCALES:
            current = max(current, 1) * _SCALES[w]
            if _SCALES[w] > 100:
                total, current = total + current, 0
        else:
            return None
    return str(total + current)


@lru_cache(maxsize=1 << 16)
def _word_tokens(raw: str, start: bool) -> tuple[Token, ...]:
    """Tokens of one word, expanding contractions and hyphenated numbers (cached)."""
    return tuple(_split_word(raw, start))


def _split_word(raw: str, start: bool) -> list[Token]:
    low = raw.lower().replace("\u2019", "'")
    if low.endswith("n't"):
        base = {"can't": "can", "won't": "will", "shan't": "shall"}.get(low, low[:-3])
        return [Token(raw, base, True, start, "word"), Token(raw, NOT, False, False, "word")]
    if low == "cannot":
        return [Token(raw, "can", True, start, "word"), Token(raw, NOT, False, False, "word")]
    if "'" in low:
        low = low.split("'", 1)[0]
    if "-" in low and all(p in _SMALL or p in _SCALES for p in low.split("-")):
        value = _spelled(low.split("-"))
        if value is not None:
            return [Token(raw, value, False, start, "num")]
    if low[0] == "v" and low[1:2].isdigit() and _NUM_UNIT.fullmatch(low[1:]):
        return [Token(raw, _norm_number(low[1:])[0], False, start, "num")]  # "v3.11"
    if len(raw) > 2 and raw[-1] == "s" and raw[:-1].isupper():
        low = low[:-1]  # "PRs", "APIs": acronym plurals
    if low in _NEGATIONS:
        return [Token(raw, NOT, False, start, "word")]
    if low in STOP_WORDS:
        return [Token(raw, low, True, start, "word")]
    return [Token(raw, canonical_word(low), False, start, "word")]


def _merge_spelled(tokens: list[Token]) -> list[Token]:
    """Fold runs of spelled numbers into one numeric token ("twenty five" → 25)."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        low = t.text.lower()
        if t.kind == "word" and (low in _SMALL or low in _SCALES):
            j = i
            run: list[str] = []
            while j < len(tokens) and tokens[j].text.lower() in _SPELLED_RUN:
                run.append(tokens[j].text.lower())
                j += 1
            while run and run[-1] == "and":
                run.pop()
                j -= 1
            value = _spelled([w for w in run if w != "and"])
            if value is not None:
                out.append(Token(" ".join(run), value, False, t.start, "num"))
                i = j
                continue
        out.append(t)
        i += 1
    return out


#: Room for every text of a 100,000-memory store: a dream with no kept word sets
#: tokenizes each for its features while gathering and again for its signature while
#: consolidating, and a cache of 65,536 had dropped them in between (227,558
#: tokenizations, 9.8 s of a cold dream's 160 s profiled).
@lru_cache(maxsize=1 << 17)
def tokenize(text: str) -> tuple[Token, ...]:
    """Tokens of a text, in order, with canonical forms (cached: texts repeat)."""
    tokens: list[Token] = []
    start, spelled = True, False
    label = _LABEL.match(text)
    for m in _TOKEN.finditer(text, label.end() if label else 0):
        kind = m.lastgroup
        raw = m.group()
        if kind == "stop":
            start = True
            continue
        if kind == "time":
            tokens.append(Token(raw, _clock(raw), False, start, "time"))
        elif kind == "num":
            digits, unit = _norm_number(raw)
            tokens.append(Token(raw, digits, False, start, "num"))
            if unit:
                tokens.append(Token(unit, unit, False, False, "word"))
        elif kind == "sym":
            tokens.append(Token(raw, _UNITS[raw], raw == "&", start, "word"))
        else:
            tokens.extend(_word_tokens(raw, start))
            spelled = spelled or raw.lower() in _SPELLED_RUN
        start = False
    return tuple(_merge_spelled(tokens) if spelled else tokens)


#: Reads a text's features from what was kept between processes, or by the second
#: argument (``dream/word_memo.py`` sets one while a dream plans).
FeatureKeeper = Callable[[str, Callable[[str], frozenset[str]]], frozenset[str]]
FEATURE_KEEPER: ContextVar[FeatureKeeper | None] = ContextVar("dreamgit_features", default=None)


@lru_cache(maxsize=1 << 17)
def features(text: str) -> frozenset[str]:
    """The set of canonical content words of a text (what similarity compares)."""
    keeper = FEATURE_KEEPER.get()
    return _features(text) if keeper is None else keeper(text, _features)


def _features(text: str) -> frozenset[str]:
    return frozenset(t.norm for t in tokenize(text) if not t.stop)


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    """Jaccard index of two collections taken as sets: intersection over union (1.0 if empty)."""
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice coefficient of two sets: twice the intersection over the sum of sizes (1.0 if empty)."""
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def similarity(a: str, b: str) -> float:
    """Similarity of two texts in [0, 1]: Dice overlap of their content words.

    Texts without any content word are similar only when their words are the same.
    """
    fa, fb = features(a), features(b)
    if not fa or not fb:
        same = [t.norm for t in tokenize(a)] == [t.norm for t in tokenize(b)]
        return 1.0 if same and not fa and not fb else 0.0
    return dice(fa, fb)


#: Where a token may span whitespace: a time written ``10 am`` (one space, then a or p).
_SPANNING_TIME = re.compile(r"\d\s[ap]", re.IGNORECASE)
#: The non-stop norms of chunks of text between whitespace, each read once (bounded).
_CHUNK_NORMS: dict[str, tuple[str, ...] | None] = {}
_CHUNKS_KEPT = 1 << 17
_UNSEEN = ("",)  # a memo's miss, told by identity
#: The letter runs of a chunk, for telling a number word in it.
_LETTERS = re.compile(r"[^\W\d_]+")
#: A chunk that is one whole number between brackets, quotes or closing punctuation
#: ("(fact 4411)." holds ``4411).``): tokenize reads its digits as one number token whose
#: norm is the digits, and nothing else in it (no unit follows, no decimal part, no time),
#: so its norms are the digits. At 100,000 memories most unseen chunks are such numbers:
#: read through tokenize they cost ~1.5 s of a first build's ~2.6 s of tokenizing.
_PLAIN_NUMBER = re.compile(r"[(\[\"']?(\d+)[)\]\"'.,;:!?]*")


def content_norms(text: str) -> list[str]:
    """The norms of ``text``'s non-stop tokens in order: what :func:`tokenize` gives, read
    chunk by chunk (between whitespace) through a memo of each chunk's norms.

    Building the recall index of 100,000 memories tokenized each text whole (~25 us a
    memory); words repeat across memories, texts do not. No token spans whitespace but a
    time written ``10 am``, a leading label (``Note :``) and a run of spelled numbers
    (``twenty five``): a text that may hold one, or a chunk that holds a label or a
    number word, is tokenized whole as before, so the answer is always tokenize's.
    """
    if _SPANNING_TIME.search(text) or _LABEL.match(text):
        return _whole_norms(text)
    out: list[str] = []
    memo = _CHUNK_NORMS
    for chunk in text.split():
        norms = memo.get(chunk, _UNSEEN)
        if norms is _UNSEEN:
            number = _PLAIN_NUMBER.fullmatch(chunk)
            if number is not None:  # read at once, and not kept: numbers seldom repeat
                out.append(number[1])
                continue
            norms = _chunk_norms(chunk)
            if len(memo) < _CHUNKS_KEPT:
                memo[chunk] = norms
        if norms is None:
            return _whole_norms(text)
        out.extend(norms)
    return out


def _chunk_norms(chunk: str) -> tuple[str, ...] | None:
    """The non-stop norms of one chunk, or None when it may read otherwise inside a text
    (a label, or a word a spelled number is made of)."""
    if _LABEL.match(chunk):
        return None
    if any(word in _SMALL or word in _SCALES for word in _LETTERS.findall(chunk.lower())):
        return None
    # Not through tokenize's cache of texts: chunks would crowd the texts out of it.
    return tuple(t.norm for t in tokenize.__wrapped__(chunk) if not t.stop)


def _whole_norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text) if not t.stop]
