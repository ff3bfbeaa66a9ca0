"""A merge pass's kept answer and the last pass's, for the passes of one dream.

The judged near-duplicate pairs and the contained restatements are each kept between
dreams and replaced by every pass within one. The kept answer is loaded when a pass first
asks for it, not when the dream's plan opens its block: the block is opened before the
memories are read, and the passes ask after the newer-value check, whose layout is the peak
of a dream over 100,000 memories (the kept restatements alone are 38 MB).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["KeptAnswer"]

T = TypeVar("T")


class KeptAnswer(Generic[T]):
    """The kept answer (``kept``, loaded by ``load`` when first asked for), and the last
    pass's (``last``: the kept one until a pass sets it, which ``ran`` then says)."""

    def __init__(self, load: Callable[[], T]) -> None:
        self._load = load
        self._kept: T | None = None
        self._last: T | None = None
        self.ran = False

    @property
    def kept(self) -> T:
        if self._kept is None:
            self._kept = self._load()
        return self._kept

    @property
    def last(self) -> T:
        return self.kept if self._last is None else self._last

    @last.setter
    def last(self, answer: T) -> None:
        self._last, self.ran = answer, True
