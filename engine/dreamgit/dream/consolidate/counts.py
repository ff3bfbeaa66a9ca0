"""Counts and settings: "has 9 plugins" and "installed 14 plugins" hold one slot.

A chat states a newer count inside a task, with whatever verb the task needs ("I'm
adjusting the job to the new limit of 500 rows"), so the subject-and-relation frame of
``update.py`` never pairs it with the older count. :func:`quantities` reads every number
of a sentence that counts something: the **counted** noun after it ("9 plugins", "3
conditional probability problems"), the rate it is said per ("per day", "a week"), the
**setting** it is the value of ("the daily upload cap of 800", "the page size is 50"), the
phrase that says which ones ("workers *for the billing queue*") and whether it was said as
a change ("bumped it to 5", "has now reached 240", "the new limit of"). :func:`count_changes`
lets a newer count of the same counted thing retire the older one across verbs; the guards
keep different things apart: another counted noun, another qualifier or name, a rate or a
percentage against a plain count, an increment ("3 more"), two dated events, and two past
actions that no change cue ties together ("ran 5 km", "ran 10 km"). A setting named two ways
("the 500 daily upload limit", "the daily upload quota of 800 uploads") is one slot
(``setting_names.py``). :func:`counts_apart` tells the other passes of ``update.py`` when
the numbers two memories disagree on count different things.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dreamgit.dream.consolidate.count_cues import moves, other_days
from dreamgit.dream.consolidate.count_layout import CountLayout, spec
from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountReading, Quantity
from dreamgit.dream.consolidate.count_said import USER, Said, SaidByKey
from dreamgit.dream.consolidate.count_words import (
    AMOUNTS,
    CHANGES,
    CONJUNCTIONS,
    HELD_NOW,
    INCREMENT,
    LINKS,
    NOW_WORDS,
    PARTICLES,
    RATE_OPENERS,
    RELATIVES,
    STATES,
    STOP,
)
from dreamgit.dream.consolidate.restate import as_fact
from dreamgit.dream.consolidate.setting_names import UNITS as _UNITS
from dreamgit.dream.consolidate.setting_names import bound_phrase, setting_words
from dreamgit.dream.consolidate.update_layout import keyed
from dreamgit.extract.frame import parse_frame
from dreamgit.extract.lexicon import lookup_tool
from dreamgit.extract.signature import numbers_and_dates, signature
from dreamgit.extract.verbs import (
    AUXILIARIES,
    DATE_WORDS,
    DETERMINERS,
    GROUP_ADVERBS,
    PREPOSITIONS,
    verb_base,
)
from dreamgit.model import Memory
from dreamgit.textsim import canonical_word

__all__ = ["Quantity", "count_changes", "counts_apart", "quantities", "read_counts"]

#: A number (the one kind of token that starts with a digit), a word, or a mark.
_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?%?|[A-Za-z][\w'-]*|[,;:()]|[.!?](?=\s|$)")


@lru_cache(maxsize=1 << 16)  # a few thousand words, asked 600,000 times over 100,000 memories
def _canon(word: str) -> str:
    return canonical_word(verb_base(word) or word) if not word[:1].isdigit() else word


def _is_verb_form(word: str) -> bool:
    base = verb_base(word)
    return base is not None and base != word and word.endswith(("ed", "ing"))


def _content(word: str) -> bool:
    return word[:1].isalpha() and word not in STOP and word not in DATE_WORDS


def _number(raw: str) -> str:
    numbers = signature(raw.rstrip("%")).numbers
    return next(iter(numbers)) if len(numbers) == 1 else raw.replace(",", "").rstrip("%")


def _skip(toks: list[str], i: int) -> bool:
    """Numbers that count nothing here: dates, times, versions, the old side of a range."""
    before = toks[i - 1] if i else ""
    after = toks[i + 1] if i + 1 < len(toks) else ""
    if before in DATE_WORDS or after in DATE_WORDS or after in ("am", "pm", "a.m", "p.m"):
        return True
    if before == "from" or (before == "version" or before[:1] == "v"):
        return True  # "from 60% to 85%": the old side is said as such
    raw = toks[i]
    return len(raw) == 4 and raw.startswith(("19", "20")) and not after[:1].isalpha()


def _counted(toks: list[str], i: int) -> tuple[tuple[str, ...], int]:
    words: list[str] = []
    k = i + 1
    while k < len(toks) and len(words) < 3:
        w = toks[k]
        if not _content(w) or (words and _is_verb_form(w)) or w in INCREMENT:
            break
        words.append(_canon(w))
        k += 1
    return tuple(words), k


def _rate(toks: list[str], k: int) -> str:
    if k + 1 < len(toks) and toks[k] in RATE_OPENERS and _content(toks[k + 1]):
        return _canon(toks[k + 1])
    return ""


def _qualifier(toks: list[str], k: int) -> frozenset[str]:
    if k >= len(toks) or toks[k] not in PREPOSITIONS or toks[k] in ("by", "per", "than"):
        return frozenset()
    words: list[str] = []
    for w in toks[k + 1 : k + 6]:
        if not w[:1].isalnum() or w in CONJUNCTIONS or (words and w in PREPOSITIONS):
            break
        if _content(w):
            words.append(_canon(w))
    return frozenset(words)


def _verb(clause: list[str]) -> str:
    for w in reversed(clause):
        if w in ("has", "have", "had"):
            return canonical_word("have")
        if w in ("is", "are", "was", "were", "am", "be", "been"):
            return canonical_word("be")
        base = verb_base(w)
        if base is not None and w not in AUXILIARIES and w not in PREPOSITIONS:
            return canonical_word(base)
    return ""


def _owner(clause: list[str]) -> frozenset[str]:
    """The words after the last "for" / "into" of a clause: whose count or setting it is."""
    at = max((k for k, w in enumerate(clause) if w in ("for", "into")), default=-1)
    words: list[str] = []
    for w in clause[at + 1 : at + 6] if at >= 0 else ():
        if w in DETERMINERS:
            continue
        if not _content(w) or _is_verb_form(w) or len(words) == 3:
            break
        words.append(_canon(w))
    return frozenset(words)


def _setting(toks: list[str], i: int, start: int) -> tuple[frozenset[str], bool, str]:
    """The noun phrase a number is the value of, whether a change cue stands between, and
    the phrase's head (its word nearest the number: "team productivity" → productivity)."""
    k, changed, linked = i - 1, False, False
    while k >= start:
        w = toks[k]
        if w in NOW_WORDS or _canon(w) in CHANGES:
            changed = True
        elif w in LINKS or w in AUXILIARIES or w in GROUP_ADVERBS or w in DETERMINERS:
            linked = linked or w in LINKS or w in AUXILIARIES
        elif w[:1].isdecimal() and k > start and toks[k - 1] == "from":
            changed = True  # "went up from 1,200 to 1,350": the old side, then the new
            k -= 1
        elif w not in RELATIVES:
            break
        k -= 1
    words: list[str] = []
    head = ""
    while k >= start and len(words) < 3 and _content(toks[k]) and not _is_verb_form(toks[k]):
        if moves(toks, k):
            changed, k = True, k - 1  # "the rent went up to": the rent is the setting
            continue
        words.append(_canon(toks[k]))
        noun = toks[k] not in PARTICLES and verb_base(toks[k]) in (None, toks[k])
        head = head or (words[-1] if noun else "")  # "rent went up to": rent
        k -= 1
    # "bumped it to 5", "increased the sessions to 12": a change verb of the clause
    changed = changed or any(_canon(w) in CHANGES for w in toks[start:i])
    if not (linked or changed):
        return frozenset(), changed, ""
    return frozenset(words), changed, head


