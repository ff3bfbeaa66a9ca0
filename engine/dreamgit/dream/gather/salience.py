"""How much a statement says, and what kind of statement it is.

A clause's *salience* adds up what it holds: self-disclosure, named people, places
and organisations, numbers, dates, a quoted title, content words and its kind,
less for small talk and remarks about "it". Its *kind* (preference, instruction,
decision, correction, fact, event, plan, relationship) is what the gather rules
read as ``kind``. Both are plain functions of the clause's words.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.words import EVALUATIVE, PAST_VERB, RELATIVES, content_terms

__all__ = [
    "FIRST_PERSON",
    "KINDS",
    "NAMED_PART_SALIENCE",
    "NUMBER",
    "PROPER",
    "TITLE",
    "common_words",
    "kind_of",
    "salience",
]

#: The kinds of statement, as the rules see them (``kind``).
KINDS: tuple[str, ...] = (
    "preference",
    "instruction",
    "decision",
    "correction",
    "fact",
    "event",
    "plan",
    "relationship",
    "momentary",
)

_I = re.IGNORECASE

#: A person speaking of themselves: "I", "my", "we".
FIRST_PERSON = lazyre.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|us)\b", _I
)
#: A name: capitalised, not opening a sentence.
PROPER = lazyre.compile(
    r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z'&.-]*[a-z0-9][a-zA-Z'&-]*\b|\b[A-Z]{2,}\b"
)
NUMBER = lazyre.compile(
    r"\b(?:\d+(?:[.,]\d+)*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|twenty|thirty|forty|fifty|hundred|thousand|first|second|third)\b",
    _I,
)
_OPENER = lazyre.compile(
    r"^(?:The|A|An|This|That|These|Those|It|It's|Its|There|There's|Here|What|Some|Any|No"
    r"|Every|Each|All|Both|One|Life|People|Everyone|Someone|Nothing|Something|Maybe|Perhaps"
    r"|Just|When|If|Once|After|Before|Since|While|Until|Then|Now|So|Still|Even|Only|Also"
    r"|Not|Too|Very|Really|Such|Got|Went|Had|Made|Took|Love|Thanks|Hey|Hi|Yes|Yeah|Wow|Oh"
    r"|My|Our|Your|Me|We|You|They|He|She|Last|Next|Yesterday|Today|Tomorrow|\w+ing|\w+ly"
    r"|\w+ed)$"
)
_NAMED_SUBJECT = lazyre.compile(
    r"^(?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*(?:'s\s+\w+)?\s+(?:is|was|has|had|does|did|can"
    r"|will|isn't|wasn't|doesn't|didn't|won't|can't|[a-z]+s|[a-z]+ed)\b"
)
_CONTENT_WEIGHT = 0.4
#: What a statement about a named part of the project ("The sync command uploads …",
#: lifted from a request) holds beyond what :func:`salience` sees: the part's name, written
#: in code marks or after "called" rather than with a capital, counted as a name (+1.5)
#: that is the statement's subject (+1), the weights :func:`salience` gives a capitalised
#: one; not tuned on any set.
NAMED_PART_SALIENCE = 2.5
TITLE = lazyre.compile(r"\"[^\"]{2,60}\"")
_NOT_PROPER = frozenset(
    str.split("""I I'm I've I'd I'll OK Ok Mom Dad Monday Tuesday Wednesday Thursday Friday Saturday
    Sunday""")
)

_KINDS = (
    (
        "correction",
        lazyre.compile(
            r"(?:^actually\b|\bcorrection\b|,\s*not\s+\w|\bno\s+longer\b|\bnot\s+anymore\b"
            r"|\banymore\b|\bmoved\s+(?:it\s+)?to\b|\bchanged\s+(?:it\s+)?to\b|\bswitched\b"
            r"|\binstead\s+of\b|\bpushed\s+(?:back\s+)?to\b|\bnow\s+(?:on|at|in|uses?)\b"
            r"|\b(?:hit|reached|passed|crossed|grew\s+to|is\s+up\s+to)\s+[\d$€£])",
            _I,
        ),
    ),
    (
        "decision",
        lazyre.compile(
            r"\b(?:decided|decide|chose|choose|settled\s+on|going\s+with|go\s+with|agreed"
            r"|we'll\s+use|we\s+will\s+use|picked)\b",
            _I,
        ),
    ),
    (
        "plan",
        lazyre.compile(
            r"\b(?:gonna|going\s+to|plan|plans|planning|will|'ll|next\s+(?:week|month|year"
            r"|weekend|quarter|sprint)|thinking\s+(?:about|of)|want\s+to|wanna|hoping\s+to|hope\s+to|intend"
            r"|looking\s+forward|tomorrow|upcoming|soon|about\s+to|aim|goal|dream\s+(?:is|of))\b",
            _I,
        ),
    ),
    (
        "preference",
        lazyre.compile(
            r"\b(?:love|loves|loved|like|likes|prefer|prefers|favorite|favourite|enjoy|enjoys"
            r"|hate|hates|can't\s+stand|fan\s+of|passionate|keen\s+on|rather|into\s+\w+ing"
            r"|obsessed)\b",
            _I,
        ),
    ),
    (
        "relationship",
        lazyre.compile(
            rf"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:{RELATIVES})\b|\b(?:is|are)\s+my"
            rf"\s+(?:\w+\s+)?(?:{RELATIVES})\b|\b(?:married|divorced|engaged|dating|adopted"
            r"|broke\s+up)\b",
            _I,
        ),
    ),
)
_PAST = lazyre.compile(rf"\b{PAST_VERB}", _I)


def kind_of(clause: str, *, instruction: bool) -> str:
    """The clause's kind; "event" for something dated or done, else "fact"."""
    if instruction:
        return "instruction"
    for kind, pattern in _KINDS:
        if pattern.search(clause):
            return kind
    return "event" if _PAST.search(clause) else "fact"


