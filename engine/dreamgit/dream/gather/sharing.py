"""Which known texts hold each word of a run's new statements, by gathering's content words.

Gathering compares a run's statements with the known memories that share a word with
them (the others can be neither the closest memory nor a twin): of 100,000 memories,
most share none. Inside ``dream/word_memo.py``'s block a kept index of which texts hold
each content word answers (``store/keptpostings.py``), as one of which texts hold each of
the duplicate finder's features does for it (``extract/holders.py``, whose asking is
the same and is named here too for gathering's modules); outside it every text is read.
"""

from __future__ import annotations

from contextvars import ContextVar

from dreamgit.extract.holders import FEATURE_HOLDERS, Holders, holders

__all__ = ["CONTENT_HOLDERS", "FEATURE_HOLDERS", "Holders", "holders"]

#: By gathering's content words (``compact.content_words``).
CONTENT_HOLDERS: ContextVar[Holders | None] = ContextVar("dreamgit_content_holders", default=None)
