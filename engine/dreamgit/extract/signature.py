"""The signature of a memory text: what must agree before it merges with another.

Word overlap cannot tell "prefers X" from "does not prefer X", Python 3.11 from 3.12
or Flask from FastAPI. A signature records, for one text, its negation cues and
antonyms, what its comparisons put first and second ("pytest over unittest"), its
numbers, dates and times, its name-like words (capitalised, identifiers, well-known
tools), and where each content word stands. ``guards.py`` compares two signatures.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from dreamgit.textsim import NOT, STOP_WORDS, Token, canonical_word, features, tokenize

__all__ = ["ANTONYMS", "Signature", "neighbours", "numbers_and_dates", "shown", "signature"]


def _norms(words: str) -> frozenset[str]:
    return frozenset(canonical_word(w) for w in words.split())


# Verbs that negate what follows: "stopped using X" is the opposite of "uses X".
_NEGATIVE = _norms("stop quit avoid refuse dislike hate abandon drop ditch") | {NOT}
ANTONYMS: tuple[tuple[str, str], ...] = tuple(
    (canonical_word(a), canonical_word(b))
    for a, b in (
        ("enable", "disable"), ("allow", "forbid"), ("allow", "deny"), ("allow", "block"),
        ("accept", "reject"), ("include", "exclude"), ("add", "remove"), ("on", "off"),
        ("true", "false"), ("increase", "decrease"), ("more", "less"),
        ("more", "fewer"), ("before", "after"), ("early", "late"), ("public", "private"),
        ("light", "dark"), ("min", "max"), ("minimum", "maximum"), ("start", "finish"),
        ("win", "lose"), ("pass", "fail"), ("success", "failure"), ("love", "hate"),
        ("sync", "async"), ("synchronous", "asynchronous"), ("open", "closed"),
        ("upper", "lower"), ("old", "new"), ("oldest", "newest"), ("local", "remote"),
    )
)  # fmt: skip
# Words that open a note without naming anything: labels ("Note: ...") and the verbs
# that start instructions ("Keep pull requests small", "Use uv").
_NOT_OPENERS = _NEGATIVE | _norms(
    """note fyi btw reminder remember update important context tip nb keep use ask check run
    make add remove write read contact call send follow try start let put set prefer like want
    need always only every each per before after when while if since until please go open
    close test deploy review merge push pull commit install build code data"""
)
# Acronyms for kinds of things, not names of things: "runs CI" is no proper noun.
_GENERIC_ACRONYMS = _norms(
    """api ci cd pr prs mr ui ux db os cli sdk sql http https json yaml csv url ssh tls ssl dns
    cpu gpu ram ssd hdd vm ide qa sla slo sre ops devops faq tbd todo eta etl ml ai llm"""
)
_PREFER = canonical_word("prefer")
# Stop words keep their lower-case form as norm, so these find the direction markers.
_MARKER_WORDS = frozenset(["over", "than", "instead", "rather", "from", "to"])
_ANTONYM_WORDS = frozenset(w for pair in ANTONYMS for w in pair)
_DIRECTION_MARKERS = frozenset(["over", "than", "instead", "rather"])
_NOT_ENDPOINTS = _norms("more less better worse rather instead prefer") | {NOT}

_MONTHS: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july")
_MONTHS += ("august", "september", "october", "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ABBREVIATIONS = {
    **{m[:3].title(): m for m in _MONTHS if m != "may"},
    "Sept": "september",
    **{d[:3].title(): d for d in _WEEKDAYS},
    "Tues": "tuesday", "Thur": "thursday", "Thurs": "thursday",
}  # fmt: skip
_DATE_WORDS = _norms(
    " ".join(m for m in _MONTHS if m != "may")
    + " "
    + " ".join(_WEEKDAYS)
    + " today tomorrow yesterday tonight morning afternoon evening night weekend weekday"
    " noon midnight daily weekly biweekly fortnightly monthly quarterly yearly annually"
    " hourly spring summer autumn winter"
)
#: The canonical words that may be a date: any other word is one only as an abbreviation.
_DATE_NORMS = _DATE_WORDS | {"may"}

# Product and tool names usually written in lower case; capitalised names need no list.
_KNOWN_NAMES = _norms(
    """pytest unittest nose tox nox pip pipx poetry uv conda pyenv virtualenv npm yarn pnpm bun
    deno node vim neovim nvim emacs vscode nano tmux zsh bash fish git ruff flake8 mypy pyright
    pylint isort eslint prettier jest vitest mocha cypress playwright selenium cargo rustup
    docker podman kubectl kubernetes helm terraform ansible nginx redis postgres mysql mariadb
    sqlite mongodb kafka rabbitmq celery django flask fastapi react vue svelte angular nextjs
    tailwind webpack vite esbuild babel typescript javascript python rust java kotlin swift ruby
    rails php perl scala haskell elixir erlang clojure julia lua zig numpy pandas polars pytorch
    tensorflow jax scipy matplotlib jupyter linux ubuntu debian fedora macos windows ios android
    aws gcp azure heroku vercel netlify github gitlab bitbucket jira slack discord zoom teams
    notion obsidian figma chrome firefox safari curl wget jq grep sed awk cmake bazel gradle
    maven rustfmt gofmt ktlint clang-format sentry grafana prometheus datadog elasticsearch
    opensearch snowflake bigquery airflow dbt spark hadoop graphql grpc protobuf json yaml toml
    markdown latex htmx jquery bootstrap"""
)


@dataclass(frozen=True)
class Signature:
    """What must agree between two texts for them to merge."""

    features: frozenset[str]
    text: str
    antonyms: frozenset[str]  # words that have an antonym in the table
    negations: tuple[str, ...]  # surface words of negation cues, in order
    numbers: frozenset[str]
    dates: frozenset[str]
    names: frozenset[str]  # name-like norms
    openers: frozenset[str]  # capitalised first words: names unless the other text has them
    directions: frozenset[tuple[frozenset[str], frozenset[str]]]
    #: its names and openers that are among its features, and its names that are not:
    #: what a pair's name check needs of each text (``guards.py``), made once per text
    present_names: frozenset[str]
    absent_names: frozenset[str]


def _is_month_may(tokens: tuple[Token, ...], i: int) -> bool:
    """Whether "may" is the month: next to a number, or capitalised inside a sentence."""
    near_number = any(0 <= j < len(tokens) and tokens[j].kind == "num" for j in (i - 1, i + 1))
    return near_number or (tokens[i].text == "May" and not tokens[i].start)


def _static_date(t: Token) -> str | None:
    if t.kind == "time" or (t.kind == "num" and any(c in t.norm for c in ":-/")):
        return t.norm
    if t.text in _ABBREVIATIONS:
        return _ABBREVIATIONS[t.text]
    if t.kind == "word" and t.norm in _DATE_WORDS:
        return t.norm
    return None


def _is_name(t: Token) -> bool:
    if t.stop or t.kind != "word" or t.norm == NOT:
        return False
    if t.norm in _KNOWN_NAMES:
        return True
    if t.norm in _GENERIC_ACRONYMS:
        return False
    if "-" in t.text and not any(part in STOP_WORDS for part in t.text.lower().split("-")):
        return True  # identifiers such as billing-service or eu-west-1, not "on-call"
    if any(c in t.text for c in "._/+#") or (
        any(c.isdigit() for c in t.text) and any(c.isalpha() for c in t.text)
    ):
        return True
    return not t.start and t.text != t.text.lower()


def _content_run(tokens: tuple[Token, ...], start: int, step: int) -> frozenset[str]:
    """Up to two content words next to position ``start`` going ``step`` (a name such
    as "Swagger UI" has two), skipping stop words before the first one."""
    run: list[str] = []
    i = start
    while 0 <= i < len(tokens) and len(run) < 2:
        t = tokens[i]
        skip = t.stop or t.norm in _NOT_ENDPOINTS
        if run and (skip or (step > 0 and t.start)):
            break
        if not skip:
            run.append(t.norm)
            if t.start and step < 0:
                break
        i += step
    return frozenset(run)


Direction = tuple[frozenset[str], frozenset[str]]


def _directions(tokens: tuple[Token, ...]) -> frozenset[Direction]:
    """What a comparison or change puts first and second: ({pytest}, {unittest}) in
    "pytest over unittest", "prefers pytest to unittest", "from pytest to unittest"
    and "to unittest from pytest"."""
    found: set[Direction] = set()
    preferring = False  # "prefers X to Y" compares like "X over Y"
    lows = [t.text.lower() for t in tokens]
    for i, t in enumerate(tokens):
        low = lows[i]
        preferring = (preferring and not t.start) or t.norm == _PREFER
        if low in _DIRECTION_MARKERS or (low == "to" and preferring):
            first, second = _content_run(tokens, i - 1, -1), _content_run(tokens, i + 1, 1)
        elif low == "from":
            first = _content_run(tokens, i + 1, 1)
            after = next((j for j in range(i + 1, len(tokens)) if lows[j] in ("to", "into")), None)
            before = next((j for j in range(i - 1, -1, -1) if lows[j] in ("to", "into")), None)
            to = after if after is not None else before
            second = frozenset() if to is None else _content_run(tokens, to + 1, 1)
        else:
            continue
        if first and second and first != second:
            found.add((first, second))
    return frozenset(found)


@lru_cache(maxsize=1 << 10)
def neighbours(text: str) -> dict[str, tuple[str | None, str | None]]:
    """Each content word of a text and the content words just before and after it."""
    content = [t.norm for t in tokenize(text) if not t.stop]
    return {
        w: (content[i - 1] if i else None, content[i + 1] if i + 1 < len(content) else None)
        for i, w in enumerate(content)
    }


@lru_cache(maxsize=1 << 10)
def shown(text: str) -> dict[str, str]:
    """How each canonical word (or date) was written in a text, for messages."""
    tokens = tokenize(text)
    written: dict[str, str] = {}
    for i, t in enumerate(tokens):
        written.setdefault(t.norm, t.text)
        date = _token_kind(t)[1] or (
            "may" if t.norm == "may" and _is_month_may(tokens, i) else None
        )
        if date is not None:
            written.setdefault(date, t.text)
    return written


# What a token is, by itself: negation, date, number, name, opening word (or none).
_Kind = tuple[bool, str | None, bool, bool, bool]


@lru_cache(maxsize=1 << 16)
def _token_kind(t: Token) -> _Kind:
    """Tokens repeat across texts (they are cached per word), so this is cached too."""
    date = _static_date(t)
    number = t.kind == "num"
    name = date is None and not number and _is_name(t)
    opener = (
        date is None
        and not number
        and not name
        and t.start
        and not t.stop
        and t.text[:1].isupper()
        and t.norm not in _NOT_OPENERS
    )
    return t.norm in _NEGATIVE, date, number, name, opener


def numbers_and_dates(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The numbers and the dates of a text as its :func:`signature` has them, without the
    rest of it: the frame reader wants these alone, once for each sentence (at a third of
    a signature's cost, and no signature held in the cache for them)."""
    tokens = tokenize(text)
    if _only_words(tokens):
        return _NEITHER
    numbers: set[str] = set()
    dates: set[str] = set()
    for i, t in enumerate(tokens):
        if t.kind == "word" and t.norm not in _DATE_NORMS and t.text not in _ABBREVIATIONS:
            continue  # most words: neither a date nor a number (what _token_kind says)
        month = t.norm == "may" and _is_month_may(tokens, i)
        date = "may" if month else _token_kind(t)[1]
        if date is not None:
            dates.add(date)
        elif t.kind == "num":
            numbers.add(t.norm)
    return frozenset(numbers), frozenset(dates)


