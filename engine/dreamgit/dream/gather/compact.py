"""Compact by default: what a run's sessions may add, and who the user is known to be.

Sessions give many candidate statements; the rules' ``gather_chars_ratio``
(about a tenth by default) caps the characters of new memory text, and the
sessions of one run share that budget. Who the user is (their name, where they
live, their role) and how they want the agent to work are taken first, then what
changed, then the rest by salience per character, highest first (explicit
statements a pattern recognised rank above the rest, corrections above small
talk). A candidate that repeats what memory says is left out; what does not fit
is recorded, not kept. The candidates keep their order.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from itertools import chain, compress

from dreamgit import lazyre
from dreamgit.dream.gather.dates import as_dated
from dreamgit.dream.gather.sharing import CONTENT_HOLDERS, holders
from dreamgit.dream.gather.words import lower_content_terms
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.speakers import USER
from dreamgit.model import Memory
from dreamgit.textsim import STOP_WORDS

__all__ = ["WORDS_KEEPER", "compact", "content_words", "known_user_name", "normalized"]

_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
#: Longer words that only join a statement: "over" in "prefers X over Y" is no news.
_GLUE = frozenset(
    str.split("""over under after before around through during without within again once
    only each same both into onto upon until because while among against toward towards
    across along""")
)
#: Verbs that say something happened, not what: two statements that "went" somewhere or
#: "started" something share no news by them.
_GLUE_VERBS = frozenset(
    str.split("""went going goe gone took taking take taken started starting start tried
    trying trie found finding find getting doing having making love loving loved enjoy
    enjoying enjoyed like liking liked prefer preferring preferred using used""")
)
#: "the week before 2 May 2022": the words around a date are part of it.
_DATE_FRAME = lazyre.compile(
    r"\b(?:week|weekend|night|morning|afternoon|evening)\s+(?:before|after|of)\s+(?=\d)", re.I
)
_NUMBER = lazyre.compile(r"\d+(?:[.,]\d+)*")
_DIGIT = lazyre.compile(r"\d")
_NAME_IS = lazyre.compile(r"\bname is (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\.?$")


#: A date as memories write it: "14 July 2023", "July 2023", "summer 2022".
_DATE = lazyre.compile(
    r"\b(?:(?:\d{1,2}\s+)?(?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december)|spring|summer|autumn|fall|winter)\s+\d{4}(?:-\d{2})?\b",
    re.IGNORECASE,
)
#: Short words that say something ("pie", "cat", "gym"), unless they are glue.
_SHORT = lazyre.compile(r"\b[a-z]{3}\b")
_SHORT_GLUE = frozenset(
    str.split("""one two new way day lot bit far off yes yet let say see saw put try use got get
    has had may can did its who why how too all any out own few big old bad fun sad ago""")
)
#: A year, which every date of ``_DATE`` holds.
_YEAR = lazyre.compile(r"\d{4}")
#: What is not a content word, of the longer words and of the short ones.
_NOT_CONTENT = _MONTHS | _GLUE | _GLUE_VERBS
_NOT_SHORT = STOP_WORDS | _SHORT_GLUE


#: Reads a text's content words from what was kept between processes, or by the second
#: argument (``dream/word_memo.py`` sets one while a dream plans).
WordsKeeper = Callable[[str, Callable[[str], set[str]]], set[str]]
WORDS_KEEPER: ContextVar[WordsKeeper | None] = ContextVar("dreamgit_content_words", default=None)


def content_words(text: str) -> set[str]:
    """The words of ``text`` that carry content, lower case, plural "s" dropped; numbers
    count (a new value is new content), and a date is one word ("14-july-2023")."""
    keeper = WORDS_KEEPER.get()
    return _content_words(text) if keeper is None else keeper(text, _content_words)


def _content_words(text: str) -> set[str]:
    # dates, date frames, weekdays beside their dates and numbers all hold a digit: a text
    # without one (most memories) is read without them, the same words sooner
    if _DIGIT.search(text) is None:
        return _words(text)
    text = as_dated(text)  # "last Friday (5 May 2023)" says what "on 5 May 2023" says
    # every date holds a year: a text without four digits in a row (five in six of the
    # texts with a digit, at 100,000 memories) has none, and the date pattern's scans
    # of it, a quarter of a cold dream's content words, are skipped
    dated = _YEAR.search(text) is not None
    dates = {"-".join(m.group().lower().split()) for m in _DATE.finditer(text)} if dated else ()
    text = _DATE_FRAME.sub(" ", text)
    if dated:
        text = _DATE.sub(" ", text)
    words = _words(text)
    words.update(_NUMBER.findall(text), dates)
    return words


def _words(text: str) -> set[str]:
    """The content words of ``text`` that are words (neither numbers nor dates); an ASCII
    text's read chunk by chunk (between whitespace) through a memo of each chunk's words.

    In ASCII a word is letters between characters that are not word characters, as
    whitespace is not: no word spans it, and one at a chunk's edge reads as beside a
    space. Words repeat across memories, texts do not (at 100,000: 0.72 -> 0.41 s).
    """
    if not text.isascii():
        return _text_words(text)
    words: set[str] = set()
    memo = _CHUNK_WORDS
    for chunk in text.split():
        found = memo.get(chunk)
        if found is None:
            found = frozenset(_text_words(chunk))
            # not a chunk with a digit: a fact's own numbers would crowd out the words
            if len(memo) < _CHUNKS_KEPT and _DIGIT.search(chunk) is None:
                memo[chunk] = found
        words.update(found)
    return words


#: The words of chunks of ASCII text (:func:`_words`), each read once, at most this many.
_CHUNK_WORDS: dict[str, frozenset[str]] = {}
_CHUNKS_KEPT = 1 << 17


def _text_words(text: str) -> set[str]:
    """:func:`_words` of a whole text, by its patterns."""
    low = text.lower()
    words = {w.rstrip("s") for w in lower_content_terms(text)} - _NOT_CONTENT
    words.update(set(_SHORT.findall(low)) - _NOT_SHORT)
    return words


def compact(
    candidates: Sequence[Candidate],
    budget_chars: float,
    known: Iterable[str] = (),
    *,
    min_novelty: float = 0.0,
    said_before: Iterable[str] = (),
) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
    """(kept, over budget, repeats): the most salient candidates within ``budget_chars``
    characters, those the budget had no room for, and those that say what is known.

    ``known`` holds the texts memory already has. A candidate repeats what is known,
    and is left out so that the budget goes to new facts, when one known text or
    kept candidate holds most of its content words, or when memory as a whole holds
    all but ``min_novelty`` of them; a count no known text holds is news all the
    same (a long chat about one project knows its words). A candidate that says again exactly what a
    memory says (``said_before``, texts as :func:`normalized` gives them) or what a
    kept candidate says is kept outside the budget: it reinforces. The lists keep
    the candidates' order.
    """
    # Whom a candidate is about is no news: "Dana" or "user" is in every memory about Dana;
    # nor are the words that report who said it ("says" of "The user says …").
    subjects = [_subject_words(c.subject) | content_words(c.attribution) for c in candidates]
    worded = [
        content_words(c.text) - subject for c, subject in zip(candidates, subjects, strict=True)
    ]
    # Only a known text that shares a word with some candidate can be the closest to one
    # or hold one's word: which known texts hold each candidate word is asked (of the kept
    # index in a dream, ``sharing.py``), in their order, so every answer is the same, and
    # a known text's words are read only when it is the closest to a candidate (of
    # 100,000 memories, most share no word and a third share some).
    asked = set().union(*worded)
    texts = known if isinstance(known, Sequence) else list(known)
    index = _Overlaps(holders(texts, asked, content_words, CONTENT_HOLDERS), texts)
    said_texts = set(said_before)
    # Who the user is ("The user's name is James", where they live, their role) and how
    # they want the agent to work go first, then what changed ("switched from Flask to
    # FastAPI"): the rest of the budget is for everything else. A change is always news,
    # and the run's other statements are not checked against it: the older value it
    # names ("uses Flask") is no repeat.
    changes = [_changes(c) for c in candidates]
    order = sorted(
        range(len(candidates)),
        key=lambda k: (not _about_user(candidates[k]), not changes[k], -_density(candidates[k]), k),
    )
    used = 0
    kept: set[int] = set()
    repeats: set[int] = set()
    for k in order:
        candidate, subject, words = candidates[k], subjects[k], worded[k]
        said = normalized(candidate.text, (candidate.subject,))
        new = index.new(words)
        if not new and said in said_texts:
            kept.add(k)  # said again: it reinforces what is known and costs nothing
            continue
        # a weekday kept as said beside its date costs what the date alone would
        size = len(as_dated(candidate.text))
        shared, closest = index.closest(words)
        # another value for what a memory says: it takes that memory's place, not more
        closest -= subject
        update = (
            (len(new) >= min_novelty * len(words) and _new_value(candidate.text, words, closest))
            or _ends(candidate.text, words, closest)
            or _new_count(candidate.text, closest)
        )
        news = changes[k] or _news(candidate, words, new, (shared, closest), min_novelty)
        if not news and not update:
            repeats.add(k)
            continue
        if used + size > budget_chars and kept and not update:
            continue
        if not changes[k]:
            index.add(words)
        said_texts.add(said)
        kept.add(k)
        used += 0 if update else size
    inside = [c for k, c in enumerate(candidates) if k in kept]
    over = [c for k, c in enumerate(candidates) if k not in kept and k not in repeats]
    return inside, over, [c for k, c in enumerate(candidates) if k in repeats]


#: A statement is a repeat when one memory holds more than this share of its words.
_REPEAT_SHARE = 0.35
#: … and a rule or preference of the user's when one memory holds more than this share.
_RULE_REPEAT_SHARE = 0.7


#: A rule or decision is not a repeat of the memory nearest it when that memory has this
#: many words it lacks, and it has one the memory lacks: the same frame, another object.
_SIBLING_WORDS = 2


#: A number that counts or measures ("52", "4700", "12.99"), not a year or a date.
_COUNTED = lazyre.compile(r"(?!(?:19|20)\d\d$)\d[\d.,]*")


def _news(
    candidate: Candidate,
    words: set[str],
    new: set[str],
    closest: tuple[int, set[str]],
    min_novelty: float,
) -> bool:
    """Whether a statement that changes nothing is news; a keyed fact always is.
    ``closest`` is how many of ``words`` the known text sharing most of them holds, and
    that text's words."""
    shared, held = closest
    if candidate.key is not None:
        return True
    if not words:
        return False  # "tried making one", "loved the experience": nothing to tell
    if any(_COUNTED.fullmatch(word) for word in new):
        return True  # a number memory has nowhere is news, whatever words it shares
    if _about_user(candidate) or candidate.kind == "decision":
        # how the user wants the agent to work, or what they decided, shares its topic's
        # words with facts about that topic ("always show the exit code" beside "the build
        # exits with code 3"): it repeats only what says most of it, and another of its
        # words is news enough; so is a rule of the same frame with another object than
        # the memory's ("the deploy job should read the tag, never the branch" beside
        # "the deploy job must read the commit hash from CI, never the branch"): each has
        # a word the other lacks, the memory a few
        sibling = bool(words - held) and len(held - words) >= _SIBLING_WORDS
        return sibling or shared <= _RULE_REPEAT_SHARE * len(words)
    return shared <= _REPEAT_SHARE * len(words) and len(new) >= min_novelty * len(words)


