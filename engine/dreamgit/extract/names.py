"""A person's name as English sentences write it: the possessive of "Priya" or "Tomas".

Gathering writes statements with it and consolidation restates merged ones, so it
lives below both.
"""

from __future__ import annotations

__all__ = ["possessive"]


def possessive(name: str) -> str:
    """ "Priya" → "Priya's", "Tomas" → "Tomas'"."""
    return name + ("'" if name.endswith("s") else "'s")
