"""A sentence that only adds an item to what the sentence before listed.

An agent's user describes a feature in a run of sentences, the later ones no more than
items: "the photos page groups photos by event. and a like button that counts likes.
and a download option for the whole album." Such a sentence has no verb of its own (a
coordinator, an article, a noun phrase, then perhaps a relative clause about it) and
alone is no statement: "The user says a like button that counts likes." is a fragment.
:func:`more_of_a_list` tells it by that shape; :func:`listed_on` adds it to the clause
before, which said what the items are of.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.clause import Clause
from dreamgit.dream.gather.sentence_split import MAX_CLAUSE

__all__ = ["listed_on", "more_of_a_list"]

_I = re.IGNORECASE

# "and a like button", "plus an export option": a coordinator, then an article and the
# item's head (up to four words), up to where a clause about it may begin.
_ITEM = lazyre.compile(
    r"^(?:and|plus)\s+(?:a|an|another)\s+(?P<head>[^\s,;]+(?:\s+[^\s,;]+){0,3}?)"
    r"(?=\s+(?:that|which|who|where|for|to|with|so)\b|[,;.!]|\s*$)",
    _I,
)
# A verb in the head, or the speaker in the sentence: "and a friend told me …" is a
# statement of its own.
_VERB_OR_SPEAKER = lazyre.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|should|must|will|would|can|could|may|might"
    r"|do|does|did|need|needs|[a-z]+ed)\b|\b(?:i|i'm|me|my|we|our|us)\b",
    _I,
)


def more_of_a_list(sentence: str) -> bool:
    """Whether ``sentence`` is only one more item of a list said before it."""
    text = sentence.strip()
    m = _ITEM.match(text)
    if m is None:
        return False
    return _VERB_OR_SPEAKER.search(m["head"]) is None and not re.search(
        r"\b(?:i|i'm|me|my|we|our|us)\b", text, _I
    )


def listed_on(before: Clause, sentence: str) -> Clause | None:
    """``before`` with the item ``sentence`` adds, as one clause; None when too long."""
    item = sentence.strip().rstrip(".!… ")
    text = f"{before.text.rstrip('.!… ')}, {item[:1].lower()}{item[1:]}"
    return None if len(text) > MAX_CLAUSE else Clause(text, before.kind, before.instruction)
