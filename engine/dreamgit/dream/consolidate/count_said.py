"""A memory as the count check (``counts.py``) compares it, its frame read when first asked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from dreamgit.dream.consolidate.count_reading import Quantity
from dreamgit.extract.frame import Frame, parse_frame
from dreamgit.model import Memory

__all__ = ["USER", "Said", "SaidByKey"]

#: The subject that is the user alone.
USER = frozenset({"user"})


@dataclass(frozen=True)
class Said:
    """A memory the count check compares: its counts, names, dates and words, and the
    frame of the fact they were read from."""

    memory: Memory
    fact: str  #: the sentence its counts were read from
    quantities: tuple[Quantity, ...]
    names: frozenset[str]
    dates: frozenset[str]
    words: frozenset[str]  #: every word of the sentence, lower case

    @cached_property
    def numbers(self) -> frozenset[str]:
        """Every number its counts say (a count of the check compares with 60 older
        memories, and this set is asked of each)."""
        return frozenset(q.number for q in self.quantities)

    @cached_property
    def counted(self) -> frozenset[tuple[str, ...]]:
        """What its counts count (the counted words of each)."""
        return frozenset(q.counted for q in self.quantities)

    @cached_property
    def frame(self) -> Frame:
        """The fact's frame, framed when first asked: only a memory compared anew needs
        it, and a warm dream over 100,000 memories compares few (framing every one of
        them, even from the kept frames, was a quarter of the count check)."""
        frame = parse_frame(self.fact)
        if frame is None:  # read_counts keeps no reading of a fact that does not frame
            raise ValueError(f"a count reading of a fact with no frame: {self.fact!r}")
        return frame

    @cached_property
    def thing_subject(self) -> frozenset[str]:
        """The frame's subject without the user who has it: in one user's memory "the
        user's daily upload cap" and "the daily upload cap" (said as "the user says the
        daily upload cap is now …") are one thing; the user alone stays the user (made
        once per memory: the check asks it of 380,000 pairs at 100,000)."""
        subject = self.frame.subject
        return subject - {"user"} or subject

    @cached_property
    def own_subject(self) -> frozenset[str] | None:
        """The subject that keeps every count of this memory apart from the counts of a
        memory with another such subject (its :attr:`thing_subject`), or None for the user
        alone, whose setting may be the other memory's subject ("the request timeout is 30
        seconds" / "the user lowered the request timeout to 20 seconds")."""
        return None if self.frame.subject == USER else self.thing_subject


class SaidByKey(dict[str, Said]):
    """Each memory's :class:`Said` by its key, read by ``read`` when first asked for (a
    plain lookup after: the count check asks for 1.4 million at 100,000)."""

    def __init__(self, by_key: Mapping[str, Memory], read: Callable[[Memory], Said | None]):
        super().__init__()
        self._by_key, self._read = by_key, read

    def __missing__(self, key: str) -> Said:
        found = self._read(self._by_key[key])
        if found is None:
            raise ValueError(f"a count layout holding a memory that states no count: {key}")
        self[key] = found
        return found
