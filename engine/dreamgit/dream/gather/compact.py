"""Compact by default: what one session may add, and who the user is known to be.

A session gives many candidate statements; the rules' ``gather_chars_ratio``
(about a tenth by default) caps the characters of new memory text a session
may give. Candidates are taken by salience, highest first (explicit statements
a pattern recognised rank above the rest, instructions and corrections above
small talk); what does not fit is recorded, not kept. The candidates keep their
order in the session.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dreamgit.dream.candidate import Candidate
from dreamgit.model import Memory

__all__ = ["compact", "known_user_name"]

_NAME_IS = re.compile(r"\bname is (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\.?$")


def compact(
    candidates: Sequence[Candidate], budget_chars: float
) -> tuple[list[Candidate], list[Candidate]]:
    """(kept, left out): the most salient candidates within ``budget_chars`` characters."""
    order = sorted(range(len(candidates)), key=lambda k: (-candidates[k].salience, k))
    used = 0
    kept: set[int] = set()
    for k in order:
        size = len(candidates[k].text)
        if used + size > budget_chars and kept:
            continue
        kept.add(k)
        used += size
    inside = [c for k, c in enumerate(candidates) if k in kept]
    outside = [c for k, c in enumerate(candidates) if k not in kept]
    return inside, outside


def known_user_name(memories: Iterable[Memory]) -> str | None:
    """The user's name when an active memory says it (key ``user.name``), else None."""
    for memory in memories:
        if memory.key == "user.name":
            m = _NAME_IS.search(memory.text.strip())
            if m is not None:
                return m["name"]
    return None
