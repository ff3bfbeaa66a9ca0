"""Putting a removed part of an agent's file back where it stood, the rest left as it is now.

``restore`` in a format whose files hold many memories (an index's lines, Hermes
entries, OpenClaw bullets) brings back only the lines or entries of one memory:
the file as history held it is lined up with the file as it is now, and each unit
of the memory that is missing goes back between the neighbours it had. When
nothing else changed since the removal, the file comes back byte for byte.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence

__all__ = ["reinsert"]


def reinsert(held: Sequence[str], current: Sequence[str], mine: Collection[int]) -> list[str]:
    """``current`` with the units ``held[i]`` (``i`` in ``mine``) it lacks put back in place.

    A unit of ``mine`` that ``current`` still has where ``held`` had it is not doubled;
    units that are not ``mine`` are never brought back, even when ``current`` lacks them.
    """
    matcher = difflib.SequenceMatcher(a=list(held), b=list(current), autojunk=False)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            out.extend(held[i] for i in range(i1, i2) if i in mine)
        out.extend(current[j1:j2])
    return out
