"""Sentences and clauses: a paragraph of a turn cut into sentences, and a sentence into clauses.

A sentence is cleaned of stage directions and emoji (:func:`spoken`), of the greetings
and glue that open it and the filler that trails it (:func:`stripped`); it is cut into
clauses where a new subject starts, and a part too short to stand alone, or one that goes
on about what the part before named, is joined back to it (:func:`rejoined`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dreamgit import lazyre
from dreamgit.dream.gather.salience import PROPER
from dreamgit.dream.gather.words import EVALUATIVE, SENTENCE_END

__all__ = [
    "EMOJI",
    "LEAD",
    "MAX_CLAUSE",
    "PRONOUN_SUBJECT",
    "SENTENCE",
    "as_sentence",
    "rejoined",
    "split_sentences",
    "spoken",
    "stripped",
    "without_lead",
]

_I = re.IGNORECASE
MAX_CLAUSE = 400

_STAGE = lazyre.compile(r"\[[^\[\]]{0,400}\]\s*(?!\()")  # "[shares a photo: …]", not [links](…)
EMOJI = lazyre.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")
# A dash ends a sentence when a new one starts after it ("… last month - it's been rough"),
# not when a list or an aside goes on ("me-time - running, reading or my violin - which …").
SENTENCE = lazyre.compile(
    SENTENCE_END + r"[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])"
    r"|\s+[-\u2013\u2014]\s+(?=[A-Z0-9\"']|(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our|it|it's"
    r"|that|that's|this|they|they're|he|she|there|but|and|so|plus|last|yesterday|today"
    r"|tonight|tomorrow|next)\b)"
    r"|\s*\n\s*"
)
# "since we last talked", "since our last chat": when the chat was, not when a fact began.
_CATCH_UP = (
    r"since\s+(?:we|i)\s+(?:last\s+)?(?:spoke|talked|talk|chatted|chat|caught\s+up|met)"
    r"(?:\s+last)?|since\s+(?:our\s+|the\s+)?last\s+(?:chat|talk|conversation|time)"
    r"|since\s+(?:speaking|talking|chatting)\s+last"
    # "Haven't talked in a few days, wanted to let you know …": the news is what follows
    r"|(?:we\s+)?haven't\s+(?:talked|chatted|spoken|caught\s+up)\s+in\s+(?:a\s+)?(?:few|couple"
    r"(?:\s+of)?|while|ages|\w+)(?:\s+(?:days|weeks|months))?"
    r"|(?:i\s+)?wanted\s+to\s+let\s+you\s+know(?:\s+that)?|as\s+you\s+know"
)
_CATCH_UP_INSIDE = lazyre.compile(rf",?\s+(?:{_CATCH_UP})\b", _I)
# "…, and I went": a new clause; "My girlfriend, Toby and I are going": one subject;
# "ever since I was a kid": when, part of the clause before.
_CLAUSE = lazyre.compile(
    # "… so I can …" is the purpose of the clause before it, said with it
    r"[;:]\s+|,?\s+(?:and|but|so(?!\s+(?:i|we)\s+(?:can|could)\b)|because|(?<!\bever\s)since(?!\s+(?:i\s+was|we\s+were)\b)|as"
    r"|though|although)\s+(?=(?:i(?!\s+(?:are|were)\b)"
    r"|i'm|i've|i'd|we|we're|we've|my|our|it|it's|that|that's|this|they|there)\b)",
    _I,
)
LEAD = lazyre.compile(
    r"^(?:(?:hi|hey|hello|hiya|yo|wow|whoa|woah|oh|ooh|ah|aw|aww|omg|yeah|yep|yup|yes|ya|no"
    r"|nope|ok|okay|sure|well|so(?!\s+far\b)|also|and|but|anyway|anyways|btw|by\s+the\s+way|fyi|lol|haha"
    r"|hahaha|hehe|hmm+|um|uh|phew|gotcha|totally|honestly|seriously|definitely|absolutely"
    r"|indeed|right|thankfully|luckily|moreover|besides\s+that|anyhow|bummer|ugh|oof|nah|yea"
    r"|dang|darn|gosh|geez|jeez|yikes|whew|true(?=,)|man(?=,)|on\s+another\s+note|funny\s+thing"
    r"|speaking\s+of\s+which"
    r"|alright|cool|great|awesome|nice|thanks|thank\s+you|thx|sorry|guess\s+what|you\s+know"
    # "Update: …" opens news; "update the changelog" is an order, its verb kept
    r"|to\s+be\s+honest|tbh|plus|heads\s+up|fyi|(?:quick\s+)?update(?=\s*[:,!.\u2013\u2014-])"
    r"|actually(?=,)"
    rf"|{_CATCH_UP})\b"
    r"[\s,!.:;\u2013\u2014-]*)+",
    _I,
)
_TRAIL = lazyre.compile(
    r"(?:[\s,;:-]+(?:haha+|hahaha|lol|lmao|hehe|:\)|:d|;\)|(?:if\s+)?you\s+know(?:\s+what\s+i"
    r"\s+mean)?|eh|right|though|too|speaking\s+of"
    r"|for\s+sure|tbh|honestly|(?:and\s+)?all\s+(?:of\s+)?that|and\s+stuff|and\s+so\s+on"
    r"|(?:and\s+)?(?:things|stuff)\s+like\s+that"
    r"|etc))+[\s.!?…]*$",
    _I,
)
# "She prefers Vim": whose? A pronoun subject nobody named is no one's fact.
PRONOUN_SUBJECT = lazyre.compile(r"^(?:he|she|they|he's|she's|they're|him|her)\b", _I)


def as_sentence(clause: str) -> str:
    """A clause lifted out of a longer sentence, written as a sentence of its own: a capital
    first, one full stop at the end ("staging resets on Sundays, " → "Staging resets on
    Sundays.")."""
    return clause[:1].upper() + clause[1:].rstrip(" .") + "."


def spoken(text: str) -> str:
    """``text`` without its stage directions ("[shares a photo: …]") and emoji; an emoji
    between a word and a capitalised one ends a sentence ("Inspiring 💪 I emailed …")."""
    text = _STAGE.sub("", text)
    text = re.sub(rf"(?<=[\w)])\s*(?:{EMOJI.pattern})\s+(?=[A-Z])", ". ", text)
    return EMOJI.sub("", text)


def split_sentences(paragraph: str) -> Iterator[str]:
    paragraph = spoken(paragraph)
    for sentence in SENTENCE.split(paragraph):
        sentence = sentence.strip()
        if sentence and len(sentence) <= 2 * MAX_CLAUSE:
            yield sentence


def without_lead(text: str) -> str:
    """``text`` without the greetings, interjections and glue that open it ("Yeah, so …")."""
    return LEAD.sub("", text)


def stripped(text: str, others: tuple[str, ...]) -> str:
    for _ in range(3):
        before = text
        text = _CATCH_UP_INSIDE.sub("", LEAD.sub("", text))
        for name in others:
            text = re.sub(rf"^{re.escape(name)}\b[\s,!.:]*", "", text)
            text = re.sub(rf"[\s,]+{re.escape(name)}\s*([.!?]*)$", r"\1", text)
        text = _TRAIL.sub("", text)
        if text == before:
            break
    return _unquoted(_ends_stripped(text))


# A single quote that opens a quotation ("use 'fs'"), and one that closes it.
_OPENING = lazyre.compile(r"(?:^|(?<=[\s(]))'(?=\w)")
_CLOSING = lazyre.compile(r"(?<=\w)'(?=[\s),.;:!?]|$)")


def _ends_stripped(text: str) -> str:
    """``text`` without spaces, commas, dashes and colons at its ends, nor a single quote
    there that closes or opens nothing ("use 'fs' and 'path'" keeps its last one)."""
    while True:
        text = text.strip(" ,;:-")
        if text[-1:] == "'" and not _OPENING.search(text[:-1]):
            text = text[:-1]
        elif text[:1] == "'" and not _CLOSING.search(text[1:]):
            text = text[1:]
        else:
            return text


def _unquoted(text: str) -> str:
    """``text`` without a quote mark at either end that closes nothing; a title's stay
    ("I loved \"Becoming Nicole\"")."""
    while text[:1] == '"' and text.count('"') % 2:
        text = _ends_stripped(text[1:])
    while text[-1:] == '"' and text.count('"') % 2:
        text = _ends_stripped(text[:-1])
    return text


# "I got it as a gift": a clause whose object is what the clause before named.
_REFERS_BACK = lazyre.compile(r"^(?:i|we|i've|we've|i'm|we're)\b.*\b\w+\s+(?:it|them)\b", _I)


# "… till Toby", "… when my sister": a clause opening whose subject goes on after "and I".
_ENDS_WITH_NAME = lazyre.compile(
    r"\b(?:till|until|when|while|because|if|since|after|before|that|where)\s+"
    r"(?:[A-Z][a-z]+|(?:my|our)\s+\w+)$"
)


# "My best friend from school and I opened …": a sentence's opening person, no verb in it.
_PERSON_FIRST = lazyre.compile(
    r"^(?:my|our)\s+(?!(?:[\w'-]+\s+){0,4}?(?:is|are|was|were|has|have|had|will|would|can"
    r"|[a-z]+ed)\b)(?:[\w'-]+\s+){0,4}[\w'-]+$",
    _I,
)


# "and my faith", "or our garden": a possession, with no verb after it.
_LISTED = lazyre.compile(r"^(?:my|our)\s+(?:own\s+)?[\w'-]+(?:\s+[\w'-]+)?$", _I)


# "… are: a, b", "the tabs should be: inbox, archive": the list is what they are
_ANNOUNCES_LIST = lazyre.compile(r"\b(?:are|is|were|was|be|include|includes|including)$", _I)

# "…, and I've currently reached 70% after …": an amount with no noun of its own, whose
# thing the clause before named ("trying to reach 90% branch coverage")
_BARE_AMOUNT = lazyre.compile(
    r"^(?:and\s+|but\s+|so\s+)?(?:i|we)(?:'ve|'m|'re|\s+have|\s+am|\s+are)?\s+(?:\w+ly\s+)?"
    r"(?:reached|hit|got\s+to|gotten\s+to|at|up\s+to|down\s+to)\s+\d[\d,.]*%?(?![\d%])"
    r"(?!\s*(?!after|before|by|on|in|since|so|and|now|already|today|with|at)[a-z]{3,})",
    _I,
)
_COUNTED = lazyre.compile(r"\b\d[\d,.]*%?\s+(?:[a-z-]+\s+){0,2}[a-z]{3,}", _I)


def _in_title(sentence: str, m: re.Match[str]) -> bool:
    """Whether the colon ``m`` is inside a title: "Animal Crossing: New Horizons", or
    between quotes ("Monster Hunter: World")."""
    if not m.group().startswith(":"):
        return False
    before, after = sentence[: m.start()], sentence[m.end() :]
    if before.count('"') % 2 == 1:
        return True
    return bool(re.search(r"\b[A-Z][\w'-]*$", before) and re.match(r"[A-Z][a-z]", after))


def rejoined(sentence: str) -> list[str]:
    """The clauses of a sentence. One too short to stand alone ("and it was fun") is
    left out; one that goes on about what the clause before named ("… a vintage
    guitar, and I got it as a gift", "I volunteered and they gave me a medal") stays
    with it."""
    out: list[str] = []
    start, joiner, subject = 0, "", False
    for m in [*(m for m in _CLAUSE.finditer(sentence) if not _in_title(sentence, m)), None]:
        part = sentence[start : m.start() if m else len(sentence)]
        if part:
            low = part.lower()
            weak = len(part.split()) < 4 or (
                re.match(r"^(?:it|it's|that|that's|this|they|there)\b", low)
                and EVALUATIVE.search(low)
                and not PROPER.search(part)
            )
            # "… closer to a community and my faith": one more thing, not a new clause
            listed = weak and joiner.strip() in ("and", "or") and _LISTED.match(part)
            # "Our priorities are: 1) the dashboard, 2) …": the list is what they are
            announced = joiner.strip() == ":" and out and _ANNOUNCES_LIST.search(out[-1])
            bare = out and _BARE_AMOUNT.match(part) and _COUNTED.search(out[-1])
            if out and (
                bare
                or _REFERS_BACK.search(part)
                or PRONOUN_SUBJECT.match(part)
                or subject
                or listed
                or announced
            ):
                out[-1] = f"{out[-1]}{joiner}{part}"
            elif not (weak and out):
                out.append(part)
            # "My wife and I left", "… till Toby and I bond": the words before "and I" were
            # part of its subject
            subject = (
                m is not None
                and m.group().strip() == "and"
                and re.match(r"i\b", sentence[m.end() :], _I) is not None
                and (
                    (len(out) == 1 and (weak or _PERSON_FIRST.match(part) is not None))
                    or _ENDS_WITH_NAME.search(part) is not None
                )
            )
        if m is not None:
            start, joiner = m.end(), m.group()
    return out
