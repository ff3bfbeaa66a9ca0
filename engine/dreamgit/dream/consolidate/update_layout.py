"""The newer-value check laid out by subject, kept between runs and moved by what changed.

The check (``update.py``) groups every memory's frames by subject, oldest first, and
compares each subject's memories with those of a few subjects tied to it: what it owns
("Ana's phone" for Ana), its team ("Ana's team" for Ana), the user's way of naming it
("the billing service" for "the user's billing service"). Passes across subjects look
at a date moved by its owner, an ending said beside the tool in use, a promotion, a
change said of "it". Over 100,000 memories most of a dream's check was reading every
memory's frames back and digesting every subject, though only the subjects a new,
changed or removed memory touches can answer otherwise than in the run before.

:func:`laid_out` keeps a :class:`Layout`: each memory's digest (id, time, text) and the
subjects of its frames, each subject's members in time order (as memory ids, frame
places and kinds: a frame's relation and flags, no frame), what each member's comparison
found, and what the passes found. A run compares the memories it is given with the
layout's (a dict diff), reads only the new and changed memories, moves them in and the
gone ones out of their subjects' member lists, and compares again, in the touched
subjects and those tied to them, only the members whose comparison a moved memory can
change (``update_reach``), framing only what those read (``update_members``;
``update_readings`` keeps the frames). Every other member's findings are carried without
reading it. Inside ``update_kept.keeping_layout`` (opened with the kept readings,
``update_memo``) the layout comes from, and goes back to, the git directory
(``store/keptlayout.py``); outside it every run starts from an empty layout, which is
the scan from nothing: one code, the same answers.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamgit.dream.consolidate.update_frames import Framed
from dreamgit.dream.consolidate.update_kept import Entry, Layout, LayoutKeeper, layout_keeper
from dreamgit.dream.consolidate.update_members import (
    COUNTS,
    ENDING,
    MOVER,
    RELATION,
    TEAM,
    USER,
    Groups,
    Members,
    Owned,
    Readings,
    key_of,
    subject_of,
)
from dreamgit.dream.consolidate.update_passes import (
    PRONOUNS,
    WINDOW,
    changes_count,
    endings_in,
    ends_a_tool,
    moved_in,
    moves_date,
    pronoun_changes_in,
)
from dreamgit.dream.consolidate.update_reach import Moves, reached
from dreamgit.dream.consolidate.update_readings import Reading
from dreamgit.extract.frame import Frame
from dreamgit.model import Memory

__all__ = [
    "TEAM",
    "USER",
    "Check",
    "Findings",
    "Found",
    "Members",
    "keyed",
    "laid_out",
]

#: One update as kept: (old id, new id, reason, the value named).
Found = tuple[str, str, str, str]


def _words(key: str) -> list[str]:
    """A subject's words, sorted: the order the check compares subjects in."""
    return key.split("\x1f") if key else []


@dataclass
class Findings:
    """What the check found, in the order each pass's findings are applied."""

    subjects: list[Found]
    promotions: list[Found]
    moved: list[Found]
    endings: list[Found]
    pronouns: list[tuple[Memory, Memory, str, str]]
    counts: list[tuple[Memory, Memory, str]]


#: How one subject's comparison runs: (subject, groups, owned, the places of the members
#: to compare, or None for all) → each of those members' updates as the newer memory.
Compare = Callable[
    [
        frozenset[str],
        Mapping[frozenset[str], Members],
        Mapping[frozenset[str], Members],
        list[int] | None,
    ],
    dict[int, list[Found]],
]
#: How the count check runs: (memories by key, the keys read anew, the keys taken out,
#: its layout, moved in place) → (older, newer, reason) of each count changed.
Count = Callable[
    [dict[str, Memory], list[str], list[str], dict[str, Any]], list[tuple[Memory, Memory, str]]
]
#: How a promotion retires: (memory, its sentence's frame, the role, the subject's last
#: memories) → its updates.
Promote = Callable[[Memory, Frame, frozenset[str], Framed], list[Found]]


@dataclass(frozen=True)
class Check:
    """The parts of the check the layout runs: reading a memory, comparing a subject,
    retiring by a promotion, the count check, fetching kept readings ahead in one batch,
    and the flags of a frame its comparison reads (``update_members``)."""

    read: Callable[[Memory], Reading]
    prefetch: Callable[[list[str]], None]
    compare: Compare
    promote: Promote
    count: Count
    flags: Callable[[Frame], int]


