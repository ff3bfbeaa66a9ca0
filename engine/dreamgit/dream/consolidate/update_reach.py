"""Which members of a subject the newer-value check compares again after a change.

A member's comparison (``update.py``) reads its own frame and, besides, at most
:data:`WINDOW` memories of a few lists: the members of its subject right before it (of
any relation when it says a change, else of its own relation), the last members of the
subject the user names another way ("the billing service" for "the user's billing
service": all of them when it says a change, else those of its relation), its team's
last members (a tool changed or left) and what its subject owns (a change verb). The
layout keeps each member's findings, so a run compares again only the members one of
those lists changed for: a member new or changed, one with a memory in or out of the
window before it, and those that read a tied subject whose tail (or a relation's) moved.
Over 100,000 memories a memory joining the user's ~5,600 is compared with its window, not
the user's every memory with theirs again. Members left out answer as in the run before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dreamgit.dream.consolidate.update_kept import Entry
from dreamgit.dream.consolidate.update_members import (
    CHANGE,
    OWNS,
    PARTNER,
    RELATION,
    TEAM,
    USER,
    key_of,
    subject_of,
)
from dreamgit.dream.consolidate.update_passes import WINDOW

__all__ = ["Moves", "reached"]


@dataclass
class Moves:
    """What one run moved: the memories read anew and taken out (by key), the subjects
    now (``groups``) and each subject whose members changed with its members before."""

    fresh: set[str]
    dropped: set[str]
    groups: dict[str, list[Entry]]
    before: dict[str, list[Entry]] = field(default_factory=dict)

    def owners(self) -> set[str]:
        """The subjects whose owned memories changed (one word less than a moved one)."""
        owners: set[str] = set()
        for key in self.before:
            subject = subject_of(key)
            if len(subject) > 1:
                owners.update(key_of(subject - {w}) for w in subject)
        return owners


def reached(key: str, moves: Moves, owners: set[str]) -> set[int] | None:
    """The places of ``key``'s members whose comparison may answer otherwise after
    ``moves`` (None: all of them, a subject of fewer than two members before or now)."""
    members = moves.groups[key]
    before = moves.before.get(key, members)
    if len(before) < 2 or len(members) < 2:
        return None  # a subject alone (nothing compared) before or now: compared whole
    places: set[int] = set()
    if key in moves.before:
        places |= _shifted(before, list(enumerate(members)), moves)
        for relation in _relations_moved(before, members, moves):
            mine = [(n, e) for n, e in enumerate(members) if e[2] // RELATION == relation]
            places |= _shifted([e for e in before if e[2] // RELATION == relation], mine, moves)
    subject = subject_of(key)
    theirs = key_of(subject ^ {USER})
    if theirs and theirs != TEAM and theirs in moves.before:
        was, now = moves.before[theirs], moves.groups.get(theirs, [])
        if _tail_moved(was, now, moves):
            places |= _flagged(members, CHANGE)
        relations = _relations_moved(was, now, moves)
        places |= {n for n, e in enumerate(members) if e[2] // RELATION in relations}
    partner = key_of(subject ^ {TEAM})
    teamed = subject - {TEAM} and partner in moves.before
    if teamed and _tail_moved(moves.before[partner], moves.groups.get(partner, []), moves):
        places |= _flagged(members, CHANGE | PARTNER)
    if key in owners:
        places |= _flagged(members, OWNS)
    return places


def _shifted(before: list[Entry], after: list[tuple[int, Entry]], moves: Moves) -> set[int]:
    """The places (the first of each pair in ``after``) of the members new or changed, or
    with a member in or out of the :data:`WINDOW` before them. The members kept are in
    the same order before and after: a kept member's window is the same unless a member
    read anew is among the window before it now, or one taken out among it before."""
    near_out: set[tuple[str, int]] = set()
    last = -WINDOW - 1
    for n, entry in enumerate(before):
        if entry[0] in moves.dropped:
            last = n
        elif n - last <= WINDOW:
            near_out.add((entry[0], entry[1]))
    places: set[int] = set()
    last = -WINDOW - 1
    for n, (place, entry) in enumerate(after):
        if entry[0] in moves.fresh:
            last = n
            places.add(place)
        elif n - last <= WINDOW or (entry[0], entry[1]) in near_out:
            places.add(place)
    return places


def _relations_moved(before: list[Entry], after: list[Entry], moves: Moves) -> set[int]:
    """The relations of the members read anew or taken out."""
    relations = {e[2] // RELATION for e in after if e[0] in moves.fresh}
    return relations | {e[2] // RELATION for e in before if e[0] in moves.dropped}


def _tail_moved(before: list[Entry], after: list[Entry], moves: Moves) -> bool:
    """Whether the last :data:`WINDOW` members are others, or one of them changed."""
    tail = after[-WINDOW:]
    if any(e[0] in moves.fresh for e in tail):
        return True
    return [e[:2] for e in before[-WINDOW:]] != [e[:2] for e in tail]


def _flagged(members: Iterable[Entry], flags: int) -> set[int]:
    """The places of the members with all of ``flags``."""
    return {n for n, e in enumerate(members) if e[2] % RELATION & flags == flags}
