"""What a memory sentence is about: its subject, its relation and its value.

A memory is one sentence that names its subject first ("Caroline's grandmother gave
her a necklace from Sweden."; "The user's team is on Python 3.11.") or, in older
stores, leaves the user implicit ("Prefers pytest over unittest."). :func:`parse_frame`
splits such a sentence without a tagger: the **subject** is the words before the verb
group (``user`` when the sentence opens with its verb), the **relation** is the main
verb's canonical form and the preposition right after it (``be on``, ``live in``,
``report``, ``depend on``), and the **value** is what follows, split into the object
and its qualifier phrases; a correction's rejected alternative (", not 3.12") is kept
apart. Word lists (``verbs.py``) tell verbs from nouns; a verb right after a determiner
is a noun ("the tests"), a capitalised word inside a sentence is a name. A sentence the
parser cannot read has no frame (None), and callers fall back to their other checks.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from sys import intern

from dreamgit.extract.frame_tokens import Tok, sentence_tokens
from dreamgit.extract.shared_sets import shared
from dreamgit.extract.signature import numbers_and_dates
from dreamgit.extract.verbs import (
    AUXILIARIES,
    BE_FORMS,
    CHANGE_VERBS,
    DATE_WORDS,
    DETERMINERS,
    FRONT_WORDS,
    GROUP_ADVERBS,
    HAVE_FORMS,
    NUMBER_WORDS,
    PAST_FORMS,
    PREPOSITIONS,
)
from dreamgit.textsim import canonical_word

__all__ = ["KEEPER", "Frame", "FrameKeeper", "parse_frame"]

_BE = "be"
_HAVE = "have"
#: Words that start the rejected side of a correction ("3.11, not 3.12"; "rather than X").
_REJECT = frozenset({"not", "rather", "instead"})
#: What "prefers X to Y" may say instead of "over".
_COMPARE = frozenset({"to", "over", "than"})
#: Determiners that make an object one instance among many ("has a dentist appointment").
_INDEFINITE = frozenset({"a", "an", "another", "some", "one"})
#: Words of a value that say when it holds, not what it is ("… now", "… anymore").
_NOT_VALUE = frozenset({"and", "or", "'s", "also", "now", "currently", "anymore"})
#: Verbs after which an "-ing" word is a noun: "the board meeting got pushed", "… moved".
_MOVED_BY = CHANGE_VERBS | {"get"}
#: Words of the verb group that may stand before its verb ("no longer uses", "now lives").
_BEFORE_VERB = GROUP_ADVERBS | {"longer"}


@dataclass(frozen=True)
class Frame:
    """Subject, relation and value of one memory sentence (canonical word forms)."""

    subject: frozenset[str]
    head: str  #: the main verb, canonical ("be", "have", "live", "report")
    particle: str  #: the preposition after the verb group, or ""
    object: frozenset[str]  #: words of the value before its first qualifier, but numbers/dates
    phrases: frozenset[tuple[str, frozenset[str]]]  #: qualifier phrases: (preposition, words)
    rejected: frozenset[str]  #: the rejected side of a correction ("not 3.12")
    words: frozenset[str]  #: every canonical word of the sentence, the subject's included
    negated: bool
    change: bool  #: a change verb or "now" / "no longer" in the verb group
    event: bool  #: a past-tense action ("went", "gave"), not a state
    indefinite: bool  #: the object opens with "a" / "an"
    numbers: frozenset[str]  #: numbers of the sentence, spelled ones as digits
    dates: frozenset[str]  #: dates, days and times of the sentence
    names: frozenset[str]  #: capitalised words in the value
    clause: bool  #: the value holds a verb of its own ("is what Atlas targets")
    implicit: bool  #: the sentence opens with its verb: the subject is the user
    inverts: bool  #: a copula or a passive, whose subject may come last in a paraphrase
    subject_text: str  #: the subject as written ("the user's team"; "(the user)" when implicit)
    value_text: str  #: what follows the relation, lower case
    relation_text: str  #: the verb group and its preposition as written ("is tested with")
    #: The tool the sentence says its subject left ("uses Notion (switched from Confluence)").
    left: frozenset[str] = frozenset()
    #: The place the sentence says its subject moved from ("lives in Lisbon (moved there
    #: from Berlin)").
    moved_from: frozenset[str] = frozenset()
    #: The value is a span of days ("is away from 3 to 9 June"): one of many such spans.
    period: bool = False

    @property
    def relation(self) -> str:
        """The relation as words: ``be on``, ``depend on``, ``use``."""
        return f"{self.head} {self.particle}".strip()

    @property
    def value(self) -> frozenset[str]:
        """The object and every qualifier phrase's words."""
        return self.object.union(*(words for _p, words in self.phrases))


