"""Each memory as the merge passes' finders see it, built once per run.

A pass hands the duplicate finder every active memory as a :class:`DupItem`, and names
each memory's version by its signature (``judged_pairs.signature``); over 100,000
memories building both took a second a pass. Most memories are the same objects from
one pass to the next (a merge replaces only the memories it touches), so the views of a
memory are kept while the working set holds the very same object.
"""

from __future__ import annotations

from collections.abc import Sequence

from dreamgit.dream.consolidate.judged_pairs import signature
from dreamgit.extract.duplicates import DupItem
from dreamgit.model import Memory

__all__ = ["FinderViews"]


class FinderViews:
    """Items and signatures at ``threshold``, remembered per memory object."""

    def __init__(self, threshold: float) -> None:
        self._threshold = threshold
        self._seen: dict[str, tuple[Memory, DupItem, str]] = {}

    def of(self, ordered: Sequence[Memory]) -> tuple[list[DupItem], list[str]]:
        """The items and signatures of ``ordered``, in their order."""
        items: list[DupItem] = []
        signs: list[str] = []
        seen = self._seen
        for memory in ordered:
            known = seen.get(memory.id)
            if known is None or known[0] is not memory:
                known = (memory, DupItem.from_memory(memory), signature(memory, self._threshold))
                seen[memory.id] = known
            items.append(known[1])
            signs.append(known[2])
        return items, signs
