"""Whose: a clause a person said, rewritten as a memory that names them first.

"I went to a poetry reading yesterday" said by Priya on 8 May 2023 becomes
"Priya went to a poetry reading on 7 May 2023.". The first "I" becomes the
speaker (the verb agrees: "I love" → "Priya loves"), later ones "they";
"my" becomes "Priya's", then "their"; "we" becomes "Priya and others" in a
chat between people and "the user's team" when a user talks to an agent; "you"
is the listener: the other person's name, or "the agent". An agent's
sessions with one user say "The user" until the user's name is known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamgit import lazyre
from dreamgit.dream.gather.phrasing import ADVERBS, GERUND, conjugate, verbatim_spans
from dreamgit.dream.gather.words import (
    ADVERB_OPENERS,
    ADVICE_VERBS,
    OWNED_SLOTS,
    RELATIVES,
    opens_without_subject,
)
from dreamgit.extract.names import possessive

__all__ = ["Voice", "attribute", "attributed", "instruction"]

_I = re.IGNORECASE
_TOKEN = lazyre.compile(
    r"\b(?:i'm|i've|i'd|i'll|i\s+am|i\s+was|i|me|my|mine|myself|we're|we've|we'd|we'll|we\s+are"
    r"|we\s+were|we|us|our|ours|ourselves|you're|you've|you'd|you'll|you\s+are|you\s+were"
    r"|you\s+have|you|your|yours"
    r"|yourself)(?![\w'-])",
    _I,
)


@dataclass(frozen=True)
class Voice:
    """Who speaks and to whom: the names a clause's pronouns stand for."""

    subject: str  # "Priya", "The user", "Marco"
    listener: str  # "Tomas", "the agent"
    #: "we" is a team (a user talking to an agent) rather than a group of people.
    team: bool = False
    #: Words the session writes in lower case: "Family" opening a remark is not a name.
    common: frozenset[str] = frozenset()


