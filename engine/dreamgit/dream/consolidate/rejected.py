"""What a newer sentence rejects, and what it leaves standing.

A correction names the value it replaces ("uses MySQL, not Postgres"; "… instead of
jQuery to cut the bundle size"): :func:`corrects` says whether the rejected side is all
of the older value's head and the rest is said again or not at all, and
:func:`alternative` where an "instead of" / "rather than" alternative ends (at the next
preposition or conjunction, not the purpose said after it). A switch to a third thing
leaves a preference that ranks two others standing (:func:`ranks_apart`). ``update.py``
asks these before it lets a newer value replace an older one.
"""

from __future__ import annotations

import re

from dreamgit.extract.frame import Frame
from dreamgit.extract.verbs import DETERMINERS, PREPOSITIONS
from dreamgit.textsim import canonical_word

__all__ = ["alternative", "corrects", "ranks_apart"]


def corrects(old: Frame, new: Frame) -> bool:
    """Whether the rejected side of ``new`` ("…, not 9:30") is the value ``old`` holds: all of
    it is the older value's head (its object, a number or a date), not a word said in passing
    in a qualifier, and the correction says again what else the older value says, or nothing
    else ("uses MySQL, not Postgres"). "wants the agent to run deploys from the main line, not
    a release branch" rejects no "wants branches to be named after the ticket …"."""
    if not new.rejected <= old.object | old.numbers | old.dates:
        return False
    rest = old.value - new.rejected
    return not new.phrases or rest <= new.value


#: "… instead of NLTK", "… rather than a spreadsheet": where the rejected alternative starts.
_INSTEAD = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+(?P<rest>.+)$")


def alternative(value_text: str) -> frozenset[str]:
    """The words of what "instead of" / "rather than" rejects, up to the first preposition or
    conjunction: "instead of jQuery to cut the bundle size" rejects jQuery; the purpose said
    after it is not part of the alternative."""
    m = _INSTEAD.search(value_text)
    words: list[str] = []
    for word in m["rest"].split() if m is not None else ():
        if word in PREPOSITIONS or word in _JOINS:
            break
        if word not in DETERMINERS:
            words.append(canonical_word(word))
    return frozenset(words)


#: Words that join another clause or item after the alternative.
_JOINS = frozenset({"and", "or", "but", "nor", "yet"})

#: Words that weigh a liking against another thing: "prefers Word over Google Docs".
_WEIGHED = frozenset({"over", "than"})
_PREFER = canonical_word("prefer")


def ranks_apart(old: Frame, new: Frame) -> bool:
    """ "switched from Word to Scrivener" after "prefers Word over Google Docs due to its
    formatting": the switch goes to a third thing, and says nothing of how the two the
    preference ranks compare; it still holds. A switch to the thing ranked below
    ("switched from Word to Google Docs") reverses it, and a liking that ranks nothing
    ("prefers Word") is what the switch left."""
    if old.head != _PREFER:
        return False
    below = frozenset(w for prep, words in old.phrases if prep in _WEIGHED for w in words)
    went_to = (new.names | new.object | new.value) - new.left - old.object
    return bool(below) and not below & went_to
