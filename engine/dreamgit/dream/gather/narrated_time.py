"""The time a sentence tells: when what it narrates happened, and how a time went.

"Last night was a blast!" tells a time the next sentence happened in (:func:`time_told`);
"Last weekend I did something new." sets a past time the sentences that narrate what was
done then share (:func:`time_set`, :func:`narrated_then`). A clause is tightened
(:func:`tightened`): filler words and a closing evaluation go, and "Last week was wild,
I got noticed" becomes "I got noticed last week".
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.dates import DATE_WORDS, JUST_DONE, past_times
from dreamgit.dream.gather.sentence_split import LEAD, SENTENCE

__all__ = [
    "TIME_WAS_ONLY",
    "narrated_then",
    "tightened",
    "time_set",
    "time_told",
]

_I = re.IGNORECASE


# Words that only colour a statement ("I just really love it"), and a closing evaluation
# (", which was so much fun"): a memory is shorter without them and says the same.
_FILLER_WORDS = lazyre.compile(
    rf"\s+(?:very\s+much(?=\s+(?:a|an|the)\s)|really|just(?!\s+{JUST_DONE})"
    r"|so(?=\s+(?:much|many|\w+ly|\w+ful|happy|glad|proud|excited|cool|good|great))|pretty|super|totally|actually|kinda|kind\s+of|definitely|honestly"
    r"|literally|basically|seriously|absolutely|truly|quite|very)(?=\s)",
    _I,
)
_EVALUATION_TAIL = lazyre.compile(
    r",?\s+(?:which|and\s+it|it)\s+(?:is|was|'s|has\s+been)\s+(?:\w+\s+){0,3}?"
    r"(?:fun|great|awesome|amazing|cool|nice|special|exciting|wonderful|rewarding|a\s+blast"
    r"|incredible|fantastic|lovely|powerful|inspiring|relaxing|therapeutic)\b.*$",
    _I,
)


# "Last week was wild, I got noticed by editors": how the time was, then what happened.
def _time_was(units: str) -> str:
    """ "Last week was", "yesterday has been": a time and how it went, ``units`` the
    words "last" may take."""
    return (
        rf"^(?P<time>(?:last|this\s+past|past|this)\s+(?:{units}|[a-z]+day)|yesterday|today)"
        r"\s+(?:was|has\s+been|is|'s)\s+"
    )


_TIME_WAS = lazyre.compile(
    _time_was("week|weekend|month|year|night|summer|winter|spring|fall|autumn")
    + r"(?:\w+\s+){0,3}?\w+(?:[,;!:]|\s+[-\u2013\u2014])\s+(?P<rest>\S.*)$",
    _I,
)


# "Last week was wild": how a time went, and nothing that happened in it.
TIME_WAS_ONLY = lazyre.compile(
    _time_was("week|weekend|month|year|night") + r"(?:\w+[\s-]+){0,2}\w+$", _I
)


def time_told(sentence: str) -> str | None:
    """ "Last night was a blast!": the time a sentence only tells how it went, so that the
    next one ("We jammed till two") can say when it happened."""
    last = SENTENCE.split(sentence.strip())[-1]  # "news to share - last night was a blast"
    m = TIME_WAS_ONLY.match(tightened(LEAD.sub("", last)).rstrip(".!… "))
    return None if m is None else m["time"].lower()


# "I participated in …", "We also went …", "My sister and I drove …": what was done next.
_NARRATES = lazyre.compile(
    r"^(?:(?:then|and|so|also|afterwards|after\s+that),?\s+)?"
    r"(?:i|we|my\s+\w+(?:\s+and\s+i)?|our\s+\w+)\s+(?:also\s+|then\s+|finally\s+)?" + JUST_DONE,
    _I,
)
_NOT_ONCE = lazyre.compile(r"\b(?:always|never|usually|often|every|used\s+to|since)\b", _I)


def time_set(sentence: str) -> str | None:
    """ "Last weekend I did something new.": the past time the sentence sets, which the
    sentences narrating what was done then (:func:`narrated_then`) share."""
    found = past_times(sentence)
    if len(found) != 1 or _NOT_ONCE.search(sentence):
        return None
    return found[0]


def narrated_then(sentence: str) -> bool:
    """Whether ``sentence`` tells, undated, what its speaker did ("I participated in a
    5K run"): it happened when the sentence before said."""
    text = LEAD.sub("", sentence.strip())
    return (
        _NARRATES.match(text) is not None
        and DATE_WORDS.search(text) is None
        and _NOT_ONCE.search(text) is None
    )


def tightened(text: str) -> str:
    """``text`` without filler words and a closing evaluation."""
    if not text:
        return text
    m = _TIME_WAS.match(text)
    if m is not None:
        text = f"{m['rest'].rstrip(' .!')} {m['time'].lower()}"
    text = _EVALUATION_TAIL.sub("", text)
    return _FILLER_WORDS.sub("", text)