def _tokens(text: str) -> list[str]:
    """The numbers, words and marks of ``text`` in lower case, a possessive "'s" dropped.
    An ASCII text is put in lower case first, whole: the same tokens (the pattern takes a
    letter in either case), at a third of the cost of lowering each."""
    if not text.isascii():
        return [t.lower().removesuffix("'s") for t in _TOKEN.findall(text)]
    low = text.lower()
    toks = _TOKEN.findall(low)
    return [t.removesuffix("'s") for t in toks] if "'s" in low else toks


def quantities(text: str) -> tuple[Quantity, ...]:
    """Every number of ``text`` that counts something or is a setting's value."""
    toks = _tokens(text)
    out: list[Quantity] = []
    start = 0
    for i, raw in enumerate(toks):
        if raw in (";", ".", "!", "?", ":", "(", ")") or raw in CONJUNCTIONS:
            start = i + 1
            continue
        if not raw[:1].isdecimal() or _skip(toks, i):  # a number starts with a digit
            continue
        counted, k = _counted(toks, i)
        if counted and counted[-1] in CHANGES | AMOUNTS:
            counted = ()  # "a $2,000 increase", "a 5 total": the word of a change, no thing
        setting, changed, head = _setting(toks, i, start)
        rate = _rate(toks, k)
        if (bound := bound_phrase(counted)) is not None:
            counted, said_rate, setting = bound  # "the 500 daily upload limit"
            rate, head = rate or said_rate, ""
        setting = setting_words(setting, counted)
        if counted and counted[-1] in _UNITS and not setting:
            continue  # "for 3 hours", "2 weeks ago": a span, not a count of anything
        if not counted and not setting:
            continue
        near = toks[max(start, i - 2) : i] + toks[i + 1 : i + 2]
        out.append(
            Quantity(
                number=_number(raw),
                counted=counted,
                rate=rate,
                percent=raw.endswith("%") or "percent" in counted,
                setting=setting,
                before=frozenset(_canon(w) for w in toks[start:i] if _content(w)),
                qualifier=_qualifier(toks, k),
                owner=_owner(toks[start:i]),
                verb=_verb(toks[start:i]),
                changed=changed,
                increment=any(w in INCREMENT for w in near),
                total=any(w in HELD_NOW for w in toks[max(start, i - 4) : i]),
                head=head,
            )
        )
    return tuple(out)


