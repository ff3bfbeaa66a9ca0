"""The names a compiled ``recall.weight`` reads of one candidate.

Only a weight other than the bundled one (``recall/plainweight.py`` computes that) is
evaluated by the expression compiler, against this environment: the candidate's
``relevance`` and ``bm25``, then the memory's names of the rules (``ruleset/context.py``),
each computed when first read. Imported only then, with the rules' names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime

from dreamgit.model import Memory
from dreamgit.ruleset.context import LazyMemoryEnv

__all__ = ["WeightEnv"]


class WeightEnv(Mapping[str, object]):
    """The names the weight sees of one candidate: its ``relevance`` and ``bm25``, then
    the memory's names (:class:`LazyMemoryEnv`, each computed when first read)."""

    __slots__ = ("_memory", "_scores")

    def __init__(self, memory: Memory, now: datetime, relevance: float, bm25: float) -> None:
        self._scores = {"relevance": relevance, "bm25": bm25}
        self._memory = LazyMemoryEnv(memory, now)

    def __getitem__(self, name: str) -> object:
        found = self._scores.get(name)
        return self._memory[name] if found is None else found

    def __iter__(self) -> Iterator[str]:
        yield from self._scores
        yield from (name for name in self._memory if name not in self._scores)

    def __len__(self) -> int:
        return sum(1 for _ in self)
