"""A value said inside a request is a statement of the current value.

An agent's user says a newer value on the way to asking for something: "how can I
build on the fact that I booked 4 demos?", "can you help me plan now that the review
moved to 12 June?", "especially since my draft reached 3,200 words, …". The request
itself is momentary, so nothing of it is kept, and the value with it is lost; the
older value then stays the only one in memory. :func:`values_in_request` lifts the
clause that states a value out of a request by its structure: a clause opened by a
word that presents a fact ("the fact that", "now that", "since", "given that", "I
noticed"), holding a number, with a subject of its own ("I", "my …", "the …"). The
lifted clause is an ordinary sentence, read by the same statement rules as any other.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.sentence_split import as_sentence

__all__ = ["values_in_request"]

# A request, a question to the agent or the task of the moment ("I'm trying to …"): what
# is asked is momentary, what it rests on may not be.
_REQUEST = lazyre.compile(
    r"\?|\b(?:can|could|would|will)\s+you\b|\bhow\s+(?:can|do|should|would|could)\s+I\b"
    r"|\bhow\s+I\s+(?:can|could|should)\b|\bhelp\s+me\b|\bremind\s+me\b"
    r"|\bI(?:'m|\s+am)\s+trying\s+to\b|\bI\s+(?:want|need)\s+to\b",
    re.IGNORECASE,
)
# Words that present what follows as a fact the request rests on.
_PRESENTS = lazyre.compile(
    r"\b(?:the\s+fact\s+that|now\s+that|given\s+that|considering\s+that|seeing\s+as"
    r"|(?:especially\s+)?since|(?:I\s+(?:just\s+|recently\s+)?(?:noticed|found\s+out|learned"
    r"|realized|realised))(?:\s+that)?)\s+",
    re.IGNORECASE,
)
# Where the presented clause ends: a stop (not the comma of "3,200" or the colon of
# "4:30"), or the request or an aside taking over.
_CLAUSE_END = lazyre.compile(
    r"\s*(?:[;?!]|[,:.](?!\d)|\s+(?:so|but|and\s+(?:how|what|can|could|I)|which|while"
    r"|because|how|what)\b)",
    re.IGNORECASE,
)
# "… 4 demos to get more leads": a purpose after the value, not part of it ("moved to
# 12 June", "increased to 9" say the value after "to").
_PURPOSE = lazyre.compile(r"\s+to\s+(?!(?:the|a|an|my|our|\d)\b)(?=[a-z]+\b)")
# "… my weekly word count, and I just found out it was adjusted to …": "it" is the
# speaker's thing named last before it.
_IT = lazyre.compile(r"^it(?:'s|\s+(?=(?:is|was|has|had|got)\b))", re.IGNORECASE)
_THEIR_THING = lazyre.compile(r"\bmy\s+(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)(?=\s*[,;]|$)")
# The clause has a subject of its own: the speaker, or a thing of theirs or named.
_OWN_SUBJECT = lazyre.compile(r"^(?:I|I'm|I've|I'd|we|we've|my|our|the)\b", re.IGNORECASE)
# A value: a number (a count, a percentage, a time, a date's day).
_VALUE = lazyre.compile(r"\d")
# Longest clause lifted: a value is said in a few words, not a paragraph.
_LONGEST = 160
# What a value may hold besides words: "1,200", "4:30", "April 5, 2024" (a year after a comma).
_VALUE_TEXT = r"(?:[^,;:?!.]|[,.:](?=\d)|,\s(?=\d{4}\b))"
# Where a value named inside a request ends: a stop, or the request or an aside taking over.
_VALUE_END = (
    r"(?=\s*(?:,(?!\d|\s\d{4}\b)|[;?!]|[:.](?!\d)|$)|\s+(?:but|and|so|which|while|because|to|for|can|could"
    r"|how|what|when|if)\b)"
)
# "to reflect the new sprint deadline of 5 April", "the new daily quota of 1,200 calls per
# day": a setting named as new, with its value after it.
_NEW_SETTING_OF = lazyre.compile(
    r"\bthe\s+new\s+(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+(?:of|is|at)\s+"
    rf"(?P<value>{_VALUE_TEXT}*?\d{_VALUE_TEXT}*?){_VALUE_END}",
    re.IGNORECASE,
)
# "the new April 25 deadline", "the new 1,500 limit": the value before the setting's word (a
# plural is a count of new things, "the new 3 cards", not a setting).
_NEW_VALUE_SETTING = lazyre.compile(
    r"\bthe\s+new\s+(?P<value>(?:[A-Z][a-z]+\s+)?\d[\d,.:]*(?:\s*(?:am|pm|%))?)\s+"
    r"(?P<thing>[a-z][\w-]*(?<![^s]s)(?:\s+[a-z][\w-]*(?<![^s]s))?)"
    r"(?=\s*(?:[,;?!.]|$)|\s+(?:and|but|so|for|to|that|which|can|could|is|was|of)\b)",
)


def values_in_request(sentence: str) -> list[str]:
    """The clauses of a request ``sentence`` that state a value, each as a sentence of
    its own ("I booked 4 demos."), in the order said; nothing for a sentence that asks
    for nothing."""
    if _REQUEST.search(sentence) is None:
        return []
    out: list[str] = []
    for m in _PRESENTS.finditer(sentence):
        rest = sentence[m.end() :]
        end = _CLAUSE_END.search(rest)
        clause = _with_thing(
            rest[: end.start()] if end is not None else rest, sentence[: m.start()]
        )
        digit = _VALUE.search(clause)
        if digit is None or _OWN_SUBJECT.match(clause) is None or len(clause) > _LONGEST:
            continue
        purpose = _PURPOSE.search(clause, digit.end())
        if purpose is not None:
            clause = clause[: purpose.start()]
        out.append(as_sentence(clause))
    return out + _new_settings(sentence)


def _new_settings(sentence: str) -> list[str]:
    """ "the new sprint deadline of 5 April", "the new April 25 deadline" inside a request:
    the setting and its value now ("The sprint deadline is now 5 April."), in the
    order said."""
    found = [
        (m.start(), m["thing"], m["value"])
        for pattern in (_NEW_SETTING_OF, _NEW_VALUE_SETTING)
        for m in pattern.finditer(sentence)
    ]
    return [
        f"The {thing.lower()} is now {value.strip()}."
        for _start, thing, value in sorted(found)
        if len(thing) + len(value) < _LONGEST
    ]


def _with_thing(clause: str, before: str) -> str:
    """ "it was adjusted to 40 pages" said after "my weekly reading goal, and …": the
    clause with the thing "it" stands for, when the words before name one thing of the
    speaker's last; else the clause as it is."""
    it = _IT.match(clause)
    things = list(_THEIR_THING.finditer(before.rstrip(" ,;").removesuffix(" and")))
    if it is None or not things:
        return clause
    verb = "is " if it.group().lower() == "it's" else ""
    return f"my {things[-1]['thing']} {verb}{clause[it.end() :].lstrip()}"