#: A value a statement gives: a name ("Arctic Monkeys", not a sentence's first word) or
#: a number ("5,000").
_VALUE = lazyre.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z][\w'-]*|" + _NUMBER.pattern)


def _new_value(text: str, words: set[str], closest: set[str]) -> bool:
    """Whether ``text`` gives another value in the slot of the memory whose words are
    ``closest``: "These days my favourite band is Arctic Monkeys" after "… is Muse".
    A name or number of it is new to that memory, every other word is that memory's
    (at most one more), and that memory has a word or two (its value) ``text`` has not.
    Such a statement is an update, not a repeat; consolidation then retires the older."""
    values = set()
    for m in _VALUE.finditer(_DATE.sub(" ", text)):
        word = m.group().lower()
        values.add(word if word[0].isdigit() else word.rstrip("s"))
    values = (values & words) - _MONTHS
    replaced = closest - words  # the older value: "muse"
    return bool(values - closest) and len(words - values - closest) <= 1 and 0 < len(replaced) <= 2


#: A count and what it counts: "14 plugins", "300 requests", "9 people".
_COUNT = lazyre.compile(r"\b(\d[\d,.]*)\s*(%|[a-z][a-z-]+)", re.I)


def _new_count(text: str, closest: set[str]) -> bool:
    """Whether ``text`` gives another count of a thing the memory whose words are
    ``closest`` counts: "installed 14 plugins in the editor" after "… has 9 plugins".
    The count is news, not a repeat of the memory that holds the older one."""
    held = {w for w in closest if w[:1].isdigit()}
    if not held:
        return False
    for m in _COUNT.finditer(_DATE.sub(" ", text)):
        number, noun = m.group(1).rstrip(".,"), m.group(2).lower().rstrip("s")
        if number not in closest and noun in closest and held - {number}:
            return True
    return False


#: "finished", "quit", "no longer": a statement that ends what it names.
_ENDING = lazyre.compile(
    r"\b(?<!never\s)(?<!not\s)(?:finished|quit|stopped|ended(?!\s+up)|no\s+longer|gave\s+up)\b",
    re.I,
)


def _ends(text: str, words: set[str], closest: set[str]) -> bool:
    """Whether ``text`` ends what the memory whose words are ``closest`` says: "finished
    TAing" after "is TAing for the intro class". Nothing but its ending verb is new."""
    return _ENDING.search(text) is not None and bool(words & closest) and len(words - closest) <= 1


class _Overlaps:
    """Word sets: which words any of them holds, and the most one of them shares with another.

    The first sets are the ``known`` texts' content words, of which ``holders`` (for each
    word some known text holds, their positions) is all that is asked: a known text's set
    is read when it is the closest to a statement, and kept (the caller may change it)."""

    def __init__(self, holders: dict[str, list[int]], known: Sequence[str]) -> None:
        self._holders = holders
        self._known = known
        self._sets: dict[int, set[str]] = {}
        self._count = len(known)

    def add(self, words: set[str]) -> None:
        number, self._count = self._count, self._count + 1
        for word in words:
            self._holders.setdefault(word, []).append(number)
        self._sets[number] = words

    def closest(self, words: set[str]) -> tuple[int, set[str]]:
        """How many of ``words`` the set sharing most of them holds, and that set's words
        (the latest of equals); (0, empty) when none shares any. One pass serves both the
        repeat check (how many) and the new-value check (which words)."""
        holders = self._holders
        # counted in C (a Counter of the chained lists): 351 calls over 33,000 known sets
        # counted 1.2 million holders one by one, a third of gathering at 100,000
        shared = Counter(chain.from_iterable(holders[w] for w in words if w in holders))
        if not shared:
            return 0, set()
        most = max(shared.values())
        # the latest set holding that many, picked in C (a generator over the thousands
        # of sets sharing a word was two thirds of this at 100,000)
        best = max(compress(shared, map(most.__eq__, shared.values())))
        found = self._sets.get(best)
        if found is None:
            found = self._sets[best] = content_words(self._known[best])
        return most, found

    def new(self, words: set[str]) -> set[str]:
        return {word for word in words if word not in self._holders}


def normalized(text: str, subjects: Iterable[str | None] = ()) -> str:
    """``text`` as lower-case words without its leading subject (one of ``subjects`` or
    "The user"), for telling a repeat from a new statement."""
    for subject in ("The user", *subjects):
        if not subject or not text.startswith(subject):
            continue  # most texts start with none: no lead is built for them (10,000 a run)
        for lead in (f"{subject}'s ", f"{subject}' ", f"{subject} "):
            if text.startswith(lead):
                text = text[len(lead) :]
                break
    return " ".join(_WORD.findall(text.lower()))


_WORD = re.compile(r"[a-z0-9]+")


def known_user_name(memories: Iterable[Memory]) -> str | None:
    """The user's name when an active memory says it (key ``user.name``), else None."""
    for memory in memories:
        if memory.key == "user.name":
            m = _NAME_IS.search(memory.text.strip())
            if m is not None:
                return m["name"].split()[0]
    return None


def _subject_words(subject: str | None) -> set[str]:
    """The words naming a statement's subject, as :func:`content_words` writes them."""
    return {"user", *(w.lower().rstrip("s") for w in (subject or "").split())}


#: "is switching from DeepSpeed to FSDP", "moved from Porto to Lisbon", "migrating fully to
#: GCP", "decided to drop the Switch version": a change, in words.
_FROM_TO = lazyre.compile(
    r"\b(?:switch|migrat|mov|chang|upgrad|pivot)\w*\s+(?:\w+\s+){0,3}?from\s+\S.*?\s+to\s+\S"
    r"|\b(?:switch|migrat)\w*\s+(?:\w+\s+){0,2}?to\s+\S"
    r"|\bdecided\s+to\s+(?:drop|quit|stop|cancel)\b"
    # "moved the evening digest to 20:15", "pushed the launch to 5 June": a new number or day
    r"|\b(?:mov|chang|push|postpon|reschedul|bump|rais|lower|increas|decreas|adjust|extend"
    r"|shift)ed\s+(?:\w+\s+){0,4}?to\s+(?:\w+\s+){0,2}?[$\u20ac\u00a3]?\d",
    re.I,
)


def _about_user(candidate: Candidate) -> bool:
    """Whether ``candidate`` says who the user is (``user.name``, ``user.home``) or how they
    want the agent to work ("keep explanations short")."""
    if (candidate.key or "").startswith("user.") or candidate.kind == "instruction":
        return True
    if candidate.kind == "preference" and candidate.speaker == USER:
        return True  # an agent's user's preference shapes how the agent works for them
    # "… always prefers when the agent gives them numbered lists": how the agent should work
    return candidate.kind == "preference" and "the agent" in candidate.text


#: "is now covering 200 endpoints", "at 11 people as of 8 May 2023" (said "currently"), "is
#: at 6 people now": a count said to hold now (not a length of time: "for 3 years now").
_NOW_NUMBER = lazyre.compile(
    r"\b(?:now|currently)\s+(?:[a-z]+\s+){0,3}?\d"
    r"|\d[\d,.]*\s+(?!(?:years?|months?|weeks?|days?|hours?|minutes?)\b)[a-z]+\s+now\b"
    r"|\bat\s+\d[\d,.]*\s+[a-z]+\s+as\s+of\s+\d",
    re.I,
)


def _changes(candidate: Candidate) -> bool:
    """A correction or change restates a fact with a new value: never a mere repeat."""
    return (
        candidate.kind == "correction"
        or candidate.change is not None
        or _FROM_TO.search(candidate.text) is not None
        or _NOW_NUMBER.search(candidate.text) is not None
    )


def _density(candidate: Candidate) -> float:
    """Salience per character, softened: a short clause that says as much goes first."""
    return float(candidate.salience / max(len(candidate.text), 20) ** 0.25)
