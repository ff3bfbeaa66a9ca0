"""A short answer to "how long" or "how often", said again with what the question asked.

"How long have you been painting?" — "Seven years now!": alone, the answer says nothing
of painting. When the turn right after such a question opens with a bare length of time
or a frequency, the question's verb phrase goes back in front of it: "I've been painting
for seven years now". Only these two questions, only an answer that is a time phrase and
nothing more, and the listener's "you" and "your" become the speaker's "me" and "my".
When in doubt nothing changes.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.sentence_split import without_lead

__all__ = ["answered"]

_I = re.IGNORECASE

# "How long have you been married?", "How long have you had them?"
_HOW_LONG = lazyre.compile(
    r"^(?:and\s+|so\s+)?how\s+long\s+have\s+you\s+(?P<phrase>(?:been|had|known|lived|worked"
    r"|played|done|owned|studied|taught)\b[^?]{0,80})\?$",
    _I,
)
# "How often do you work out with your family?"
_HOW_OFTEN = lazyre.compile(
    r"^(?:and\s+|so\s+)?how\s+often\s+do\s+you\s+(?P<phrase>[a-z][^?]{0,80})\?$", _I
)
_COUNT = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen"
    r"|twenty|thirty|a\s+few|a\s+couple(?:\s+of)?|several|many)"
)
_UNIT = r"(?:years?|months?|weeks?|days?|hours?|decades?)"
# "5 years already", "About three months now", "Since I was 17 or so", "For a month".
_LENGTH = lazyre.compile(
    rf"^(?:(?:about|around|almost|nearly|over|just|only|roughly)\s+)?{_COUNT}\s+{_UNIT}"
    r"(?:\s+(?:now|already|so\s+far|or\s+so|and\s+counting))*$"
    r"|^since\s+\S.{0,40}$"
    rf"|^for\s+(?:(?:about|around|almost|nearly|over)\s+)?(?:{_COUNT}\s+{_UNIT}|a\s+while|ages"
    r"|years|months|a\s+long\s+time)\b.{0,30}$",
    _I,
)
# "Three times a week", "Every Sunday", "Once a month, usually", "Daily".
_FREQUENCY = lazyre.compile(
    rf"^(?:(?:about|around|usually|maybe)\s+)?(?:(?:{_COUNT}|once|twice)\s+(?:times?\s+)?"
    r"(?:a|an|per|every)\s+\w+|every\s+\w+(?:\s+\w+)?|daily|weekly|monthly|most\s+days)"
    r"(?:,?\s+(?:usually|mostly|now|or\s+so))?$",
    _I,
)
_SPEAKER = {"you": "me", "your": "my", "yours": "mine", "yourself": "myself"}


def _spoken_by_answerer(phrase: str) -> str:
    return re.sub(
        r"\b(?:you|your|yours|yourself)\b", lambda m: _SPEAKER[m.group().lower()], phrase, flags=_I
    )


def answered(question: str, answer: str) -> str | None:
    """``answer`` said with what ``question`` asked ("I've been married for 5 years
    already"), when it is a bare length of time or frequency after "how long"/"how
    often"; else None."""
    text = without_lead(answer.strip()).rstrip(".!… ")
    m = _HOW_LONG.match(question.strip())
    if m is not None and _LENGTH.match(text):
        when = text[:1].lower() + text[1:]
        if not re.match(r"(?:since|for)\b", when):
            when = f"for {when}"
        return f"I've {_spoken_by_answerer(m['phrase'].strip())} {when}."
    m = _HOW_OFTEN.match(question.strip())
    if m is not None and _FREQUENCY.match(text):
        return f"I {_spoken_by_answerer(m['phrase'].strip())} {text[:1].lower()}{text[1:]}."
    return None
