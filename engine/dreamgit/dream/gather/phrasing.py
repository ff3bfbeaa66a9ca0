"""Rewriting what the user said into a memory sentence: third person, absolute dates.

Memories read like Claude's own: no subject for the user ("Prefers pytest over
unittest for Python tests."), "User's" for what is theirs ("User's name is Dana
Reyes."), "Their team" for "we", and "the agent" for "you". Relative dates are
anchored to the session's time, because a memory read next week must not say
"tomorrow": "I'm deploying tomorrow" said on 2026-11-20 becomes "Is deploying on
2026-11-21.". Tool names typed in lower case get their usual spelling.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from dreamgit import lazyre
from dreamgit.dream.gather.words import IRREGULAR_PAST
from dreamgit.extract.calendar_words import day_text
from dreamgit.extract.lexicon import canonical_spelling

__all__ = [
    "GERUND",
    "absolute_dates",
    "conjugate",
    "finish",
    "swap_pronouns",
    "third_person",
    "verbatim_spans",
]

ADVERBS: frozenset[str] = frozenset(
    str.split(
        """also now still really mostly mainly usually generally typically normally just
    recently finally actually definitely currently primarily always never only often
    sometimes rarely mostly totally absolutely strongly much honestly basically
    already even ever once almost nearly barely hardly kinda sorta soon"""
    )
)
_KEEP = frozenset(
    str.split(
        """can can't cannot could couldn't should shouldn't must might may will won't would
    wouldn't was wasn't had hadn't used on in at by to for from with about over after before
    the a an this that"""
    )
)
_IRREGULAR = {
    "am": "is", "'m": "is", "are": "is", "'re": "is", "have": "has", "'ve": "has",
    "do": "does", "don't": "doesn't", "dont": "doesn't", "go": "goes", "were": "was",
    "'ll": "will", "'d": "would", "aren't": "isn't", "haven't": "hasn't",
    "gonna": "is going to", "wanna": "wants to", "gotta": "has to",
}  # fmt: skip
# Pronouns after the subject: the user becomes "they", the agent "the agent".
_PRONOUNS = {
    "i'm": "they're", "i've": "they've", "i'll": "they'll", "i'd": "they'd",
    "i am": "they are", "i was": "they were", "i": "they", "me": "them", "my": "their",
    "mine": "theirs", "myself": "themselves", "we're": "they're", "we've": "they've",
    "we'll": "they'll", "we": "they", "us": "them", "our": "their", "ours": "theirs",
    "ourselves": "themselves", "you're": "the agent is", "you've": "the agent has",
    "you'll": "the agent will", "you": "the agent", "your": "the agent's",
    "yourself": "itself",
}  # fmt: skip
_PRONOUN_RE = lazyre.compile(
    r"(?<![\w/.-])(?:"
    + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(_PRONOUNS, key=len)[::-1])
    + r")(?![\w/-]|['\u2019]\w|\.\w)",
    re.IGNORECASE,
)
_SUBJECT = lazyre.compile(
    r"^(?P<subj>i|we)(?P<aux>'m|'re|'ve|'ll|'d|\s+am|\s+are|\s+have|\s+will|\s+was|\s+were)?"
    r"(?=\s|$)",
    re.IGNORECASE,
)
_WORD = lazyre.compile(r"\S+")


_PREFIX = lazyre.compile(r"^(?:re|un|over|under|mis|out|with|fore)(?=[a-z]{3})")


#: An -ing form of a verb ("being", "creating"), not a verb that ends in -ing ("bring").
GERUND = lazyre.compile(r"^[a-z]*[aeiouy][a-z]*ing$")


def _past_form(low: str) -> bool:
    """ "-ed" is a past tense ("wanted", "agreed"), but "need", "feed", "succeed" are not."""
    return low.endswith("ed") and not (low.endswith("eed") and not low.endswith(("reed", "teed")))


def conjugate(verb: str) -> str:
    """Third person singular of a verb after "I" ("prefer" → "prefers", "am" → "is")."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if (
        low in _KEEP
        or low in IRREGULAR_PAST
        or _past_form(low)
        or low.endswith("n't")
        or not low.isalpha()
    ):
        return verb
    if GERUND.match(low):
        return verb  # "creating" is no verb after "I" ("bring" and "sing" are)
    if _PREFIX.match(low) and _PREFIX.sub("", low) in IRREGULAR_PAST:
        return verb  # "retook", "overslept": a past tense with a prefix
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _subject(clause: str) -> tuple[str, str]:
    """(new subject phrase, rest of clause) for a clause that starts with I, we, my or our."""
    m = _SUBJECT.match(clause)
    if m is None:
        for own, who in (("my ", "User's "), ("our ", "Their ")):
            if clause[: len(own)].lower() == own:
                return who, clause[len(own) :]
        return "", clause
    we = m.group("subj").lower() == "we"
    aux = (m.group("aux") or "").strip().lower()
    rest = clause[m.end() :].lstrip()
    words = rest.split(" ")
    adverbs: list[str] = []
    while words and len(adverbs) < 4:
        if words[0].lower() in ADVERBS:
            adverbs.append(words.pop(0))
        elif words[0].lower() == "no" and len(words) > 1 and words[1].lower() == "longer":
            adverbs += [words.pop(0), words.pop(0)]
        else:
            break
    if aux:
        verb = _IRREGULAR.get(aux, aux)
        tail = [*adverbs, *words]
        head = [verb]
    else:
        head = [*adverbs, conjugate(words[0])] if words and words[0] else adverbs
        tail = words[1:]
    subject = "Their team " if we else ""
    return subject + " ".join(head) + " ", " ".join(tail)


