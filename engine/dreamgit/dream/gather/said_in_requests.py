"""What a request asks the agent to write down is a statement of the user's own.

An agent's user states how the project is while asking for a document: "write a guide
explaining that staging resets every Sunday", "add a line to the guide saying that
releases go out on Fridays", "let's be sure to mention that reviewers read slowly". The
request itself is a task of the moment and is not kept, and what it asserts was lost
with it. :func:`said_in_request` lifts that assertion by its structure: a request (an
order, "let's", "be sure to", "can you") holding a verb of saying ("explain", "say",
"mention", "note", "state", "document", "specify", "clarify") followed by "that" and a
clause with a subject of its own (not "you", not a bare "it" or "this"). The lifted
clause is an ordinary sentence, read by the same statement rules as any other, so it
gets its kind (fact, rule) from what it says.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.not_facts import IMPERATIVE, QUESTION_OPEN
from dreamgit.dream.gather.sentence_split import as_sentence
from dreamgit.dream.gather.to_the_agent import AGENT_REQUEST

__all__ = ["said_in_request"]

_I = re.IGNORECASE

# How a request opens: an order, "let's …", "be sure to …", a polite question.
_REQUEST_OPEN = lazyre.compile(
    r"^(?:(?:also|and|so|ok|okay|now|then|next|great|please)[,\s]+)*"
    r"(?:let's|lets|let\s+us|be\s+sure\s+to|make\s+sure\s+to|can\s+you|could\s+you|please)\b",
    _I,
)
# A verb of saying and "that": what follows is what the user wants written as true.
_SAYING_THAT = lazyre.compile(
    r"\b(?:explain|explaining|explains|say|saying|says|mention|mentioning|note|noting"
    r"|state|stating|document|documenting|specify|specifying|clarify|clarifying"
    r"|describe|describing|stress|stressing|emphasi[sz]e|emphasi[sz]ing)\s+that\s+",
    _I,
)
# Where the asserted clause ends: a sentence stop, a semicolon, or the request going on
# ("…, and then commit it").
_CLAUSE_END = lazyre.compile(
    r"\s*(?:[;?!]|\.(?=\s|$)|,?\s+(?:and\s+)?then\s+|,\s+(?:so|but|which|while)\s+)", _I
)
# A subject the memory could not name on its own, or the agent itself: "explain that it
# failed", "mention that you fixed it" report this session's work.
_NO_SUBJECT = lazyre.compile(
    r"^(?:you|you're|you've|your|it|it's|this|that|these|those|there|here|we've|i've)\b", _I
)
# A subject written as code ("`pgbouncer` sits in front …"): a name, kept as written.
_CODE_NAME = lazyre.compile(r"^`([^`\s]{1,60})`")
_SHORTEST_WORDS = 4
_LONGEST = 240


def said_in_request(sentence: str) -> list[str]:
    """The clauses a request ``sentence`` asks to be written as true, each as a sentence
    of its own ("Staging resets every Sunday."), in the order said; nothing for a
    sentence that requests nothing or says nothing that way."""
    if not _is_request(sentence):
        return []
    out: list[str] = []
    for m in _SAYING_THAT.finditer(sentence):
        rest = sentence[m.end() :]
        end = _CLAUSE_END.search(rest)
        clause = (rest[: end.start()] if end is not None else rest).strip(" ,")
        if (
            len(clause.split()) < _SHORTEST_WORDS
            or len(clause) > _LONGEST
            or _NO_SUBJECT.match(clause)
            or IMPERATIVE.match(clause)
            or QUESTION_OPEN.match(clause)
        ):
            continue
        named = _CODE_NAME.match(clause)
        if named is not None:  # "`pgbouncer` sits …": a name as written, its marks dropped
            out.append(named[1] + clause[named.end() :].rstrip(" .") + ".")
            continue
        out.append(as_sentence(clause))
    return out


def _is_request(sentence: str) -> bool:
    """Whether ``sentence`` asks the agent for something (an order or a polite ask)."""
    text = sentence.strip()
    return bool(_REQUEST_OPEN.match(text) or IMPERATIVE.match(text) or AGENT_REQUEST.match(text))
