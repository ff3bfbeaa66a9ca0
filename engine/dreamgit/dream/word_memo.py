"""Each memory's word sets read once, then kept between runs (``store/keptframes.py``).

A dream reads the words of every memory twice over: the duplicate finder's features
(``textsim.features``) and gathering's content words (``gather/compact.content_words``,
what a new statement is checked against); over 10,000 memories that is a tenth of a
second each, and all but the new and changed memories read as in the run before. Inside
:func:`keeping_words` (the dream's plan opens it) a text's word set is taken from the
kept ones (``features.sqlite3`` and ``content-words.sqlite3`` in the git directory, each
tagged with a fingerprint of the code that reads it), and the sets read anew are saved
when the block ends. Outside it every text is read afresh. Same answers either way.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from dreamgit.dream.consolidate.frame_memo import Memo
from dreamgit.dream.gather.compact import WORDS_KEEPER
from dreamgit.store.keptframes import KeptReadings, code_fingerprint
from dreamgit.textsim import FEATURE_KEEPER

__all__ = ["keeping_words"]

_PACKAGE = Path(__file__).resolve().parents[1]
#: The source each word set depends on (relative to the package).
_FEATURES_BY = ("textsim.py", "lazyre.py")
_CONTENT_BY = ("dream/gather", "extract", "textsim.py", "lazyre.py")


class _SetCodec:
    """A set of words as a sorted JSON list, and back as ``build`` makes it."""

    def __init__(self, build: Callable[[Iterable[str]], Any]) -> None:
        self._build = build

    def encode(self, words: Any) -> str:
        return json.dumps(sorted(words), ensure_ascii=False)

    def decode(self, text: str) -> Any:
        words = json.loads(text)
        if not isinstance(words, list):
            raise ValueError("a kept word set of another shape")
        # One string per word, shared by every set that holds it: the features of 100,000
        # memories are kept to the end of a dream (``textsim.features``'s cache), and
        # their words decoded apart were 66 MB of strings (a word not a string is a
        # TypeError: another shape).
        return self._build(map(sys.intern, words))


@contextmanager
def keeping_words(git_dir: Path) -> Iterator[None]:
    """Read texts' features and content words through the sets kept in ``git_dir``; save
    the new ones at the end (a kind whose code cannot be read to fingerprint is read
    afresh)."""
    kinds: list[tuple[str, tuple[str, ...], ContextVar[Any], Callable[[Iterable[str]], Any]]] = [
        ("features", _FEATURES_BY, FEATURE_KEEPER, frozenset),
        ("content-words", _CONTENT_BY, WORDS_KEEPER, set),
    ]
    memos: list[Memo[Any]] = []
    with ExitStack() as undo:
        for kind, read_by, keeper, build in kinds:
            try:
                fingerprint = code_fingerprint(_PACKAGE, read_by)
            except OSError:  # the source cannot be read (a zipped install): not kept
                continue
            kept = KeptReadings(git_dir, fingerprint=fingerprint, kind=kind)
            memo: Memo[Any] = Memo(kept, _SetCodec(build))
            token = keeper.set(memo.read)
            undo.callback(keeper.reset, token)
            memos.append(memo)
        yield
        for memo in memos:
            memo.save()