def _skip_front(toks: list[Tok]) -> int:
    """Where the sentence proper starts: after a label ("Note:") or a fronted phrase."""
    i = 0
    if len(toks) > 2 and toks[1].low == ":" and toks[0].kind == "word":
        i = 2
    if i + 1 < len(toks) and (toks[i].low, toks[i + 1].low) == ("these", "days"):
        i += 2  # "These days Ana's favourite band is …": now, as opposed to before
    while i < len(toks) and toks[i].low in FRONT_WORDS:
        comma = next((k for k in range(i + 1, min(len(toks), i + 16)) if toks[k].low == ","), None)
        if comma is not None:
            i = comma + 1
        elif toks[i].low in GROUP_ADVERBS:
            i += 1
        else:
            break
    return i


def _is_verb(toks: list[Tok], k: int, start: int) -> bool:
    t = toks[k]
    if t.kind != "word" or t.capital or t.low in DETERMINERS:
        return False
    if t.low in AUXILIARIES:
        return not (t.low == "may" and k + 1 < len(toks) and toks[k + 1].kind == "num")
    if t.base is None:
        return False
    before = toks[k - 1].low if k > start else ""
    if before in DETERMINERS or before == "'s" or before in PREPOSITIONS:
        return False  # "the tests", "user's plans", "for reports"
    if k + 1 < len(toks):  # "Tests are run", "Reports go to": a noun before the verb
        after = toks[k + 1]
        if after.low in AUXILIARIES:
            return False
        after_base = None if after.capital else after.base  # None for a number or a mark
        # "the beta launch moved", "the board meeting got pushed": a noun before the verb
        moved = t.low.endswith("ing") and after_base in _MOVED_BY
        if after_base is not None and after_base != after.low and (t.base == t.low or moved):
            return False
        if k == start and after.low == "of":
            return False
        if _noun_in_compound(toks, k, start):
            return False
    return True


def _noun_in_compound(toks: list[Tok], k: int, start: int) -> bool:
    """ "The grant report deadline is …", "the code review meeting moved …": a bare verb form
    after a singular noun, with a noun of the phrase after it, is a noun of that phrase (a
    singular subject would say "reports"); "the users report bugs" keeps its verb."""
    t, before, after = toks[k], toks[k - 1], toks[k + 1]
    if k - 1 <= start or toks[start].low not in DETERMINERS or t.base != t.low:
        return False
    if before.kind != "word" or before.capital or before.low.endswith("s"):
        return False
    if before.base is not None or before.low in DETERMINERS:
        return False
    if after.kind != "word" or after.capital or after.base is not None:
        return False
    return _finite_verb_after(toks, k + 2)


def _finite_verb_after(toks: list[Tok], k: int) -> bool:
    """Whether a verb said as a finite form ("is", "moved", "gets") comes at or after ``k``
    in the clause: without one the bare form is the sentence's verb after all ("My team
    prefer tabs")."""
    for t in toks[k:]:
        if t.kind == "punct":
            return False
        if t.kind == "word" and not t.capital:
            base = t.base
            if t.low in AUXILIARIES or (base is not None and base != t.low):
                return True
    return False


def _looks_like_verb(toks: list[Tok], k: int) -> bool:
    """A verb the lists do not know: "-s" or "-ed" after a noun ("the queue shards ...")."""
    t, before = toks[k], toks[k - 1]
    if t.kind != "word" or t.capital or len(t.low) < 4:
        return False
    if t.low in DETERMINERS or t.low in PREPOSITIONS or t.low in AUXILIARIES:
        return False
    if before.kind != "word" or before.low in DETERMINERS or before.low in PREPOSITIONS:
        return False
    if before.low == "'s":
        return False
    return t.low.endswith("ed") or (t.low.endswith("s") and not t.low.endswith(("ss", "us", "is")))


#: Words that say which value of a slot is meant, not which slot: "my new manager".
_SLOT_AGE = frozenset({"new", "current", "latest"})


