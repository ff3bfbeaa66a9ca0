"""Text similarity used by the rules' ``similarity`` function and the duplicate finder.

Placeholder until the similarity work lands: word-set Jaccard.
"""

from __future__ import annotations

import re

__all__ = ["similarity"]

_WORD = re.compile(r"[a-z0-9]+")


def similarity(a: str, b: str) -> float:
    """Similarity of two texts in [0, 1]."""
    wa, wb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    if not wa and not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)
