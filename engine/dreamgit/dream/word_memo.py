"""Each memory's word sets read once, then kept between runs (``store/keptframes.py``).

A dream reads the words of every memory twice over: the duplicate finder's features
(``textsim.features``) and gathering's content words (``gather/compact.content_words``,
what a new statement is checked against); over 10,000 memories that is a tenth of a
second each, and all but the new and changed memories read as in the run before. Inside
:func:`keeping_words` (the dream's plan opens it) a text's word set is taken from the
kept ones (``features.sqlite3`` and ``content-words.sqlite3`` in the git directory, each
tagged with a fingerprint of the code that reads it), and the sets read anew are saved
when the block ends, or, content words, when gathering says it is done with them
(``sharing.CONTENT_WORDS_DONE``): their tables are let go then, not held through
consolidation (a cold dream at 100,000 memories held 22 MB less after gathering). Which
known texts hold each word of a run's new statements is asked of a kept index of each
kind (``store/keptpostings.py``, ``gather/sharing.py``), so only those texts' sets are
read; when no content words were kept (a store's first dream), the first asking reads
those of every text at once in two processes (``read_ahead.py``). Outside it every text
is read afresh. Same answers either way.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple

from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.dream.gather.compact import WORDS_KEEPER, content_words
from dreamgit.dream.gather.sharing import (
    CONTENT_HOLDERS,
    CONTENT_WORDS_DONE,
    FEATURE_HOLDERS,
    Holders,
)
from dreamgit.dream.read_ahead import ReadAhead
from dreamgit.jsontext import as_json
from dreamgit.store.keptframes import KeptReadings, code_fingerprint
from dreamgit.store.keptpostings import KeptPostings
from dreamgit.store.lookedreadings import LookedUpReadings
from dreamgit.textsim import FEATURE_KEEPER

__all__ = ["keeping_words"]

_PACKAGE = Path(__file__).resolve().parents[1]
#: The source each word set depends on (relative to the package).
_FEATURES_BY = ("textsim.py", "lazyre.py")
_CONTENT_BY = ("dream/gather", "extract", "textsim.py", "lazyre.py")

_Build = Callable[[Iterable[str]], Any]


class _Kind(NamedTuple):
    """A kind of word set."""

    name: str
    #: the source it depends on
    read_by: tuple[str, ...]
    #: the context variables of its kept sets and of its kept index
    keeper: ContextVar[Any]
    holders: ContextVar[Holders | None]
    #: how a kept set is built again
    build: _Build
    #: how a text's set is read afresh while the keeper is unset (None: never read ahead)
    fresh: Callable[[str], Any] | None
    #: where its only reader says it is done with it, to save and let it go then (None:
    #: kept to the block's end)
    done: ContextVar[Callable[[], None] | None] | None = None


class _SetCodec:
    """A set of words as a sorted JSON list, and back as ``build`` makes it."""

    def __init__(self, build: Callable[[Iterable[str]], Any]) -> None:
        self._build = build

    def encode(self, words: Any) -> str:
        return as_json(sorted(words))

    def decode(self, text: str) -> Any:
        words = json.loads(text)
        if not isinstance(words, list):
            raise ValueError("a kept word set of another shape")
        # One string per word, shared by every set that holds it: the features of 100,000
        # memories are kept to the end of a dream (``textsim.features``'s cache), and
        # their words decoded apart were 66 MB of strings (a word not a string is a
        # TypeError: another shape).
        return self._build(map(sys.intern, words))


class _KeptInUse(KeptReadings):
    """Kept readings of which a text the kept index was asked about is in use, read or
    not (its words were not needed: it shares none with the run's new statements)."""

    def __init__(self, git_dir: Path, *, fingerprint: str, kind: str, index: KeptPostings):
        super().__init__(git_dir, fingerprint=fingerprint, kind=kind)
        self._index = index
        #: how many readings were kept when the memo opened them (None: not opened)
        self.held: int | None = None

    def looked_up(self) -> LookedUpReadings:
        looked = super().looked_up()
        self.held = len(looked)
        return looked

    def save(self, added: Mapping[str, str], unused: Iterable[str], total: int) -> None:
        super().save(added, [t for t in unused if not self._index.asked(t)], total)


class _KindInUse:
    """One kind's memo and index while a dream reads through them: its keeper and index
    set, until :meth:`finish` saves what was read anew (``save``) and lets them go."""

    def __init__(self, git_dir: Path, kind: _Kind, fingerprint: str) -> None:
        self._keeper, self._shares = kind.keeper, kind.holders
        index = KeptPostings(git_dir, fingerprint=fingerprint, kind=kind.name)
        kept = _KeptInUse(git_dir, fingerprint=fingerprint, kind=kind.name, index=index)
        memo: Memo[Any] = Memo(kept, _SetCodec(kind.build))
        reads: tuple[Any, Holders] = (memo.read, index.holders)
        if kind.fresh is not None:
            ahead = ReadAhead(memo, index.holders, kind.fresh, kind.keeper, cold=not kept.held)
            reads = (ahead.read, ahead.holders)
        self._tokens = (self._keeper.set(reads[0]), self._shares.set(reads[1]))
        #: what is in use, None once let go
        self._open: tuple[Memo[Any], KeptPostings, _KeptInUse] | None = (memo, index, kept)

    def finish(self, *, save: bool = True) -> None:
        """Save the sets and postings read anew (``save``), then let them go and read
        afresh from here on; once (a kind let go early is not saved at the block's end)."""
        if self._open is None:
            return
        memo, index, kept = self._open
        self._open = None
        try:
            if save:
                memo.save()
                index.save()
        finally:
            kept.close()
            # unset, not reset: the block resets each token at its end
            self._keeper.set(None)
            self._shares.set(None)

    def reset(self) -> None:
        """The context variables as they were before this kind was in use."""
        keeper, shares = self._tokens
        self._shares.reset(shares)
        self._keeper.reset(keeper)


@contextmanager
def keeping_words(git_dir: Path) -> Iterator[None]:
    """Read texts' features and content words through the sets kept in ``git_dir``, and
    which texts share a word through the kept index of each; save the new ones at the end,
    content words when gathering is done with them (a kind whose code cannot be read to
    fingerprint is read afresh)."""
    kinds: list[_Kind] = [
        # not read ahead: the texts' tokens, cached by textsim.tokenize as their features
        # are read, are read again by the frames and the guards; read in a child, they were
        # tokenized again here (at 100,000 memories 0.7 s of the 0.8 s the child saved)
        _Kind("features", _FEATURES_BY, FEATURE_KEEPER, FEATURE_HOLDERS, frozenset, None),
        _Kind(
            "content-words",
            _CONTENT_BY,
            WORDS_KEEPER,
            CONTENT_HOLDERS,
            set,
            content_words,
            done=CONTENT_WORDS_DONE,  # gathering's alone
        ),
    ]
    in_use: list[_KindInUse] = []
    with ExitStack() as undo:
        for kind in kinds:
            try:
                fingerprint = code_fingerprint(_PACKAGE, kind.read_by)
            except OSError:  # the source cannot be read (a zipped install): not kept
                continue
            each = _KindInUse(git_dir, kind, fingerprint)
            undo.callback(each.reset)
            undo.callback(each.finish, save=False)  # runs first: the kept readings closed
            in_use.append(each)
            if kind.done is not None:
                undo.callback(kind.done.reset, kind.done.set(each.finish))
        yield
        for each in in_use:
            each.finish()
