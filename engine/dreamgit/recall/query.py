"""What a recall asks: the query text and its options, as one value.

The command line, the MCP tool, the Python API and the memory tests each build a
:class:`RecallQuery` once and pass it down unchanged to ``recall.search.recall``, so
recall's options are named in one place and a new one reaches every caller at once.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["RecallQuery"]


class RecallQuery(NamedTuple):
    """A query and how to answer it (None: the rules' setting). A named tuple, not a
    dataclass: a recall process makes one, and a dataclass costs ~1 ms to define."""

    text: str
    #: At most this many memories (default: the rules' ``recall.top_k``, unless ``chars``).
    top_k: int | None = None
    #: At most this many characters of memory text.
    chars: int | None = None
    #: Only memories of this topic.
    topic: str | None = None
    #: Only memories of this type.
    type: str | None = None
    #: Only memories tagged with, or in the topic, ``scope``.
    scope: str | None = None
    #: Leave a recall signal (default: the rules' ``recall.record``).
    record: bool | None = None
