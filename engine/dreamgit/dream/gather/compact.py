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
from dreamgit.dream.gather.statements import content_terms
from dreamgit.model import Memory

__all__ = ["compact", "content_words", "known_user_name", "normalized"]

_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME_IS = re.compile(r"\bname is (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\.?$")


def content_words(text: str) -> set[str]:
    """The words of ``text`` that carry content, lower case, plural "s" dropped; numbers
    count (a new value is new content), month names only beside a number."""
    words = {w.lower().rstrip("s") for w in content_terms(text)} - _MONTHS
    return words | set(_NUMBER.findall(text))


def compact(
    candidates: Sequence[Candidate],
    budget_chars: float,
    known: set[str] | None = None,
    *,
    min_novelty: float = 0.0,
    said_before: set[str] | None = None,
) -> tuple[list[Candidate], list[Candidate]]:
    """(kept, left out): the most salient candidates within ``budget_chars`` characters.

    ``known`` holds the content words memory already has (it grows with what is
    kept); a candidate whose share of new content words is below ``min_novelty``
    repeats what is known and is left out, so the budget goes to new facts. A
    candidate that says again exactly what a memory says (``said_before``, texts
    as :func:`normalized` gives them) is kept outside the budget: it reinforces.
    """
    seen = known if known is not None else set()
    order = sorted(range(len(candidates)), key=lambda k: (-_density(candidates[k]), k))
    used = 0
    kept: set[int] = set()
    for k in order:
        words = content_words(candidates[k].text)
        novelty = len(words - seen) / len(words) if words else 1.0
        said = normalized(candidates[k].text, (candidates[k].subject,))
        if novelty == 0 and said_before is not None and said in said_before:
            kept.add(k)  # said again: it reinforces what is known and costs nothing
            continue
        size = len(candidates[k].text)
        if used + size > budget_chars and kept:
            continue
        if novelty < min_novelty and candidates[k].key is None and not _changes(candidates[k]):
            continue
        seen |= words
        kept.add(k)
        used += size
    inside = [c for k, c in enumerate(candidates) if k in kept]
    outside = [c for k, c in enumerate(candidates) if k not in kept]
    return inside, outside


def normalized(text: str, subjects: Iterable[str | None] = ()) -> str:
    """``text`` as lower-case words without its leading subject (one of ``subjects`` or
    "The user"), for telling a repeat from a new statement."""
    for subject in ("The user", *subjects):
        for lead in (f"{subject}'s ", f"{subject}' ", f"{subject} "):
            if subject and text.startswith(lead):
                text = text[len(lead) :]
                break
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def known_user_name(memories: Iterable[Memory]) -> str | None:
    """The user's name when an active memory says it (key ``user.name``), else None."""
    for memory in memories:
        if memory.key == "user.name":
            m = _NAME_IS.search(memory.text.strip())
            if m is not None:
                return m["name"].split()[0]
    return None


def _changes(candidate: Candidate) -> bool:
    """A correction or change restates a fact with a new value: never a mere repeat."""
    return candidate.kind == "correction" or candidate.change is not None


def _density(candidate: Candidate) -> float:
    """Salience per character, softened: a short clause that says as much goes first."""
    return float(candidate.salience / max(len(candidate.text), 20) ** 0.25)