def _verb_group(
    toks: list[Tok], j: int, *, guessed: int | None = None
) -> tuple[int, str, bool, bool, bool, bool]:
    """End of the verb group at ``j``, its head, and negated / change / event / perfect;
    ``guessed`` is where a verb the lists do not know stands ("only secured 3 …")."""
    head, negations, change, event, perfect = "", 0, False, False, False
    auxiliary = False
    k = j
    while k < len(toks):
        t = toks[k]
        if t.kind != "word":
            break
        if t.low in ("not", "never"):
            negations += 1
        elif t.low == "no" and k + 1 < len(toks) and toks[k + 1].low == "longer":
            negations += 1
            change = True
            k += 1
        elif t.low in GROUP_ADVERBS:
            change = change or t.low == "now"
        elif t.low in AUXILIARIES and not head.startswith("+"):
            auxiliary = True
            perfect = perfect or t.low in ("has", "have", "had")
            head = _BE if t.low in BE_FORMS else _HAVE if t.low in HAVE_FORMS else head or _BE
            event = event or t.low in ("was", "were", "did")
        elif (base := t.base or (t.low if k == guessed else None)) and not (t.capital):
            if head.startswith("+"):
                break
            head = "+" + base
            change = change or base in CHANGE_VERBS
            past = t.low != base and (t.low.endswith("ed") or t.low in PAST_FORMS)
            event = event or (past and not auxiliary and base not in CHANGE_VERBS)
        else:
            break
        k += 1
    return k, head.lstrip("+"), negations % 2 == 1, change, event, perfect


def _value(
    toks: list[Tok], head: str
) -> tuple[frozenset[str], frozenset[tuple[str, frozenset[str]]], frozenset[str]]:
    """Object words, qualifier phrases (neither with numbers or dates) and the rejected
    alternative of a value."""
    segment: list[str] = []
    segments: list[tuple[str, list[str]]] = [("", segment)]
    rejected: list[str] = []
    rejecting = False
    after_punct = False
    for t in toks:
        if not rejecting and t.kind == "word" and t.low not in _VALUE_MARKS:
            segment.append(t.canon)  # most words: what the steps below do with a plain word
            after_punct = False
            continue
        if t.kind == "punct":
            segment = []
            segments.append(("", segment))
            rejecting, after_punct = False, True
            continue
        opens = after_punct or t.low != "not"  # ", not 3.12"; not "won't be able to …"
        after_punct = False
        if t.low in _REJECT and opens:
            rejecting = True
            continue
        if t.low in ("than", "of") and rejecting:
            continue
        if rejecting:
            if t.low not in DETERMINERS:
                rejected.append(t.canon)
            continue
        if t.low in PREPOSITIONS:
            comparing = head == "prefer" and t.low in _COMPARE
            segment = []
            segments.append(("over" if comparing else t.low, segment))
            continue
        if t.low in DETERMINERS or t.low in _NOT_VALUE:
            continue  # "down to 165 pounds now" qualifies the value as "down to 180 pounds" did
        if t.kind == "num" or t.low in NUMBER_WORDS or t.low in DATE_WORDS:
            continue  # numbers and dates have guards of their own; "four" is "4" there
        segment.append(t.canon)
    phrases = shared([(p, shared(w)) for p, w in segments[1:] if w])
    return shared(segments[0][1]), phrases, shared(rejected)


#: The words a value's reading does more with than keep (all but plain words).
_VALUE_MARKS = (
    _REJECT | {"than", "of"} | PREPOSITIONS | DETERMINERS | _NOT_VALUE | NUMBER_WORDS | DATE_WORDS
)


#: Reads a sentence's frame from what was kept between processes, or by the second
#: argument (``dream/consolidate/frame_memo.py`` sets one while a dream plans).
FrameKeeper = Callable[[str, Callable[[str], "Frame | None"]], "Frame | None"]
KEEPER: ContextVar[FrameKeeper | None] = ContextVar("dreamgit_frame_keeper", default=None)


#: Room for every sentence of a store of 100,000 memories: the newer-value check and the
#: duplicate guards each walk every memory in turn, and a smaller cache than the store
#: keeps none of the first walk's frames for the second (each read again from the kept
#: frames' JSON: 7 % of such a dream).
@lru_cache(maxsize=1 << 17)
def parse_frame(text: str) -> Frame | None:
    """The frame of a memory's first sentence, or None when it has no readable verb."""
    keeper = KEEPER.get()
    return _read_frame(text) if keeper is None else keeper(text, _read_frame)


