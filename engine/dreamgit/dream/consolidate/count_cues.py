"""Cues the count check reads around a number: a value that moved, and days against days.

"The parking fee went up from $80 to $95": "went up" says the value moved, and the fee is
what it is the value of (:func:`moves`). "In May" and "in June" are two days, each with its
count; "daily" and "in May" are no two days, since how often is not which day
(:func:`other_days`).
"""

from __future__ import annotations

from dreamgit.dream.consolidate.count_words import CHANGES, RECURRING
from dreamgit.extract.verbs import verb_base
from dreamgit.textsim import canonical_word

__all__ = ["moves", "other_days"]


def moves(toks: list[str], k: int) -> bool:
    """Whether ``toks[k]`` says a value moved, not what the value is of: "went up" and
    "went down", a change verb said in the past ("rose to", "grew to", "bumped up")."""
    if toks[k] in ("up", "down"):
        return k > 0 and _moving(toks[k - 1], toks[k])
    return _moving(toks[k], toks[k + 1] if k + 1 < len(toks) else "")


def _moving(word: str, after: str) -> bool:
    base = verb_base(word)
    if base in (None, word):
        return False  # a bare "cut" or "update" may be what the value is of
    return canonical_word(base) in CHANGES or (base == "go" and after in ("up", "down"))


def other_days(old: frozenset[str], new: frozenset[str]) -> bool:
    """Whether two sentences are said of other days ("in March" / "in April") or at other
    intervals ("daily" / "weekly"): a day one of them names and the other lacks is no other
    day ("went from 6,000 to 8,000 daily steps in March" / "raised the daily goal to 10,000")."""
    old_days, new_days = old - RECURRING, new - RECURRING
    old_every, new_every = old & RECURRING, new & RECURRING
    return bool(old_days and new_days and old_days != new_days) or bool(
        old_every and new_every and old_every != new_every
    )
