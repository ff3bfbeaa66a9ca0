"""A kind of word set made for many texts at once, half of them in a forked child, when
none was kept: a dream's first run over a store, or its first after an upgrade.

Gathering asks a kept index which known texts hold each word of a run's new statements
(``store/keptpostings.py``); a text the index has not seen is read then, one at a time,
and over a store's first dream that is every text: 100,000 memories' content words were
~1.1 s of CPU, work that shares nothing between texts. :class:`ReadAhead` stands between
a kind's memo (``frame_memo.Memo``) and its index: when the memo had nothing kept, the
first asking reads the sets of the texts not met yet with ``store/forkhalves.in_two``
(the second half in a child, sent back pickled), and the memo takes each made set when
it would have read that text, so it keeps the same sets, saved as before. Gathering's
asking at 100,000 memories took 1.86 s of this process's CPU, 1.58 s so (the memo's
encoding and the index's posting stay here). A memo that had sets kept (every later
dream) never reads ahead, and so never forks. Same sets either way: a word set is a
function of its text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from contextvars import ContextVar
from typing import Any, Generic, TypeVar

from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.dream.gather.sharing import Holders
from dreamgit.store.forkhalves import SPLIT_AT, can_fork, in_two

__all__ = ["ReadAhead"]

T = TypeVar("T")

#: A reading's keeper: a text, and how to read it when nothing was kept.
Keeper = Callable[[str, Callable[[str], T]], T]
_NOTHING: Any = object()


class ReadAhead(Generic[T]):
    """What a kind's keeper and index hold while a dream reads ``memo``'s sets: ``fresh``
    reads a text's set afresh while the kind's ``keeper`` is unset; ``cold`` says the memo
    had nothing kept (only then are sets read ahead)."""

    def __init__(
        self,
        memo: Memo[T],
        index: Holders,
        fresh: Callable[[str], T],
        keeper: ContextVar[Keeper[T] | None],
        *,
        cold: bool,
    ) -> None:
        self._memo, self._index, self._fresh, self._keeper = memo, index, fresh, keeper
        self._cold = cold
        #: sets read ahead and not taken by the memo yet
        self._made: dict[str, T] = {}
        #: texts read ahead or asked of the memo: never read ahead (again)
        self._met: set[str] = set()

    def read(self, text: str, compute: Callable[[str], T]) -> T:
        """The keeper: ``text``'s set from the memo, which takes the one made ahead, if
        any, where it would have read the text."""
        if self._cold:
            self._met.add(text)
            made = self._made.pop(text, _NOTHING)
            if made is not _NOTHING:
                return self._memo.read(text, lambda _text: made)
        return self._memo.read(text, compute)

    def holders(
        self, texts: Sequence[str], words: AbstractSet[str], read: Callable[[str], Iterable[str]]
    ) -> dict[str, list[int]]:
        """The index's answer (``sharing.Holders``), the sets of the texts not met yet read
        ahead first when the memo had nothing kept and they are many."""
        if self._cold:
            self._read_ahead(texts)
        return self._index(texts, words, read)

    def _read_ahead(self, texts: Sequence[str]) -> None:
        met = self._met
        unmet = [t for t in dict.fromkeys(texts) if t not in met]
        if len(unmet) < SPLIT_AT or not can_fork():  # one process: no gain in reading ahead
            return
        met.update(unmet)
        made = in_two(unmet, self._afresh, at_least=SPLIT_AT)
        self._made.update(zip(unmet, made, strict=True))

    def _afresh(self, texts: Sequence[str]) -> list[T]:
        """The sets of ``texts`` read afresh, the kind's keeper unset: in the child nothing
        may touch the memo's database (it exits with nothing saved), and here each is
        given to the memo when asked for."""
        token = self._keeper.set(None)
        try:
            return list(map(self._fresh, texts))
        finally:
            self._keeper.reset(token)