def _same_thing(old: Quantity, new: Quantity) -> bool:
    """Whether two quantities count one thing: the same counted words (or the older
    count's noun named before a bare new value said as a change), the same rate, both or
    neither a percentage, and no other qualifier."""
    if old.percent != new.percent or old.increment or new.increment:
        return False
    if old.rate and new.rate and old.rate != new.rate:
        return False
    if old.owner and new.owner and old.owner != new.owner:
        return False  # "the budget for Vega" / "the budget for Quill"
    if old.qualifier and new.qualifier and old.qualifier != new.qualifier:
        return False  # "5 workers for billing" / "3 workers for search"
    if _other_settings(old.setting, new.setting):
        return False  # "the daily upload cap is 500 files" / "the daily download cap is 800"
    if old.counted and new.counted:
        if old.counted != new.counted:
            return False
        return old.counted[-1] not in _UNITS or bool(old.setting & new.setting)
    if new.changed and old.counted and not new.counted:
        return old.counted[-1] not in _UNITS and set(old.counted) <= new.before
    if old.setting and new.setting and not old.counted and not new.counted:
        return old.setting == new.setting
    return False


def counts_apart(old_text: str, new_text: str) -> bool:
    """Whether the numbers two sentences each say and the other lacks count things the other
    never names:
    "chose to feature 4 short films in their showreel" and "is updating their showreel; the
    number of students they coach has increased to 9" share a word but no count. Every
    number one sentence counts that the other lacks must name a thing (its counted noun, else
    its setting) the other says too; a number that counts nothing readable leaves it open."""
    said_old, said_new = signature(old_text).numbers, signature(new_text).numbers
    if not (said_old - said_new and said_new - said_old):
        return False  # no number changed on both sides ("lives in Lisbon" after "… 2 cats")
    old_q, new_q = quantities(as_fact(old_text)), quantities(as_fact(new_text))
    old_numbers, new_numbers = {q.number for q in old_q}, {q.number for q in new_q}
    mine = [q for q in old_q if q.number not in new_numbers]
    theirs = [q for q in new_q if q.number not in old_numbers]
    if any(_same_thing(p, q) for p in mine for q in theirs):
        return False
    return _none_named(mine, new_text) or _none_named(theirs, old_text)


def _none_named(counts: Sequence[Quantity], text: str) -> bool:
    """Whether ``counts`` hold a thing and none of their things is a word of ``text``."""
    said = frozenset(_canon(w) for w in _TOKEN.findall(text.lower()) if _content(w))
    words = said | setting_words(said)  # "quota" names what "limit" names
    things = [_thing(q) for q in counts]
    return any(things) and not any(thing & words for thing in things)


def _thing(q: Quantity) -> frozenset[str]:
    """What a quantity counts, as words: its counted noun, else its setting's head noun
    (else the setting's words): "team productivity" counts no "team meeting attendance"."""
    if q.counted and not _UNITS.intersection(q.counted):  # "29 years old": a span
        return frozenset(q.counted[-1:])
    if q.head and q.head not in CHANGES | _UNITS | AMOUNTS:
        return frozenset({q.head}) & q.setting or setting_words(frozenset({q.head}))
    return q.setting - CHANGES - _UNITS - AMOUNTS


