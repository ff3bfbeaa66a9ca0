"""Whose: a clause a person said, rewritten as a memory that names them first.

"I went to a support group yesterday" said by Caroline on 8 May 2023 becomes
"Caroline went to a support group on 7 May 2023.". The first "I" becomes the
speaker (the verb agrees: "I love" → "Caroline loves"), later ones "they";
"my" becomes "Caroline's", then "their"; "we" becomes "Caroline and others" in a
chat between people and "the user's team" when a user talks to an agent; "you"
is the listener: the other person's name, or "the assistant". An agent's
sessions with one user say "The user" until the user's name is known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamgit.dream.gather.phrasing import ADVERBS, conjugate

__all__ = ["Voice", "attribute", "possessive"]

_I = re.IGNORECASE
_TOKEN = re.compile(
    r"\b(?:i'm|i've|i'd|i'll|i\s+am|i\s+was|i|me|my|mine|myself|we're|we've|we'd|we'll|we\s+are"
    r"|we\s+were|we|us|our|ours|ourselves|you're|you've|you'd|you'll|you|your|yours"
    r"|yourself)(?![\w'])",
    _I,
)


@dataclass(frozen=True)
class Voice:
    """Who speaks and to whom: the names a clause's pronouns stand for."""

    subject: str  # "Caroline", "The user", "Marco"
    listener: str  # "Melanie", "the assistant"
    #: "we" is a team (a user talking to an agent) rather than a group of people.
    team: bool = False


def possessive(name: str) -> str:
    """ "Caroline" → "Caroline's", "James" → "James'"."""
    return name + ("'" if name.endswith("s") else "'s")


def _lower_first(name: str) -> str:
    return name[0].lower() + name[1:] if name.startswith("The ") else name


def attribute(clause: str, voice: Voice) -> str:
    """``clause`` (first person) as a sentence about ``voice.subject``."""
    named = False
    we_named = False
    out: list[str] = []
    pos = 0
    subject = voice.subject
    group = possessive(subject) + " team" if voice.team else f"{subject} and others"
    for m in _TOKEN.finditer(clause):
        word = " ".join(m.group().lower().split())
        start = m.start()
        out.append(clause[pos:start])
        pos = m.end()
        head = subject if start == 0 else _lower_first(subject)
        if word in ("i", "i'm", "i've", "i'd", "i'll", "i am", "i was"):
            if named:
                out.append({"i": "they", "i'm": "they're", "i've": "they've", "i'd": "they'd",
                            "i'll": "they'll", "i am": "they are", "i was": "they were"}[word])
                continue
            named = True
            if word == "i":
                rest, pos = _agree(clause, pos)
                out.append(head + rest)
            else:
                verb = {"i'm": "is", "i've": "has", "i'd": "would", "i'll": "will",
                        "i am": "is", "i was": "was"}[word]  # fmt: skip
                out.append(f"{head} {verb}")
        elif word in ("me", "myself"):
            out.append("them" if named else head)
            named = True
        elif word in ("my", "mine"):
            out.append(("their" if word == "my" else "theirs") if named else possessive(head))
            named = True
        elif word.startswith("we") or word in ("us", "our", "ours", "ourselves"):
            g = group if start == 0 else _lower_first(group)
            if word in ("our", "ours"):
                out.append("their" if we_named else possessive(head))
            elif word in ("us", "ourselves"):
                out.append("them" if we_named else g)
            elif we_named:
                out.append({"we": "they", "we're": "they're", "we've": "they've",
                            "we'd": "they'd", "we'll": "they'll", "we are": "they are",
                            "we were": "they were"}[word])  # fmt: skip
            elif voice.team:
                verb = {"we": "", "we're": " is", "we've": " has", "we'd": " would",
                        "we'll": " will", "we are": " is", "we were": " was"}[word]  # fmt: skip
                if word == "we":
                    rest, pos = _agree(clause, pos)
                    out.append(g + rest)
                else:
                    out.append(g + verb)
            else:
                out.append(g + word[2:].replace("'re", " are").replace("'ve", " have")
                           .replace("'d", " would").replace("'ll", " will"))
            we_named = True
        else:
            listener = voice.listener
            out.append(
                {"you": listener, "you're": f"{listener} is", "you've": f"{listener} has",
                 "you'd": f"{listener} would", "you'll": f"{listener} will",
                 "your": possessive(listener), "yours": possessive(listener),
                 "yourself": listener}[word]  # fmt: skip
            )
    out.append(clause[pos:])
    return _finish("".join(out))


def _agree(clause: str, pos: int) -> tuple[str, int]:
    """The words after a new third-person subject, with its verb agreeing."""
    words: list[str] = []
    for _ in range(4):
        m = re.match(r"\s+([\w']+)", clause[pos:])
        if m is None:
            break
        pos += m.end()
        word = m.group(1)
        if word.lower() in ADVERBS and len(words) < 3:
            words.append(word)
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
