"""Which known texts hold each word of a run's new statements, by gathering's content words.

Gathering compares a run's statements with the known memories that share a word with
them (the others can be neither the closest memory nor a twin): of 100,000 memories,
most share none. Inside ``dream/word_memo.py``'s block a kept index of which texts hold
each content word answers (``store/keptpostings.py``), as one of which texts hold each of
the duplicate finder's features does for it (``extract/holders.py``, whose asking is
the same and is named here too for gathering's modules); outside it every text is read.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from dreamgit.extract.holders import FEATURE_HOLDERS, Holders, holders

__all__ = [
    "CONTENT_HOLDERS",
    "CONTENT_WORDS_DONE",
    "FEATURE_HOLDERS",
    "Holders",
    "done_with_content_words",
    "holders",
]

#: By gathering's content words (``compact.content_words``).
CONTENT_HOLDERS: ContextVar[Holders | None] = ContextVar("dreamgit_content_holders", default=None)
#: Called when gathering has compared its statements with the known memories: no one
#: asks for content words after it, and what keeps them for a dream (``word_memo.py``)
#: saves them then and lets them go (over 100,000 memories, tables of every text held
#: to the dream's end).
CONTENT_WORDS_DONE: ContextVar[Callable[[], None] | None] = ContextVar(
    "dreamgit_content_words_done", default=None
)


def done_with_content_words() -> None:
    """Say that gathering asks for no more content words (:data:`CONTENT_WORDS_DONE`)."""
    done = CONTENT_WORDS_DONE.get()
    if done is not None:
        done()