def _other_settings(old: frozenset[str], new: frozenset[str]) -> bool:
    """Two settings, each with a word the other lacks: "daily upload cap" and "daily
    download cap" are two settings; "daily quota" and "daily upload quota" may be one."""
    return bool(old and new and old - new and new - old)


def _said(memory: Memory) -> Said | None:
    if not _DIGIT.search(memory.text):
        return None  # no count to read: most memories, and the cheap test comes first
    keeper = COUNT_KEEPER.get()
    read = read_counts(memory.text) if keeper is None else keeper(memory.text, read_counts)
    if read is None:  # a reading is only made of a fact that frames (read_counts)
        return None
    return Said(memory, read.fact, read.quantities, read.names, read.dates, read.words)


def read_counts(text: str) -> CountReading | None:
    """The count reading of a memory's text, or None when it states no count in a frame."""
    fact = as_fact(text).replace(" \u2014 ", " ", 1)
    found = quantities(fact)
    if not found or parse_frame(fact) is None:
        return None
    # the dates as the fact's signature reads them, the rest of it unmade (at 100,000
    # memories, 23,000 signatures made for their dates alone)
    dates = numbers_and_dates(fact)[1]
    # a capital after ";" or ":" may open a clause ("; This one …"): no name
    names = frozenset(m.lower() for m in _NAME.findall(fact)) - {"i"} - dates - STOP
    words = frozenset(w.lower() for w in re.findall(r"[\w-]+", fact))
    return CountReading(fact, found, names, dates, words)


_DIGIT = re.compile(r"\d")
#: A capitalised word inside a sentence: a name ("Cloud spend for Heron Cloud").
_NAME = re.compile(r"(?<=[\w,;:()] )[A-Z][\w-]*")


#: A name said as what something is done with: "… with 8 cards using Bootstrap".
_INSTRUMENT = re.compile(r"\b(?:using|via)\s+(?P<name>[A-Z][\w-]*)")


def _own_names(said: Said) -> frozenset[str]:
    """Names that say whose count it is: not the tools it was done with ("on GitHub",
    "using Bootstrap", whether the lexicon knows the tool or not)."""
    used = {m["name"].lower() for m in _INSTRUMENT.finditer(said.memory.text)}
    return frozenset(n for n in said.names if lookup_tool(n) is None and n not in used)


def _other_act(old: Quantity, new: Quantity) -> bool:
    """Counts said with two verbs of action: "logged 3,600 words" / "cut 900 words",
    "solved 8 problems" / "completed 12 problems" count two batches. The same verb, a
    count held ("has 9 plugins" / "installed 14 plugins"), a change that names what
    changed ("increased the practice sessions to 12 problems") or a newer count said as
    the whole ("now has a total of 12 tiles") is one slot."""
    if old.verb == new.verb or old.verb in STATES or not old.counted or new.total:
        return False
    return not (new.changed and (new.setting or not new.counted))


def _shrinks(old: Quantity, new: Quantity) -> bool:
    """A count of things that fell with no word of change: "solved 5 problems" after
    "completed 12 problems" is another batch, not a new total (a total that fell is said
    so: "down to 5", "cut to 5", "now 5")."""
    if new.changed or not new.counted:
        return False
    try:
        return float(new.number) <= float(old.number)
    except ValueError:
        return False


def _setting_of_user(old: Said, new: Said, p: Quantity, q: Quantity) -> bool:
    """ "The request timeout is 30 seconds" / "the user lowered the request timeout to 20
    seconds": one subject is the user, the other's is the setting both name. "The user's
    recipe box holds 40 cards" / "the user put 46 cards in their recipe box": the thing
    that holds the count is one's subject and the other's qualifier. "The user raised their
    weekly page goal from 20 to 30 pages" / "the user's weekly page goal was set to 25
    pages": it is one's subject and what the other changed, named before its number."""
    user = USER
    subjects = (old.frame.subject, new.frame.subject)
    if user not in subjects:
        return False  # each way below has the user as one subject: the cheap test first
    pairs = ((subjects[0], subjects[1], p), (subjects[1], subjects[0], q))
    for mine, theirs, count in pairs:
        held_in = theirs - user
        if mine == user and held_in and held_in <= count.qualifier | count.owner:
            return True
        if mine == user and held_in and count.changed and held_in <= count.before:
            return not _starts_elsewhere(old, new)
    if not p.setting or p.setting != q.setting:
        return False
    named = ((a, setting_words(b, p.counted)) for a, b in (subjects, subjects[::-1]))
    return any(a == user and b <= p.setting for a, b in named)