def _read_frame(text: str) -> Frame | None:
    toks = sentence_tokens(text)
    start = _skip_front(toks)
    found = _main_verb(toks, start)
    if found is None:
        return None
    j, guessed = found
    while j > start and toks[j - 1].low in _BEFORE_VERB:
        j -= 2 if toks[j - 1].low == "longer" and j - 2 >= start else 1
    end, head, negated, change, event, perfect = _verb_group(toks, j, guessed=guessed)
    if not head:
        return None
    if head == "go" and end < len(toks) and toks[end].low in ("up", "down"):
        change, event = True, False  # "the rent went up to $1,400": a new value
    if negated and any(t.low == "anymore" for t in toks[end:]):
        change = True  # "doesn't use Poetry anymore" says what ended, as "no longer" does
    passive = head != _BE and any(t.low in BE_FORMS for t in toks[j:end])
    base, head = head, head if head == _BE else canonical_word(head)
    particle = ""
    if end < len(toks) and toks[end].low in PREPOSITIONS and toks[end].low not in _REJECT:
        particle = toks[end].low
        end += 1
    rest = toks[end:]
    numbers, dates = numbers_and_dates(text)  # of the whole sentence, spelled ones too
    before = toks[start:j]
    subject = (
        shared([t.canon for t in before if t.kind == "word" and t.low not in _NOT_SUBJECT]) or _USER
    )
    subject_text = " ".join([t.low for t in before]).replace(" 's", "'s") or "(the user)"
    obj, phrases, rejected = _value(rest, base)
    if start:  # a fronted phrase ("For Atlas, ...", "In 2025, ...") qualifies the fact too
        fronted = toks[: start - 1 if toks[start - 1].low == "," else start]
        phrases = shared(phrases | _value(fronted, base)[1])
    value_lows = [t.low for t in rest if t.kind != "punct"]
    words = {t.canon for t in toks if t.kind != "punct"}  # the subject's words among them
    words.add(head)
    if subject is _USER:
        words.add("user")
    if base == "prefer" and particle in ("to", "over", "than"):
        particle = ""  # "prefers X to Y" and "prefers X over Y" compare the same way
    return Frame(
        subject=subject,
        head=head,
        particle=particle,
        object=obj,
        phrases=phrases,
        rejected=rejected,
        words=frozenset(words),
        negated=negated,
        change=change,
        event=event and not perfect,
        indefinite=bool(value_lows) and value_lows[0] in _INDEFINITE,
        numbers=shared(numbers),
        dates=shared(dates),
        names=shared([t.canon for t in rest if t.capital]),
        clause=any(
            t.kind == "word" and not t.capital and t.base not in (None, t.low) for t in rest
        ),
        implicit=j == start,
        inverts=head == _BE or passive,
        # said by many frames: each held once, as the sets are
        subject_text=intern(subject_text),
        value_text=intern(" ".join(value_lows).replace(" 's", "'s")),
        relation_text=intern(" ".join([t.low for t in toks[j:end]])),
    )


def _main_verb(toks: list[Tok], start: int) -> tuple[int, int | None] | None:
    """Where the sentence's verb stands, and there again when it is a verb the lists do not
    know (else None); None when there is none, or a mark stands before it."""
    for k in range(start, len(toks)):
        t = toks[k]
        # most words are no verb nor auxiliary: what _is_verb would say of them, said here
        if (t.base is not None or t.low in AUXILIARIES) and _is_verb(toks, k, start):
            return None if _marked(toks[start:k]) else (k, None)
    for k in range(start + 1, len(toks)):
        if _looks_like_verb(toks, k):
            return None if _marked(toks[start:k]) else (k, k)
    return None


def _marked(toks: list[Tok]) -> bool:
    return any(t.kind == "punct" for t in toks)


#: Words of the words before the verb that are not the subject: "the", "user's", "for",
#: "two" (numbers have their own guard), "new" ("the new manager" holds the manager slot).
_NOT_SUBJECT = DETERMINERS | PREPOSITIONS | NUMBER_WORDS | _SLOT_AGE | {"'s"}
_USER = frozenset({"user"})
