"""Each memory as the merge passes' finders see it, built once per run.

A pass hands the duplicate finder every active memory as a :class:`DupItem`, and names
each memory's version by its signature (``judged_pairs.signature``); over 100,000
memories building both took a second a pass. Most memories are the same objects from
one pass to the next (a merge replaces only the memories it touches), so the views of a
memory are kept while the working set holds the very same object. The first pass only
builds them (a warm run's only pass when nothing merges); what a later pass reuses is
looked up by id from then on.
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
        #: The last pass's memories, items and signatures, not yet in ``_seen``.
        self._last: tuple[Sequence[Memory], list[DupItem], list[str]] | None = None

    def of(self, ordered: Sequence[Memory]) -> tuple[list[DupItem], list[str]]:
        """The items and signatures of ``ordered``, in their order."""
        if self._last is not None:
            seen = self._seen
            for memory, item, sign in zip(*self._last, strict=True):
                seen[memory.id] = (memory, item, sign)
        elif not self._seen:  # the first pass: nothing to reuse
            items = [DupItem.from_memory(m) for m in ordered]
            signs = [signature(m, self._threshold) for m in ordered]
            self._last = (ordered, items, signs)
            return items, signs
        self._last = None
        items, signs = [], []
        seen = self._seen
        for memory in ordered:
            known = seen.get(memory.id)
            if known is None or known[0] is not memory:
                known = (memory, DupItem.from_memory(memory), signature(memory, self._threshold))
                seen[memory.id] = known
            items.append(known[1])
            signs.append(known[2])
        return items, signs
