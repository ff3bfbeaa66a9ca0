"""A value said inside a request is a statement of the current value.

An agent's user says a newer value on the way to asking for something: "how can I
build on the fact that I booked 4 demos?", "can you help me plan now that the review
moved to 12 June?", "especially since my draft reached 3,200 words, …". The request
itself is momentary, so nothing of it is kept, and the value with it is lost; the
older value then stays the only one in memory. :func:`values_in_request` lifts the
clause that states a value out of a request by its structure: a clause opened by a
word that presents a fact ("the fact that", "now that", "since", "given that", "I
noticed"), holding a number, with a subject of its own ("I", "my …", "the …"); and a
clause of the request that says how a thing of the user's is now (:func:`_states`):
"…, and my weekly goal is 25 km, how …", "the API, which now runs on Go 1.22, …", "we
switched to Terraform, can you …". The lifted clause is an ordinary sentence, read by
the same statement rules as any other, so a newer value supersedes an older one through
the normal path.
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
# "it's already 5 April", "it's now 4 PM": the day or hour of speaking, not a value of the
# thing named before.
_TIME_OF_SPEAKING = lazyre.compile(
    r"it(?:'s|\s+is)\s+(?:(?:already|only|almost|nearly|just|now)\s+)?(?:\d|(?:jan|feb|mar"
    r"|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|(?:mon|tues|wednes|thurs|fri|satur"
    r"|sun)day\b|midnight\b|noon\b)",
    re.IGNORECASE,
)
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
        if _TIME_OF_SPEAKING.match(rest):
            continue  # "given that it's already 5 April": today, not a thing's value
        purpose = _PURPOSE.search(clause, digit.end())
        if purpose is not None:
            clause = clause[: purpose.start()]
        out.append(as_sentence(clause))
    for state in [*_new_settings(sentence), *_states(sentence)]:
        if state not in out:
            out.append(state)
    return out


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


# Where a clause that states how a thing is now may open inside a request: the sentence's
# start, a comma, or a conjunction ("…, and my goal is 25 km", "… but we switched to …").
_OPENS = r"(?:^|[,;]\s*|\s(?:and|but|so|plus)\s+)(?:(?:also|now|actually)\s+)?"
# The user's or the team's thing, named: "my weekly running goal", "our billing service".
_THEIR = r"(?:my|our)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?"
# A thing named with "the": "the billing service", "the weekly sync".
_THE_THING = r"the\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?"
# A change said as done, to a new value: "switched to", "has been moved to", "was raised to".
_CHANGED_TO = (
    r"(?:(?:has|have|had|was|were|is|are|just|now|recently|since|been|finally|officially)\s+)*"
    r"(?:switched|moved|migrated|upgraded|downgraded|changed|increased|decreased|raised"
    r"|lowered|reduced|adjusted|extended|pushed(?:\s+back)?|rescheduled|shifted|bumped"
    r"|updated|grown|grew|dropped|cut)\s+(?:(?:my|our|the|from)\s+)?(?:[\w.,:%$/-]+\s+){0,4}?to\s+(?=\S)"
)
# A state said as now: "now runs on", "is now", "now uses".
_NOW = (
    r"(?:(?:is|are)\s+now|now\s+(?:is|are|runs?|uses?|lives?|sits?|takes?|starts?|ends?"
    r"|happens?|builds?|deploys?|targets?|holds?|has|have))\b"
)
_STATE = lazyre.compile(
    rf"{_OPENS}(?P<clause>(?:{_THEIR}|{_THE_THING}|I(?:'ve)?|we(?:'ve)?"
    r"|it)"
    rf"\s+(?:{_CHANGED_TO}|{_NOW}))",
    re.IGNORECASE,
)
# "my weekly goal is 25 km": a thing of the user's and its value, a number, said as it is.
_THEIR_VALUE = lazyre.compile(
    rf"{_OPENS}(?P<clause>{_THEIR}\s+(?:is|are)\s+(?!(?:going|trying|about|not|still)\b)"
    r"(?:(?:now|currently|set\s+to|at|about|around)\s+)?(?=[^,;?!]*?\d))",
    re.IGNORECASE,
)
# "the API, which now runs on Go 1.22": what "which" stands for is named just before it,
# not after a preposition ("the boost from the workshop, which is now …" may be the boost).
_WHICH_NOW = lazyre.compile(
    r"(?<!\bfrom\s)(?<!\bof\s)(?<!\bat\s)(?<!\bin\s)(?<!\bon\s)(?<!\bwith\s)(?<!\bfor\s)"
    r"(?<!\bto\s)(?<!\babout\s)(?<!\bby\s)"
    rf"\b(?P<thing>(?:{_THEIR}|{_THE_THING})),?\s+which\s+"
    rf"(?P<clause>(?:{_CHANGED_TO}|{_NOW}))",
    re.IGNORECASE,
)
# The words just before a clause that make it a supposition, not what is so: "if my goal
# is 25 km", "whether we switched to …", "what happens when my rent is …".
_SUPPOSED = lazyre.compile(
    r"\b(?:if|whether|when|unless|once|until|assuming|suppose|supposing|case|should|before"
    r"|after|maybe|wonder(?:ing)?|hope|wish)(?:\s+(?:that|and|now))?[\s,]*$",
    re.IGNORECASE,
)
# What a request asks of the moment, not what a thing of the user's is: "my answer is 12".
_OF_THE_MOMENT = lazyre.compile(
    r"^(?:my|our)\s+(?:(?:\w+\s+){0,2})(?:answer|result|guess|solution|calculation|attempt"
    r"|output|error|question|problem|code|function|query|example|formula|equation|score"
    r"|total|sum)s?\s",
    re.IGNORECASE,
)
# Where such a clause ends: a stop, the request or an aside taking over, or the next clause
# with a subject of its own ("… 25 km and my budget is …").
_STATE_END = lazyre.compile(
    rf"{_CLAUSE_END.pattern}|\s+and\s+(?=(?:my|our|the|we|I|it)\b)|\s+(?:if|when|for\s+(?:a|the)"
    r"\s+\w+\s+(?:I|we)|right\s+now|at\s+the\s+moment)\b",
    re.IGNORECASE,
)


def _states(sentence: str) -> list[str]:
    """The clauses of a request ``sentence`` that say how a thing of the user's is now, each
    as a sentence ("My weekly goal is 25 km.", "The API now runs on Go 1.22."), in the
    order said: a change said as done, a state said with "now", or a thing of theirs with a
    number as its value; never one said as a supposition ("if my goal is …")."""
    found: list[tuple[int, str]] = []
    for pattern in (_STATE, _THEIR_VALUE):
        for m in pattern.finditer(sentence):
            said = _clause_at(sentence, m.start("clause"), m.end("clause"))
            if said is not None and _OF_THE_MOMENT.match(said) is None:
                found.append((m.start("clause"), said))
    for m in _WHICH_NOW.finditer(sentence):
        said = _clause_at(sentence, m.start("clause"), m.end("clause"))
        if said is not None:
            found.append((m.start("thing"), f"{m['thing']} {said}"))
    out: list[str] = []
    for _start, said in sorted(found):
        text = as_sentence(said)
        if text not in out and len(said) <= _LONGEST:
            out.append(text)
    return out


def _clause_at(sentence: str, start: int, verb_end: int) -> str | None:
    """The clause that opens at ``start`` and whose verb ends at ``verb_end``, up to where
    the request takes over, without a purpose said after its value; None for a clause said
    as a supposition, or with nothing after its verb."""
    if _SUPPOSED.search(sentence[:start]) is not None:
        return None
    end = _STATE_END.search(sentence, verb_end)
    clause = sentence[start : end.start() if end is not None else len(sentence)]
    value = clause[verb_end - start :].strip()
    if not value or value.lower().startswith(("you", "your")):
        return None
    purpose = _PURPOSE.search(clause, verb_end - start + len(value.split()[0]))
    return (clause[: purpose.start()] if purpose is not None else clause).strip()
