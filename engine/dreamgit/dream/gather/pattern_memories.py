"""The pattern path of gathering: a user's sentence the explicit patterns recognise, as memories.

:mod:`.explicit` finds what a short sentence of the user states outright (name, home,
tools, changes, near dates, "remember that …"); this module turns each find into a
memory with a kind, the top salience and the subject it is about ("Lives in Berlin."
becomes "The user lives in Berlin.", or the name the user gave), and learns that name
for what the session says next.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.dates import resolve_dates
from dreamgit.dream.gather.explicit import explicit_candidates
from dreamgit.dream.gather.phrasing import finish
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.lexicon import lookup_tool
from dreamgit.extract.names import possessive
from dreamgit.extract.speakers import USER

__all__ = ["pattern_candidates"]

_PATTERN_KINDS = {
    "identity": "fact",
    "preferences": "preference",
    "tools": "fact",
    "projects": "fact",
    "decisions": "decision",
    "schedule": "plan",
    "notes": "fact",
    "facts": "fact",
}
#: Explicit statements a pattern recognised rank above any general statement.
_PATTERN_SALIENCE = 6.0
# A pattern's sentence that opens with its verb ("Lives in …", "No longer uses …").
# "Uses Vim", "Mostly uses PyTorch": a pattern's memory opens with its verb, or an adverb
_VERB_FIRST = lazyre.compile(
    r"^(?:[A-Z][a-z']*(?:s|ed)|No|Always|Never|Is|Has|Wants|Doesn't|Don't|Mostly|Mainly"
    r"|Usually|Often|Sometimes|Primarily|Also|Still|Currently|Generally|Typically|Rarely|Really"
    r"|Just|Definitely|Strongly|Totally|Had|Got|Went|Made|Took|Saw|Met|Bought|Found|Did|Won|Lost"
    r"|Ran|Wrote|Began|Built|Spent|Sold|Gave)$"
)
# "Will go with Redis.", "Should never push to main.": a modal and the verb it governs (not
# "Will is …", a person named Will).
_MODAL_FIRST = lazyre.compile(
    r"^(?:Will|Would|Can|Could|Should|Must|Might|Shall)\s+(?:(?:not|never|also|still|just|"
    r"probably|definitely)\s+)?(?!is\b|was\b|has\b|and\b|or\b|[a-z]*[^su]s\b)[a-z]+\b"
)
_NAME_IS = lazyre.compile(r"\bname is (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\.$")


_TRAILING_FILLER = lazyre.compile(
    r"[,;]?\s+(?:by\s+the\s+way|btw|haha+|lol|as\s+always|you\s+know|fyi)(?=\.$)", re.I
)


def _about(text: str, subject: str) -> str:
    """A pattern's subjectless memory ("Lives in Berlin.") about ``subject``, filler dropped."""
    text = _TRAILING_FILLER.sub("", text)
    if text.startswith("User's "):
        return possessive(subject) + text[len("User") + 2 :]
    if text.startswith("Their "):
        return possessive(subject) + " " + text[len("Their ") :]
    first = text.split(" ", 1)[0].rstrip(":")  # "Decided: …" opens with its verb too
    verb_first = _VERB_FIRST.match(first) is not None or _MODAL_FIRST.match(text) is not None
    if not verb_first or lookup_tool(first.rstrip(".,")) is not None:
        return text  # "The staging server is …": the sentence names its own subject
    return f"{subject} {text[0].lower()}{text[1:]}"


def pattern_candidates(
    sentence: str, subject: str, session_id: str, created: datetime, *, learn_name: bool
) -> tuple[list[Candidate], str]:
    """The explicit statements of a user's sentence, and who the user is now known as."""
    found = explicit_candidates(sentence, session_id, created)
    if learn_name:
        named = next((_NAME_IS.search(c.text) for c in found if c.key == "user.name"), None)
        if named is not None:
            subject = named["name"].split()[0]
    out = []
    for c in found:
        kind = "correction" if c.pattern.startswith("correction+") else _PATTERN_KINDS[c.topic]
        if c.pattern == "instruction":
            kind = "instruction"  # "Never push to main": how the agent is to work
        if c.change is not None and kind == "fact":
            kind = "correction"
        about = "The user" if c.key == "user.name" else subject
        text = _about(c.text, about)
        if c.key is None:  # "is currently using Python 3.11": as of the session's day
            dated, changed = resolve_dates(text, created)
            text = finish(dated) if changed else text
        out.append(
            replace(
                c,
                text=text,
                kind=kind,
                salience=_PATTERN_SALIENCE,
                speaker=USER,
                subject=about,
            )
        )
    return out, subject
