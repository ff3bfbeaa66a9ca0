"""Which known memory a run's new memory says again: its twin, found by the duplicate finder.

A new memory that repeats an active one reinforces it instead of being added
(``phase.py``). The finder compares the new memories with the known ones of their
topics, then a new memory with no twin there with the known memories of every other
topic; the user as a subject is left out of each text first ("The user prefers X"
repeats "Dana prefers X"), and a known statement that could pair with no new one is left
out before the finder (``pairable.py``): its pairs are exact, so the twins are the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from dreamgit.dream import session_notes
from dreamgit.dream.gather.compact import known_user_name
from dreamgit.dream.workset import WorkingSet
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.extract.pairable import could_pair
from dreamgit.model import Memory

__all__ = ["known_duplicates"]


def _user_views(memories: Sequence[Memory], user_name: str | None) -> list[str]:
    """The finder's view of each memory's text, with the user as subject left out, so that
    "The user prefers X" said before the user's name was known repeats "Dana prefers X"."""
    leads = tuple(s for s in ("The user", "User", user_name) if s)  # "User …": older style
    # most texts start with none: they are read by one C call each, no lead built
    return [_without_user(m.text, leads) if m.text.startswith(leads) else m.text for m in memories]


def _without_user(text: str, subjects: tuple[str, ...]) -> str:
    """``text`` without each of ``subjects`` it starts with, in turn."""
    for subject in subjects:
        if not text.startswith(subject):
            continue
        for lead in (f"{subject}'s ", f"{subject} "):
            if text.startswith(lead):
                text = text[len(lead) :]
                break
    return text


def known_duplicates(
    ws: WorkingSet, fresh: Sequence[Memory], threshold: float, user_name: str | None = None
) -> dict[str, str]:
    """For each new memory, the active (or earlier new) memory it repeats, if any.

    One pass of the duplicate finder over the topics the new memories are in,
    with the known memories first so they are preferred as twins. A new memory with no
    twin there meets, in a second pass, the known memories of every other topic: one a
    person or a phase moved (reflect makes a repeated correction a lesson in
    ``instructions``) is still known, and what is said again reinforces it where it is
    now. A session note is read statement by statement: a memory that repeats one of
    its statements has the note as its twin, and a note itself is never folded into
    another memory.
    """
    topics = {m.topic for m in fresh}
    known = [m for m in ws.active.values() if m.topic in topics]
    user_name = user_name or known_user_name([*known, *fresh])
    twins = _twins(known, fresh, threshold, user_name, same_topic=True)
    alone = [m for m in fresh if m.id not in twins]
    elsewhere = [m for m in ws.active.values() if m.topic not in topics]
    if alone and elsewhere:
        moved = _twins(elsewhere, alone, threshold, user_name, same_topic=False)
        # A repeat within the run follows its first saying to the moved memory.
        twins = {later: moved.get(twin, twin) for later, twin in twins.items()} | moved
    return twins


def _twins(
    known: Sequence[Memory],
    fresh: Sequence[Memory],
    threshold: float,
    user_name: str | None,
    *,
    same_topic: bool,
) -> dict[str, str]:
    """One pass of the duplicate finder: each new memory's twin among ``known`` and, within
    one topic (``same_topic``), among the new memories before it. A known statement that
    could pair with no new memory is left out first (``pairable.py``): the finder's pairs
    are exact, so the same twins are found at the cost of what could match."""
    statements, parts = session_notes.as_statements([*known, *fresh])
    new = {m.id for m in fresh}
    fresh_ids = {m.id for m in fresh if not session_notes.is_note(m)}
    views = _user_views(statements, user_name)
    # the finder would leave the others out itself, but an item for each of 100,000
    # statements costs more than the texts' flags
    keep = could_pair(views, [m.id in fresh_ids for m in statements], threshold)
    # only the statements that could pair are made the finder's items
    items = [DupItem(m.id, views[k], m.topic, m.key) for k, m in enumerate(statements) if keep[k]]
    position = {item.id: k for k, item in enumerate(items)}
    twins: dict[str, str] = {}
    # only a pair with a new memory names a twin: the pairs of two known ones are not judged
    pairs = find_duplicate_pairs(
        items, threshold=threshold, same_topic=same_topic, involving=fresh_ids
    )
    for a, b, _score in pairs:
        earlier, later = (a, b) if position[a] < position[b] else (b, a)
        if later in fresh_ids and later not in twins:
            twin = session_notes.memory_of(earlier, parts)
            if same_topic or twin not in new:  # across topics, only a known memory is a twin
                twins[later] = twins.get(twin, twin)
    return twins