_NEITHER: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
_WORD_KIND = frozenset({"word"})
_KIND, _NORM, _TEXT = attrgetter("kind"), attrgetter("norm"), attrgetter("text")


def _only_words(tokens: tuple[Token, ...]) -> bool:
    """Whether ``tokens`` are all words that can be no date (most sentences: no number
    either): the test :func:`numbers_and_dates` makes of each token, in three passes in C."""
    return (
        _DATE_NORMS.isdisjoint(map(_NORM, tokens))
        and _ABBREVIATIONS.keys().isdisjoint(map(_TEXT, tokens))
        and _WORD_KIND.issuperset(map(_KIND, tokens))
    )


@lru_cache(maxsize=1 << 16)
def signature(text: str) -> Signature:
    """The signature of a text (cached: the duplicate finder asks for it per pair)."""
    tokens = tokenize(text)
    numbers: set[str] = set()
    dates: set[str] = set()
    names: set[str] = set()
    openers: set[str] = set()
    negations: list[str] = []
    for i, t in enumerate(tokens):
        negation, date, number, name, opener = _token_kind(t)
        if t.norm == "may" and _is_month_may(tokens, i):
            date, opener = "may", False
        if negation:
            negations.append(t.text)
        if date is not None:
            dates.add(date)
        if number and date is None:  # "15:00" is a time, like "3pm", not a count
            numbers.add(t.norm)
        elif name:
            names.add(t.norm)
        elif opener:
            openers.add(t.norm)
    words = {t.norm for t in tokens}
    feats = features(text)
    return Signature(
        features=feats,
        text=text,
        antonyms=frozenset(words & _ANTONYM_WORDS),
        negations=tuple(negations),
        numbers=frozenset(numbers),
        dates=frozenset(dates),
        names=frozenset(names),
        openers=frozenset(openers),
        directions=_directions(tokens) if words & _MARKER_WORDS else frozenset(),
        present_names=feats & (names | openers),
        absent_names=frozenset(names.difference(feats)),
    )
