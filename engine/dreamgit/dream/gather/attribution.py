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

__all__ = ["Voice", "attribute", "instruction", "possessive"]

_I = re.IGNORECASE
_TOKEN = re.compile(
    r"\b(?:i'm|i've|i'd|i'll|i\s+am|i\s+was|i|me|my|mine|myself|we're|we've|we'd|we'll|we\s+are"
    r"|we\s+were|we|us|our|ours|ourselves|you're|you've|you'd|you'll|you\s+are|you\s+were"
    r"|you\s+have|you|your|yours"
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


#: Words that open a clause whose subject "I" went unsaid ("Got to see the old town").
_BARE_OPENERS = frozenset(
    """got went had made took checked saw met bought found love loved hope think guess
    gonna wanna gotta been can't cannot just still also really wish want need feel felt
    miss missed like liked started finished tried learned visited joined spent
    decided did didn't don't won lost ran read wrote began built used am was will would
    could should""".split()
)


def _restore_subject(clause: str) -> str:
    """ "Got to see the old town" → "I got to see the old town"."""
    first = clause.split(" ", 1)[0]
    low = first.lower()
    bare = low in _BARE_OPENERS or (low.endswith("ed") and len(low) > 4)
    return f"I {low}{clause[len(first) :]}" if bare and len(clause.split()) > 2 else clause


def attribute(clause: str, voice: Voice) -> str:
    """``clause`` (first person) as a sentence about ``voice.subject``.

    A clause that says nothing of its speaker and does not open with a name of its
    own is reported as theirs: "The worst part was the wait" said by Dave is
    "Dave says the worst part was the wait.".
    """
    clause = _restore_subject(clause)
    text = _rewrite(clause, voice)
    if not text or _TOKEN.search(clause) or _OWN_SUBJECT.match(clause):
        return text
    first = text.split(" ", 1)[0]
    common = _COMMON_OPENER.match(first) or first.endswith("ing")
    lead = text[0].lower() + text[1:] if common else text
    return f"{voice.subject} says {lead}"


def instruction(clause: str, voice: Voice) -> str:
    """An imperative said to the agent: "Keep answers short" → "The user wants the
    assistant to keep answers short."; "don't …" → "… not to …"."""
    text = re.sub(r"^please\s+|,?\s+please$", "", clause.strip(), flags=_I)
    m = re.match(r"^(?:don't|do\s+not|never)\s+(?P<rest>.+)$", text, _I)
    if m is not None:
        body = "not to " + m["rest"]
    else:
        body = "to " + text[0].lower() + text[1:]
    body = _rewrite(body, Voice(voice.subject, voice.listener, voice.team)).rstrip(".")
    body = body[0].lower() + body[1:]
    return f"{voice.subject} wants {voice.listener} {body}."


_COMMON_OPENER = re.compile(
    r"^(?:The|A|An|This|That|These|Those|It|It's|Its|There|There's|Here|What|Some|Any|No"
    r"|Every|Each|All|Both|One|Life|People|Everyone|Someone|Nothing|Something|Maybe"
    r"|Perhaps|Just|Being|Having|Making|Getting|Seeing|Doing|When|If|Once|After|Before"
    r"|Since|While|Until|Then|Now|So|Still|Even|Only|Also|Not|Too|Very|Really|Such|He|She"
    r"|Her|His|Him|They|Their|Them|We|You|Your)$"
)
# "Dana handles …", "Woodhaven is …", "Max's owner lives …": a named subject and its verb.
_OWN_SUBJECT = re.compile(
    r"^(?!(?:The|A|An|This|That|These|Those|It|Its|There|Here|What|My|Our|Your|Some|Any|No"
    r"|Every|Each|All|Both|One|Life|People|Everyone|Someone|Nothing|Something)\b)"
    r"(?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*(?<!ing)(?<!ly)(?:'s\s+\w+)?\s+"
    r"(?:is|was|has|had|does|did|can|will|would|could|should|may|might|must|isn't|wasn't"
    r"|doesn't|didn't|won't|can't|[a-z]+s|[a-z]+ed)\b"
)


def _rewrite(clause: str, voice: Voice) -> str:
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
                 "you are": f"{listener} is", "you were": f"{listener} was",
                 "you have": f"{listener} has",
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