def common_words(text: str) -> frozenset[str]:
    """The words ``text`` writes in lower case somewhere: "music" in "I love music" tells
    that "Music" opening a sentence is a common word, not a name."""
    return frozenset(re.findall(r"(?<![\w'])[a-z][a-z'-]+", text))


def salience(
    clause: str,
    kind: str,
    *,
    dated: bool,
    reply: bool = False,
    common: frozenset[str] = frozenset(),
) -> float:
    """How much a clause says: self-disclosure, names, numbers, dates and its kind.

    ``reply``: the clause answers a question the other person just asked, so it
    holds what someone wanted to know ("How long do you hold it?" "30-60 seconds").
    ``common``: words the session writes in lower case (:func:`common_words`); a
    clause's first word among them is not a name.
    """
    low = clause.lower()
    score = 1.0 if reply else 0.0
    if FIRST_PERSON.search(clause):
        score += 1.5
    else:
        score -= 0.5  # an opinion or a remark rather than something about the speaker
    names = {m.group() for m in PROPER.finditer(clause)} - _NOT_PROPER
    first = clause.split(" ", 1)[0]
    if (
        first[:1].isupper()
        and first not in _NOT_PROPER
        and not _OPENER.match(first)
        and first.lower() not in common
    ):
        names.add(first)
    score += min(1.5 * len(names), 3)
    if TITLE.search(clause):
        score += 1.5  # a quoted title: a book, a song, a project
    if names and _NAMED_SUBJECT.match(clause):
        score += 1  # "Dana handles the frontend": a fact about a named person or thing
    if NUMBER.search(clause):
        score += 1.5
    if dated:
        score += 2.5
    score += {
        "instruction": 3.5,
        "correction": 1.5,
        "decision": 1.5,
        "preference": 1,
        "plan": 1,
        "relationship": 1,
        "event": 0.5,
    }.get(kind, 0)
    score += min(len(content_terms(clause)) * _CONTENT_WEIGHT, 3)
    words = len(clause.split())
    if words < 4:
        score -= 1
    if words > 45:
        score -= 1
    if EVALUATIVE.search(low) and not names:
        score -= 1
    if re.match(r"^(?:it|it's|that|that's|this|these|those|they|there|there's)\b", low):
        score -= 1 if FIRST_PERSON.search(clause) else 2
    return score
