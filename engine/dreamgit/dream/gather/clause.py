"""A clause of a turn, and the sentence that goes on about it.

:class:`Clause` is one declarative clause, cleaned, with its kind, before it is written
as a memory. "She's called Coco" says nothing of whom alone; :func:`continuation` joins
it to the clause before, which named her, when it says something concrete itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamgit import lazyre
from dreamgit.dream.gather.narrated_time import tightened
from dreamgit.dream.gather.not_facts import REPORTED, hypothetical
from dreamgit.dream.gather.salience import NUMBER, PROPER, TITLE, kind_of
from dreamgit.dream.gather.sentence_split import MAX_CLAUSE, stripped
from dreamgit.dream.gather.words import PEP_TALK

__all__ = [
    "Clause",
    "continuation",
]

_I = re.IGNORECASE


@dataclass(frozen=True)
class Clause:
    """One declarative clause of a turn, cleaned, before attribution."""

    text: str
    kind: str
    #: The clause is an instruction to the agent (imperative, in a turn addressed to it).
    instruction: bool = False


# "She's called Coco", "It has a red roof": a sentence that goes on about what the one
# before named. Alone it says nothing of whom; joined to that sentence it is a fact.
_BACK_REFERENCE = lazyre.compile(
    r"^(?:he|she|they|it|its|his|her|their|this|that|these|those|he's|she's|they're|it's"
    r"|that's|there)\b",
    _I,
)


def continuation(before: Clause, sentence: str, *, others: tuple[str, ...] = ()) -> Clause | None:
    """``before`` joined with ``sentence`` when that sentence goes on about what ``before``
    named ("Her name is Coco") and says something itself; else None."""
    text = tightened(stripped(sentence, others).rstrip(".!…? "))
    low = text.lower()
    if before.instruction or sentence.rstrip().endswith("?") or not _BACK_REFERENCE.match(low):
        return None
    if len(before.text) + len(text) + 2 > MAX_CLAUSE or len(text.split()) < 3:
        return None
    if PEP_TALK.search(low) or hypothetical(low) or REPORTED.search(low):
        return None
    concrete = bool(PROPER.search(text) or NUMBER.search(text) or TITLE.search(text))
    if not concrete:
        return None  # "They're so much fun to play with": colour, not a fact of its own
    joined = f"{before.text}; {low[:1]}{text[1:]}"
    return Clause(joined, kind_of(joined, instruction=False))
