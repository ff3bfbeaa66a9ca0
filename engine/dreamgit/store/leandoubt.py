"""The signal of the lean store's parts that they cannot answer as libgit2 would."""

from __future__ import annotations

from dreamgit.errors import InternalSignal

__all__ = ["Doubt"]


class Doubt(InternalSignal):
    """The lean path cannot answer exactly as libgit2 would: take libgit2's path
    (``store/leanstore.py`` catches every one; one that escapes is a bug)."""
