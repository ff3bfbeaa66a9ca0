"""Which earlier memories the count check compares a count with, found by position.

The count check (``counts.py``) walks memories in time order and compares each count
with the last ``WINDOW`` earlier memories that count the same word (or the same whole
phrase), and with those said at the same moment. Filtering every memory that counts
"users" or "days" for the ones before the current one made the check quadratic in the
store (100,000 memories hold thousands of each); :class:`CountIndex` keeps each word's
positions in order and cuts the window out by bisection, and keeps the memories said at
one moment together. The same positions as the scan, in the same order.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from datetime import datetime

from dreamgit.dream.consolidate.count_reading import Quantity
from dreamgit.dream.consolidate.update_passes import WINDOW

__all__ = ["CountIndex"]


class CountIndex:
    """The positions of memories by the words and phrases their counts count.

    ``counted[n]`` is the quantities of the memory at position ``n`` (time order) and
    ``created[n]`` when it was said.
    """

    def __init__(
        self, counted: Sequence[tuple[Quantity, ...]], created: Sequence[datetime]
    ) -> None:
        #: each word's positions, ascending, each once (only their set is ever read)
        self._by_word: dict[str, list[int]] = {}
        #: each whole phrase's positions, ascending, once per quantity that counts it
        self._by_phrase: dict[tuple[str, ...], list[int]] = {}
        self._words: list[set[str]] = []
        self._phrases: list[set[tuple[str, ...]]] = []
        self._created = created
        self._at: dict[datetime, list[int]] = {}
        for n, quantities in enumerate(counted):
            words, phrases = set(), set()
            for q in quantities:
                # the whole counted phrase too: in a chat about problems, "conditional
                # probability problems" said long ago is found past the window of
                # every other "problem"
                for w in q.counted[-1:] or tuple(q.setting):
                    positions = self._by_word.setdefault(w, [])
                    if not positions or positions[-1] != n:
                        positions.append(n)
                    words.add(w)
                if len(q.counted) > 1:
                    self._by_phrase.setdefault(q.counted, []).append(n)
                    phrases.add(q.counted)
            self._words.append(words)
            self._phrases.append(phrases)
            self._at.setdefault(created[n], []).append(n)

    def compared(self, n: int, q: Quantity) -> list[int]:
        """What the count ``q`` of the memory at ``n`` is compared with: the earlier
        memories, newest first, then those said at the same time."""
        words = set(q.counted[-1:]) | q.setting | (q.before if q.changed else set())
        return [*reversed(self.earlier(n, q, words)), *self.said_at_once(n, q, words)]

    def earlier(self, n: int, q: Quantity, words: set[str]) -> list[int]:
        """The last ``WINDOW`` positions before ``n`` counting one of ``words``, and the
        last ``WINDOW`` quantities before it counting ``q``'s whole phrase; ascending."""
        near: set[int] = set()
        for w in words:
            positions = self._by_word.get(w)
            if positions:
                end = bisect_left(positions, n)
                near.update(positions[max(0, end - WINDOW) : end])
        found = set(sorted(near)[-WINDOW:])
        phrase = self._by_phrase.get(q.counted)
        if phrase:
            end = bisect_left(phrase, n)
            found.update(phrase[max(0, end - WINDOW) : end])
        return sorted(found)

    def said_at_once(self, n: int, q: Quantity, words: set[str]) -> list[int]:
        """The later-placed memories said at the same time as ``n`` (one turn: "I've
        raised my practice set to 12 problems …, I've done 8 problems so far") that may
        hold the count ``q`` changes: only a count said as a change is the value now over
        one said with it, whatever order the turn said them in. Ascending."""
        if not q.changed:
            return []
        return [
            k
            for k in self._at[self._created[n]]
            if k > n and (not self._words[k].isdisjoint(words) or q.counted in self._phrases[k])
        ]
