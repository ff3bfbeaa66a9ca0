"""The bundled rules' recall weight as plain Python: a recall that compiles no expression.

An agent recalls at every prompt, and the expression language's compiler and checker
cost a recall process ~10 ms of imports before it weighs one candidate. Most
repositories keep the bundled weight, so its text is known here with a function that
computes what the compiled expression computes, operation for operation in the same
order (the same floats): :func:`plain_weight` gives that function for exactly that
text and None for any other, which the compiler then compiles. ``recall.count`` is the
only ``recall.*`` name it reads: it builds nothing else of a memory's names. Should the
function fail on a memory (a date so far ahead that ``exp`` overflows), the compiled
expression evaluates that memory instead, so the answer, or the error, is the
compiler's (``recall/weighting.py``). ``tests/test_plainweight.py`` holds both to the
same scores over many memories, and the bundled rules to this text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta

from dreamgit.model import PRIORITIES, Memory

__all__ = ["BUNDLED_WEIGHT", "Weigh", "plain_weight"]

#: A weight: a memory's score from the memory, the time, its relevance and BM25 score.
Weigh = Callable[[Memory, datetime, float, float], float]

#: ``recall.weight`` of ``rules/default.yaml``.
BUNDLED_WEIGHT = (
    "relevance * (1 + 0.15 * rank(priority)) * (0.8 + 0.2 * exp(-days(idle) / 90))"
    " * (1 + 0.1 * min(recall.count, 5) / 5)"
)

#: ``rank(priority)``: a priority's position; a name the rules do not know counts as
#: ``normal``, as the rules' ``priority`` does.
_RANK = {name: rank for rank, name in enumerate(PRIORITIES)}
_NORMAL = _RANK["normal"]
_DAY = timedelta(days=1)


def _bundled(memory: Memory, now: datetime, relevance: float, bm25: float) -> float:
    count = memory.recall.count if memory.recall is not None else 0
    return (
        relevance
        * (1 + 0.15 * _RANK.get(memory.priority, _NORMAL))
        * (0.8 + 0.2 * math.exp(-((now - memory.updated) / _DAY) / 90))
        * (1 + 0.1 * min(count, 5) / 5)
    )


_KNOWN: dict[str, Weigh] = {BUNDLED_WEIGHT: _bundled}


def plain_weight(text: str) -> Weigh | None:
    """The plain function of the weight ``text``, or None when there is none for it."""
    return _KNOWN.get(text)
