"""What the count check reads from one memory's text, and the hook that keeps it.

The count check (``counts.py``) reads each memory's numbers (:class:`Quantity`: what it
counts, the setting it is the value of, whether it was said as a change), names, dates and
words: a :class:`CountReading`, a function of the text alone and of the code. While a
dream plans, ``count_memo.py`` sets :data:`COUNT_KEEPER` so that a text read in a run
before is taken from what was kept in the git directory instead of being read again.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["COUNT_KEEPER", "CountKeeper", "CountReading", "Quantity"]


@dataclass(frozen=True)
class Quantity:
    """One number of a sentence with what it counts and how it was said."""

    number: str  #: the number as the signature writes it ("1200", "78")
    counted: tuple[str, ...]  #: canonical words of the counted noun phrase, head last
    rate: str  #: the word it is per ("day"), or ""
    percent: bool
    setting: frozenset[str]  #: the noun phrase it is the value of ("daily quota")
    before: frozenset[str]  #: canonical content words of its clause before the number
    qualifier: frozenset[str]  #: words of the phrase right after the counted noun
    owner: frozenset[str]  #: whose it is, said before it ("the budget for Vega is")
    changed: bool  #: said as a change or as the value now
    verb: str  #: the nearest verb before it in its clause, canonical ("have", "install")
    increment: bool  #: "3 more": an addition, not a count
    total: bool = False  #: said as the whole count now ("a total of 10", "now has 10")
    head: str = ""  #: the setting's head noun, canonical ("productivity"), or ""


@dataclass(frozen=True)
class CountReading:
    """A text's sentence as a fact, with its counts, names, dates and words."""

    fact: str  #: the first sentence as a fact, as the frame reads it
    quantities: tuple[Quantity, ...]
    names: frozenset[str]  #: capitalised words inside the sentence, lower case
    dates: frozenset[str]  #: the dates its signature reads
    words: frozenset[str]  #: every word of the sentence, lower case


#: Reads a text's count reading from what was kept between processes, or by the second
#: argument (the reader), which it calls for a text not kept yet.
CountKeeper = Callable[[str, Callable[[str], CountReading | None]], CountReading | None]
COUNT_KEEPER: ContextVar[CountKeeper | None] = ContextVar("dreamgit_count_keeper", default=None)