#: Words a rewrite leaves as written: a quotation ('never ask me "Shall I go on?"') and
#: a path or address (``/home/me/dotfiles``, ``C:\\Users\\me``), where "me" is a name.
_VERBATIM = lazyre.compile(r'"[^"]{1,300}"|\u201c[^\u201d]{1,300}\u201d|[^\s"]*[/\\][^\s"]*')


def verbatim_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` quotes someone or names a path: no pronoun in there is rewritten."""
    return [m.span() for m in _VERBATIM.finditer(text)]


def swap_pronouns(text: str) -> str:
    """``text`` with the user's pronouns as "they" and the agent's as "the agent"."""
    kept = verbatim_spans(text)

    def swap(m: re.Match[str]) -> str:
        if any(start <= m.start() < end for start, end in kept):
            return m.group()
        word = " ".join(m.group().lower().split())
        if word == "us" and m.group() != "us":
            return m.group()  # "US", the country
        return _PRONOUNS.get(word, m.group())

    return _PRONOUN_RE.sub(swap, text)


_DAY_PARTS = "morning|afternoon|evening|night"
_WHEN = (
    rf"later\s+today|today|tonight|tomorrow(?:\s+(?:{_DAY_PARTS}))?"
    r"|this\s+(?:morning|afternoon|evening)"
    r"|(?:in|within)\s+the\s+next\s+hour|within\s+the\s+hour|in\s+an\s+hour|next\s+hour"
    r"|in\s+(?:a\s+few|a\s+couple\s+of|two|2)\s+hours"
)
#: The near-date words that make a statement ephemeral.
NEAR_DATE = lazyre.compile(
    rf"\b(?:(?P<prep>by|until|till|before|after|from|since|for)\s+)?(?P<when>{_WHEN})\b",
    re.IGNORECASE,
)
_LEADING_WHEN = lazyre.compile(rf"^(?P<when>{_WHEN}),?\s+", re.IGNORECASE)


def _near_phrase(prep: str, when: str, created: datetime) -> str:
    day = created.date()
    words = when.lower().split()
    if words[0] == "tomorrow":
        day += timedelta(days=1)
    iso = day_text(day)
    if words[-1] in ("morning", "afternoon", "evening", "night") or words[0] == "tonight":
        part = "night" if words[0] == "tonight" else words[-1]
        phrase = f"the {part} of {iso}"
    elif "hour" in words[-1] or "hours" in words:
        phrase = f"{created:%H:%M} UTC on {iso}"
        span = "within an hour of" if "hour" in words[-1] else "a few hours after"
        return f"{prep + ' ' if prep else ''}{span} {phrase}"
    else:
        phrase = iso
    if prep:
        return f"{prep} {phrase}"
    return ("later on " if words[0] == "later" else "on ") + phrase


def absolute_dates(text: str, created: datetime) -> str:
    """``text`` with today / tomorrow / tonight / next hour anchored to ``created``."""
    lead = _LEADING_WHEN.match(text)
    if lead and len(text) > lead.end():
        # "Tomorrow I'm presenting" reads better as "I'm presenting on <date>".
        text = f"{text[lead.end() :]} {lead.group('when')}"
    return NEAR_DATE.sub(
        lambda m: _near_phrase(m.group("prep") or "", m.group("when"), created), text
    )


def finish(text: str) -> str:
    """Tidy a memory sentence: one line, usual tool spellings, capital, full stop."""
    text = " ".join(text.split()).strip(" ,;:-")
    text = canonical_spelling(text).rstrip(".!?… ")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."


def third_person(clause: str, created: datetime) -> str:
    """A first-person clause as a memory sentence ("I'm moving tomorrow" → "Is moving on …")."""
    clause = absolute_dates(" ".join(clause.split()), created)
    subject, rest = _subject(clause)
    return finish(subject + swap_pronouns(rest))