def laid_out(memories: Sequence[Memory], check: Check) -> Findings:
    """What the check finds over ``memories``: from the kept layout, moved by what changed
    (or from an empty one), which is then kept in its place."""
    keeper = layout_keeper()
    kept = None if keeper is None else keeper.take()
    by_key = keyed(memories)
    if kept is not None:
        try:
            return _found(by_key, kept, check, keeper)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # a kept layout of another shape: laid out again from nothing
    return _found(by_key, Layout(), check, keeper)


def _found(
    by_key: dict[str, Memory], layout: Layout, check: Check, keeper: LayoutKeeper | None
) -> Findings:
    layout.share()
    run = _Run(by_key, layout, check)
    try:
        findings = run.findings()
    finally:
        run.done()
    if keeper is not None:
        keeper.give(layout, changed=run.changed)
    return findings


def keyed(memories: Sequence[Memory]) -> dict[str, Memory]:
    """Each memory by its id (a repeated id is told apart by its place)."""
    by_key: dict[str, Memory] = {}
    for n, memory in enumerate(memories):
        key = memory.id if memory.id not in by_key else f"{memory.id}\x00{n}"
        by_key[key] = memory
    return by_key


def _digest(memory: Memory) -> str:
    """What a memory's frames and comparisons depend on: its id, time and text."""
    said = f"{memory.id}\x1f{memory.created.isoformat()}\x1f{memory.text}"
    return hashlib.blake2b(said.encode(), digest_size=12).hexdigest()