def _lowered_first(text: str) -> str:
    """``text`` with its first letter in lower case, as it reads after "says" or "to",
    unless its first word is written in capitals ("API", "MUST"): that stays as written."""
    first = text.split(" ", 1)[0]
    letters = [c for c in first if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return text
    return text[:1].lower() + text[1:]


def _lower_first(name: str) -> str:
    return name[0].lower() + name[1:] if name.startswith("The ") else name


# After "just": a verb ("just got back"), not a time or a subject ("just last week, we").
_VERB_NEXT = lazyre.compile(
    r"\s+(?!(?:last|this|next|yesterday|today|now|then|a|an|the|my|our|we|i|like|in|on|at"
    r"|as|so|for|when|because)\b)[a-z]+\b",
)


# "On 1 June 2023 took my pups to the park": a time first, then the verb of an unsaid "I".
_TIME_FIRST = lazyre.compile(
    r"^(?P<time>(?:on|in|by)\s+(?:the\s+)?(?:[\w-]+\s+){0,4}?\d{4},?|yesterday,?|today,?"
    r"|this\s+morning,?|last\s+night,?)\s+(?=\S)",
    _I,
)


# "Grilled sardines are one of my favorites": a participle before its noun, the subject said.
_NAMED_BY_PARTICIPLE = lazyre.compile(
    r"^[a-z]+ed\s+(?!(?:my|our|his|her|their|your|the|a|an|some|this|that|it|me|us|them|him"
    r"|to|with|up|out|in|on|at|for|by|and)\b)[\w'-]+\s+(?:is|are|was|were)\b",
    _I,
)


_EXAMPLE_AFTER_LIKE = lazyre.compile(r"\s*[,'\"\u2018\u201c]|\s+(?:when|if)\b", _I)


def _restore_subject(clause: str) -> str:
    """ "Got to see the old town" → "I got to see the old town"; "On 1 June 2023 took my
    pups to the park" → "On 1 June 2023 I took my pups to the park"."""
    m = _TIME_FIRST.match(clause)
    if m is not None:
        rest = _restore_subject(clause[m.end() :])
        return clause if rest == clause[m.end() :] else f"{clause[: m.end()]}{rest}"
    first = clause.split(" ", 1)[0]
    low = first.lower()
    if not opens_without_subject(low) or len(clause.split()) <= 2:
        return clause
    if _NAMED_BY_PARTICIPLE.match(clause):
        return clause
    if low == "like" and _EXAMPLE_AFTER_LIKE.match(clause[len(first) :]):
        return clause  # "Like 'this part sums the rows'": an example, not "I like"
    if low in ADVERB_OPENERS and not _VERB_NEXT.match(clause[len(first) :]):
        return clause  # "Just last week, we found …": an adverb, and the subject follows
    verb = low if low not in ADVERB_OPENERS else clause[len(first) :].split(maxsplit=1)[0]
    if low == "been":
        subject = "I've"  # "Been reading …": "I've been reading …"
    elif GERUND.match(verb.lower()):
        subject = "I'm"  # "Just creating a place people love": "I'm just creating …"
    else:
        subject = "I"
    return f"{subject} {low}{clause[len(first) :]}"


def attribute(clause: str, voice: Voice) -> str:
    """``clause`` (first person) as a sentence about ``voice.subject``.

    A clause that says nothing of its speaker and does not open with a name of its
    own is reported as theirs: "The worst part was the wait" said by Dave is
    "Dave says the worst part was the wait.".
    """
    return attributed(clause, voice)[0]


def attributed(clause: str, voice: Voice) -> tuple[str, str]:
    """:func:`attribute`'s sentence, and the words it put before what was said to report
    it as the speaker's ("Dave says"; "" when the clause's own words name them)."""
    clause = _restore_subject(clause)
    text = _rewrite(clause, voice)
    owned = _OWNED.match(text)
    if owned is not None and owned["slot"].lower() in OWNED_SLOTS:
        # "Deadline is 15 June 2025": the speaker's deadline
        return f"{possessive(voice.subject)} {_lowered_first(text)}", ""
    if not text or _TOKEN.search(clause) or _OWN_SUBJECT.match(clause):
        return text, ""
    first = text.split(" ", 1)[0]
    word = first.rstrip(".,!?;:").lower().removesuffix("'s")
    common = (
        _COMMON_OPENER.match(first)
        or first.endswith("ing")
        or word in _VERBS
        or word in voice.common
    )
    lead = _lowered_first(text) if common else text
    return f"{voice.subject} says {lead}", f"{voice.subject} says"


def instruction(clause: str, voice: Voice) -> str:
    """An imperative said to the agent: "Keep answers short" → "The user wants the
    assistant to keep answers short."; "don't …" → "… not to …"."""
    text = re.sub(r"^please\s+|,?\s+please$", "", clause.strip(), flags=_I)
    text = re.sub(r"^(?:let's|let\s+us)\s+(?=\w)", "", text, flags=_I)  # "let's name …": name …
    m = re.match(r"^(?:don't|do\s+not|never)\s+(?P<rest>.+)$", text, _I)
    body = "not to " + m["rest"] if m is not None else "to " + _lowered_first(text)
    body = _rewrite(body, Voice(voice.subject, voice.listener, voice.team)).rstrip(".")
    body = _lowered_first(body)
    return f"{voice.subject} wants {voice.listener} {body}."


# "Deadline is …", "Flight's at 6": a bare noun, no determiner, and its verb.
_OWNED = lazyre.compile(r"^(?P<slot>[A-Z][a-z]+)(?:\s+(?:is|was|moved|got|has\s+been)\b|'s\s)")
_COMMON_OPENER = lazyre.compile(
    r"^(?:The|A|An|This|That|These|Those|It|It's|Its|There|There's|Here|What|Some|Any|No"
    r"|Every|Each|All|Both|One|Life|People|Everyone|Someone|Nothing|Something|Maybe"
    r"|Perhaps|Just|Being|Having|Making|Getting|Seeing|Doing|When|If|Once|After|Before"
    r"|Since|While|Until|Then|Now|So|Still|Even|Only|Also|Not|Too|Very|Really|Such|He|She"
    r"|Her|His|Him|They|Their|Them|We|You|Your|On|In|At|For|During|From|Last|Next|Around"
    r"|About|Almost|Mostly|Main|Most|More|Many|Much|Lots|Few|Less|Half|Pretty|Quite)$"
)
_VERBS = frozenset([*str.split(ADVICE_VERBS.replace("|", " ")), "ignore", "mark", "delete"])
# "Dana handles …", "Woodhaven is …", "Max's owner lives …": a named subject and its verb.
_OWN_SUBJECT = lazyre.compile(
    r"^(?!(?:The|A|An|This|That|These|Those|It|Its|There|Here|What|My|Our|Your|Some|Any|No"
    r"|Every|Each|All|Both|One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Twenty|Hundred"
    r"|First|Last|Next|Life|People|Everyone|Someone|Nothing|Something)\b)"
    r"(?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*(?<!ing)(?<!ly)(?:'s\s+\w+)?\s+"
    r"(?:is|was|has|had|does|did|can|will|would|could|should|may|might|must|isn't|wasn't"
    r"|doesn't|didn't|won't|can't|[a-z]+s|[a-z]+ed)\b"
)


_KIN = lazyre.compile(rf"\b(?:{RELATIVES}|family|wedding|honeymoon)\b", _I)

# A pronoun once its person is named: "they" forms, which need no agreement.
_LATER = {
    "i": "they", "i'm": "they're", "i've": "they've", "i'd": "they'd", "i'll": "they'll",
    "i am": "they are", "i was": "they were", "me": "them", "myself": "themselves",
    "my": "their", "mine": "theirs", "we": "they", "we're": "they're", "we've": "they've",
    "we'd": "they'd", "we'll": "they'll", "we are": "they are", "we were": "they were",
    "us": "them", "ourselves": "themselves", "our": "their", "ours": "theirs",
}  # fmt: skip
# The agent speaking of itself (its own notes): "I switched my notes" → "The agent
# switched its notes"; an agent is "it", never "they".
_LATER_IT = {
    "i": "it", "i'm": "it's", "i've": "it has", "i'd": "it would", "i'll": "it will",
    "i am": "it is", "i was": "it was", "me": "it", "myself": "itself", "my": "its",
    "mine": "its own",
}  # fmt: skip

# Where "you" is a subject, its verb after it: after a word that opens a clause ("if you
# see", "make sure you never do", "and then you run").
_SUBJECT_SLOT = lazyre.compile(
    r"(?:^|[,;:]\s*|\b(?:if|when|whenever|once|before|after|unless|until|so|then|because|while"
    r"|where|sure|that)\s+)$",
    _I,
)

# The verb a contraction holds, for a singular subject and for a plural one.
_SINGULAR = {"'m": "is", "'re": "is", "'ve": "has", "'d": "would", "'ll": "will",
             " am": "is", " are": "is", " was": "was", " were": "was"}  # fmt: skip
_PLURAL = {"'re": "are", "'ve": "have", "'d": "would", "'ll": "will", " are": "are",
           " were": "were"}  # fmt: skip
_YOU = {"you": "", "you're": " is", "you've": " has", "you'd": " would", "you'll": " will",
        "you are": " is", "you were": " was", "you have": " has", "yourself": ""}  # fmt: skip


def _rewrite(clause: str, voice: Voice) -> str:
    """The pronouns of ``clause`` replaced by the people they stand for."""
    said: set[str] = set()  # "i" once the speaker is named, "we" once their group is
    out: list[str] = []
    pos = 0
    # "we" with a user is their team ("we're on Python 3.11"), unless it is their family
    # ("we just had our third baby")
    team = voice.team and _KIN.search(clause) is None
    group = possessive(voice.subject) + " team" if team else f"{voice.subject} and others"
    kept = verbatim_spans(clause)
    for m in _TOKEN.finditer(clause):
        if any(start <= m.start() < end for start, end in kept):
            continue  # 'never ask me "Would you like to …?"', "/home/me": stay as written
        word = " ".join(m.group().lower().split())
        out.append(clause[pos : m.start()])
        pos = m.end()
        first = m.start() == 0
        who = "we" if word.startswith(("we", "us", "our")) else "i" if word[0] in "im" else "you"
        if who == "you":
            listener = voice.listener if first else _lower_first(voice.listener)
            if word in ("your", "yours"):
                out.append(possessive(listener))
            elif word == "yourself":  # "do it yourself": the listener, as the object
                out.append("itself" if listener.lower() == "the agent" else "themselves")
            elif word == "you" and _SUBJECT_SLOT.search(clause, 0, m.start()):
                rest, pos = _agree(clause, pos)  # "if you see it" → "if the agent sees it"
                out.append(listener + rest)
            else:
                out.append(listener + _YOU[word])
            continue
        if said and (who in said or word in ("my", "mine", "our", "ours") or who == "we"):
            # once named, "they": "Dana's wife and their trip", "Dana is glad they agree"
            if voice.subject.lower() == "the agent" and word in _LATER_IT:
                it = _LATER_IT[word]
                rest, pos = _agree(clause, pos) if word == "i" else ("", pos)
                out.append(it + rest)  # "it checks them": the verb agrees with "it"
                continue
            out.append(_LATER[word])
            continue
        said.add(who)
        name = voice.subject if who == "i" else group
        name = name if first else _lower_first(name)
        if word in ("my", "mine", "our", "ours"):
            out.append(possessive(voice.subject if first else _lower_first(voice.subject)))
        elif word in ("me", "myself", "us", "ourselves"):
            out.append(name)
        elif word in ("i", "we") and (who == "i" or team):
            rest, pos = _agree(clause, pos)
            out.append(name + rest)
        elif word == "we":
            out.append(name)
        else:
            tail = word[1:] if who == "i" else word[2:]
            table = _SINGULAR if who == "i" or team else _PLURAL
            out.append(f"{name} {table[tail]}")
    out.append(clause[pos:])
    text = "".join(out)
    # "My wife and I went": "Dana and their wife went", not "Dana's wife and they went"
    both = re.match(
        rf"^{re.escape(possessive(voice.subject))}\s+(?P<who>(?:[\w-]+\s+){{0,3}}?[\w-]+)"
        r"\s+and\s+they\b",
        text,
    )
    if both is not None:
        text = f"{voice.subject} and their {both['who']}{text[both.end() :]}"
    return _finish(text)


_ADVERB = lazyre.compile(r"^[a-z]{3,}ly$")  # "I highly recommend it": "highly" is not the verb


def _agree(clause: str, pos: int) -> tuple[str, int]:
    """The words after a new third-person subject, with its verb agreeing."""
    words: list[str] = []
    for _ in range(4):
        m = re.match(r"\s+([\w']+)", clause[pos:])
        if m is None:
            break
        pos += m.end()
        word = m.group(1)
        if (word.lower() in ADVERBS or _ADVERB.match(word)) and len(words) < 3:
            words.append(word)
            continue
        longer = re.match(r"\s+(longer)\b", clause[pos:])
        if word.lower() == "no" and longer is not None and len(words) < 3:
            words += [word, longer.group(1)]  # "I no longer have": "no" is not the verb
            pos += longer.end()
            continue
        words.append(conjugate(word))
        break
    return (" " + " ".join(words)) if words else "", pos


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;:-")
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = text.rstrip(".!?… ")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."