#: "… from 20 to 30": the value a change says it started from.
_FROM = re.compile(r"\bfrom\s+(\d[\d,]*(?:\.\d+)?%?)")


def _starts_elsewhere(old: Said, new: Said) -> bool:
    """Whether the newer sentence says its change started from a value the older one
    never held: "the weekly goal was set to 25 pages", then "raised the weekly page count
    from 20 to 30" counts something the goal is not (what was done, not what was aimed
    at), so it does not end the goal."""
    started = {_number(m[1]) for m in _FROM.finditer(new.memory.text)}
    return bool(started) and not started & {x.number for x in old.quantities}


def _apart(old: Said, new: Said, p: Quantity, q: Quantity) -> bool:
    """Guards on the two sentences: another subject (unless one setting names the thing:
    "the request timeout is 30 seconds" / "lowered the request timeout to 20 seconds"),
    other names, two dated events, two past actions."""
    if old.thing_subject != new.thing_subject and not _setting_of_user(old, new, p, q):
        return True
    if old.names and new.names and old.names != new.names:
        return True  # "3 workers on Atlas" / "5 workers on Orion"; "Heron" / "Heron Cloud"
    if new.names - old.words or _own_names(old) - new.words:
        return True  # a name the other one does not hold, in lower case or not
    if other_days(old.dates, new.dates):
        return True  # two dated events, each with its own count
    return old.frame.event and new.frame.event and not q.changed


def count_changes(memories: Sequence[Memory]) -> list[tuple[Memory, Memory, str]]:
    """(older, newer, reason) for each memory whose count a newer memory changes, each
    older memory retired once, by the first (:func:`laid_out_counts` from nothing)."""
    by_key = keyed(memories)
    return laid_out_counts(by_key, list(by_key), [], {})


def laid_out_counts(
    by_key: Mapping[str, Memory],
    fresh: Sequence[str],
    dropped: Iterable[str],
    state: dict[str, Any],
) -> list[tuple[Memory, Memory, str]]:
    """:func:`count_changes` over ``by_key`` from the layout ``state`` of the run before
    (``count_layout``, moved to this run's memories in place): the ``dropped`` memories
    taken out, the ``fresh`` ones read and put in, and only the memories whose windows
    changed compared again."""
    layout = CountLayout(state, id_of=lambda key: key.split("\x00", 1)[0])
    marked: set[str] = set()
    for key in dropped:
        layout.remove(key, marked)
    read = SaidByKey(by_key, _said)
    added = []
    empty = not state["said"]  # laid out from nothing: every memory is new, and compared
    for key in fresh:
        found = _said(by_key[key])
        if found is not None:
            read[key] = found
            layout.add(
                key, spec(found.memory, found.quantities, found.own_subject), ordered=not empty
            )
            added.append(key)
    if empty:
        layout.order()
        marked.update(added)
    for key in added if not empty else ():
        layout.mark(key, marked)
    for key in layout.in_word_order(marked & state["said"].keys()):
        layout.compare(key, read, _changed_count)
    return [(by_key[old], by_key[new], reason) for old, new, reason in layout.changes()]


def _changed_count(old: Said, new: Said, q: Quantity) -> str | None:
    """Why ``q`` of ``new`` changes a count of ``old``, or None."""
    if q.number in old.numbers:
        return None  # the older one says the newer value too: no count of it changed
    counted = q.counted
    if counted and counted not in old.counted:
        return None  # a count of a thing counts that thing alone (``_same_thing``)
    tied = old.memory.created == new.memory.created
    for p in old.quantities:
        if tied and (p.changed or not q.changed):
            continue  # said at one time: only a change says which is now
        if counted and p.counted != counted:
            continue  # the cheap half of ``_same_thing``: another thing counted
        if p.number == q.number or not _same_thing(p, q) or _shrinks(p, q) or _other_act(p, q):
            continue
        if _apart(old, new, p, q):
            continue
        thing = " ".join(p.counted) or " ".join(sorted(p.setting))
        return f"count of {thing}: {p.number} → {q.number}"
    return None