class _Run:
    """One run of the check over a layout: moved by the diff, then compared where touched."""

    def __init__(self, by_key: dict[str, Memory], layout: Layout, check: Check) -> None:
        self.by_key, self.layout, self.check = by_key, layout, check
        self.readings = Readings(by_key, check.read, check.prefetch)
        self.groups = Groups(layout.groups, self.readings)
        self.owned = Owned(layout.sup, layout.groups, self.rank, self.readings)
        self.moves = Moves(set(), set(), layout.groups)
        #: whether a memory was read anew or taken out (else the layout is the one kept)
        self.changed = False

    def done(self) -> None:
        """Let go of what the run read: what the subjects own refers back to the run, a
        cycle that a dream, its collector paused, held to its end (the run's readings and
        its layout, 104 MB over 100,000 memories, when the layout was given back)."""
        del self.owned

    def time(self, key: str) -> tuple[str, str, str]:
        """A memory's place in time order: created, id (then its key, for a repeated id)."""
        return self.layout.members[key][1], key.split("\x00", 1)[0], key

    def rank(self, key: str) -> tuple[str, str, str, int]:
        """Where a subject was first said: its first memory's time, the frame's place."""
        first, place, _kind = self.layout.groups[key][0]
        return *self.time(first), place

    def findings(self) -> Findings:
        fresh, dropped, touched = self._moved()
        layout, owners = self.layout, self.moves.owners()
        reach = {key: reached(key, self.moves, owners) for key in self._tied(touched)}
        # the subjects compared whole read all their members: fetched in one batch (the
        # others' members are fetched a window at a time, as their comparison asks)
        self.readings.fetch(self._members([k for k, places in reach.items() if places is None]))
        for key, places in reach.items():
            if places is None or places or key in self.moves.before:
                self._compare(key, places)
        for key in touched & layout.groups.keys():
            self._pass(key)
        self._move_dates(touched)
        self._promote(set(fresh), touched)
        return Findings(
            subjects=[
                _as_found(f)
                for k in sorted(layout.found, key=_words)
                for found in layout.found[k].values()
                for f in found
            ],
            promotions=self._promotions(),
            moved=self._ranked(layout.moved),
            endings=self._ranked(layout.endings),
            pronouns=list(self._pronoun_changes()),
            counts=self.check.count(self.by_key, fresh, sorted(dropped), layout.counts),
        )

    def _compare(self, key: str, places: set[int] | None) -> None:
        """Compare the members of subject ``key`` at ``places`` (None: all) again, and keep
        what each found in the members' order with what the others found before (a
        member gone, what it found with it)."""
        entries, kept = self.layout.groups[key], self.layout.found.get(key, {})
        asked = None if places is None else sorted(places)
        found = {}
        if asked is None or asked:
            found = self.check.compare(subject_of(key), self.groups, self.owned, asked)
        now: dict[str, list[list[str]]] = {}
        for place, (memory, at, _kind) in enumerate(entries):
            name = f"{memory}\x1f{at}"
            mine = found.get(place) if places is None or place in places else kept.get(name)
            if mine:
                now[name] = [list(f) for f in mine]
        if now:
            self.layout.found[key] = now
        else:
            self.layout.found.pop(key, None)

    def _pass(self, key: str) -> None:
        """The endings, moved dates and changes said of "it" among subject ``key``'s
        members, framing only those that tell of one (their flags) and the last few."""
        layout, entries = self.layout, self.layout.groups[key]
        ends = [e for e in entries if e[2] % RELATION & ENDING]
        # the endings and the last WINDOW members, in order: what endings_in reads of all
        last = len(entries) - WINDOW
        read = [e for n, e in enumerate(entries) if n >= last or e[2] % RELATION & ENDING]
        if ends:
            self.readings.fetch(e[0] for e in read)
        pairs = list(map(self.readings.framed, read)) if ends else []
        _put(layout.endings, key, [(o.id, n.id, why, "") for o, n, why in endings_in(pairs)])
        _put(layout.movers, key, [e for e in entries if e[2] % RELATION & MOVER])
        if subject_of(key) in PRONOUNS:
            _put(layout.pronouns, key, [e for e in entries if e[2] % RELATION & COUNTS])

    def _kind(self, frame: Frame) -> int:
        """A frame's kind: its relation's index and its flags (``update_members``)."""
        relations = self.layout.relations
        relation = relations.setdefault(f"{frame.head}\x1f{frame.particle}", len(relations))
        flags = self.check.flags(frame)
        flags |= ENDING if ends_a_tool(frame) else 0
        flags |= MOVER if moves_date(frame) else 0
        flags |= COUNTS if changes_count(frame) else 0
        return relation * RELATION + flags

    def _moved(self) -> tuple[list[str], set[str], set[str]]:
        """Take the gone and changed memories out of their subjects and put the new and
        changed ones in: (the keys read anew in their order, the keys taken out, the
        subjects whose members changed)."""
        layout, members, by_key = self.layout, self.layout.members, self.by_key
        digests = {key: _digest(m) for key, m in by_key.items()}
        fresh = [k for k, d in digests.items() if (e := members.get(k)) is None or e[0] != d]
        dropped = {k for k in members if k not in by_key} | (members.keys() & fresh)
        touched: set[str] = set()
        for key in dropped:
            touched.update(members.pop(key)[2])
            layout.promoted.pop(key, None)
        self.readings.fetch(fresh)
        added: dict[str, list[Entry]] = {}
        for key in fresh:
            memory = by_key[key]
            frames, sentence, _role = self.readings.of(key)
            subjects = [key_of(f.subject) for f in frames]
            promoted = None if sentence is None else key_of(sentence.subject)
            members[key] = [digests[key], memory.created.isoformat(), subjects, promoted]
            for place, (subject, frame) in enumerate(zip(subjects, frames, strict=True)):
                added.setdefault(subject, []).append([key, place, self._kind(frame)])
            touched.update(subjects)
            if promoted is not None:
                layout.promoted[key] = []
        self.moves.fresh, self.moves.dropped = set(fresh), dropped
        for key in touched:
            self.moves.before[key] = layout.groups.get(key, [])
            self._regroup(key, dropped, added.get(key, []))
        self.changed = bool(fresh or dropped)
        return fresh, dropped, touched

    def _regroup(self, key: str, dropped: set[str], added: list[Entry]) -> None:
        """A subject's members without the ``dropped`` memories, with ``added``, in time
        order; a subject left with none is forgotten with what it found."""
        layout = self.layout
        old = layout.groups.get(key, [])
        entries = [e for e in old if e[0] not in dropped] + added
        if entries:
            entries.sort(key=lambda e: (*self.time(e[0]), e[1]))
            layout.groups[key] = entries
            if not old:
                for smaller in _smaller(key):
                    layout.sup.setdefault(smaller, []).append(key)
            return
        layout.groups.pop(key, None)
        for kept in (layout.found, layout.endings, layout.movers, layout.moved, layout.pronouns):
            kept.pop(key, None)
        for smaller in _smaller(key) if old else ():
            larger = layout.sup.get(smaller, [])
            if key in larger:
                larger.remove(key)
            if not larger:
                layout.sup.pop(smaller, None)

    def _tied(self, touched: set[str]) -> set[str]:
        """The subjects whose comparison reads a touched subject: itself, its team's, the
        user's other name for it, and every subject it is owned by (one word less)."""
        units: set[str] = set()
        for key in touched:
            subject = subject_of(key)
            tied = [subject, subject ^ {TEAM}, subject ^ {USER}]
            tied += [subject - {w} for w in subject] if len(subject) > 1 else []
            units.update(k for k in map(key_of, tied) if k in self.layout.groups)
        return units

    def _members(self, units: Iterable[str]) -> Iterator[str]:
        """The memories a comparison of ``units`` as a whole reads."""
        groups, sup = self.layout.groups, self.layout.sup
        for key in units:
            subject = subject_of(key)
            for tied in (
                key,
                key_of(subject ^ {TEAM}),
                key_of(subject ^ {USER}),
                *sup.get(key, ()),
            ):
                yield from (e[0] for e in groups.get(tied, ()))

    def _move_dates(self, touched: set[str]) -> None:
        """Each subject's moved dates again where it or one of its owners changed."""
        layout = self.layout
        again = [
            key for key in layout.movers if key in touched or any(w in touched for w in _words(key))
        ]
        for key in [k for k in layout.moved if k not in layout.movers]:
            del layout.moved[key]
        for key in again:
            subject = subject_of(key)
            movers = list(map(self.readings.framed, layout.movers[key]))
            moved = moved_in(subject, movers, self.groups.__contains__, self.groups.tail)
            _put(layout.moved, key, [(o.id, n.id, why, "") for o, n, why in moved])

    def _promote(self, fresh: set[str], touched: set[str]) -> None:
        """What each promotion retires, again where it or its subject changed."""
        layout = self.layout
        for key in layout.promoted:
            subject = layout.members[key][3]
            if key in fresh or subject in touched:
                _frames, sentence, role = self.readings.of(key)
                assert sentence is not None
                window = self.groups.tail(subject_of(subject))
                layout.promoted[key] = [
                    list(f) for f in self.check.promote(self.by_key[key], sentence, role, window)
                ]

    def _promotions(self) -> list[Found]:
        order = sorted(self.layout.promoted, key=self.time)
        return [_as_found(f) for k in order for f in self.layout.promoted[k]]

    def _ranked(self, found: dict[str, list[list[str]]]) -> list[Found]:
        """Findings kept by subject, in the order the subjects were first said."""
        return [_as_found(f) for k in sorted(found, key=self.rank) for f in found[k]]

    def _pronoun_changes(self) -> Iterator[tuple[Memory, Memory, str, str]]:
        """The changes said of "it" (``update_passes.pronoun_changes_in``), each beside the
        frames of other subjects said last before it."""
        pronouns = self.layout.pronouns
        changes = [
            self.readings.framed(e)
            for subject in PRONOUNS
            for e in pronouns.get(key_of(subject), [])
        ]
        if not changes:
            return
        members, by_key = self.layout.members, self.by_key
        order = sorted(members, key=self.time)
        starts = [by_key[k].created for k in order]
        skip = {key_of(s) for s in PRONOUNS}

        def before(memory: Memory) -> Framed:
            window: list[Entry] = []
            for at in range(bisect_left(starts, memory.created) - 1, -1, -1):
                subjects = members[order[at]][2]
                mine = sorted(
                    (p for p, s in enumerate(subjects) if s not in skip),
                    key=lambda p: (self.rank(subjects[p]), p),
                )
                window.extend([order[at], p] for p in reversed(mine))
                if len(window) >= WINDOW:
                    break
            return list(map(self.readings.framed, reversed(window[:WINDOW])))

        yield from pronoun_changes_in(changes, before)


def _smaller(key: str) -> list[str]:
    """The subjects one word less than ``key``'s (none for a subject of one word)."""
    words = _words(key)
    if len(words) < 2:
        return []
    return [key_of(frozenset(words) - {w}) for w in words]


def _put(kept: dict[str, Any], key: str, found: Sequence[Any]) -> None:
    """Keep ``found`` under ``key``, or no entry when there is nothing."""
    if found:
        kept[key] = [list(f) for f in found]
    else:
        kept.pop(key, None)


def _as_found(kept: list[str]) -> Found:
    old, new, reason, named = kept
    return old, new, reason, named
