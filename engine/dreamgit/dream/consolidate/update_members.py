"""The kept layout's subjects as the newer-value check reads them: framed when asked.

A subject's members are kept as entries (``update_kept``): a memory key, the place of the
frame in that memory's reading, and a kind (the frame's relation and a few flags), so the
check can find a member's earlier memories of the same relation, and which members can
answer otherwise after a change, without reading a frame. :class:`Members` frames only
the members a comparison looks at: over 100,000 memories a new memory about the user
compares with a few hundred of the user's ~5,600, not all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import overload

from dreamgit.dream.consolidate.update_frames import age
from dreamgit.dream.consolidate.update_kept import Entry
from dreamgit.dream.consolidate.update_passes import WINDOW
from dreamgit.dream.consolidate.update_readings import Reading
from dreamgit.extract.frame import Frame
from dreamgit.model import Memory

__all__ = [
    "CHANGE",
    "COUNTS",
    "ENDING",
    "MOVER",
    "OWNS",
    "PARTNER",
    "RELATION",
    "TEAM",
    "USER",
    "Groups",
    "Members",
    "Owned",
    "Readings",
    "key_of",
    "subject_of",
]

#: A member's flags (the low bits of its kind): compared with its subject's window of
#: earlier memories whatever their relation (a change, a correction, an age) ...
CHANGE = 1
#: ... and with its team's last memories (a tool changed or left) ...
PARTNER = 2
#: ... and with what its subject owns (a change verb that may end or change it).
OWNS = 4
#: An ending said of a tool, a date moved, a count changed (of "it"): the passes'.
ENDING, MOVER, COUNTS = 8, 16, 32
#: A kind is its relation's index times this, plus its flags.
RELATION = 64

#: A person's team: what tools it uses are that person's too.
TEAM = "team"
#: The user: "the billing service" the user speaks of is "the user's billing service".
USER = "user"

#: One pair as the comparison reads it.
Pair = tuple[Memory, Frame]


def key_of(subject: frozenset[str]) -> str:
    """A subject as one string: its words sorted."""
    return "\x1f".join(sorted(subject))


def subject_of(key: str) -> frozenset[str]:
    """The subject of :func:`key_of`."""
    return frozenset(key.split("\x1f")) if key else frozenset()


class Readings:
    """Each memory's reading, read once in a run (kept readings fetched ahead in batches)."""

    def __init__(
        self,
        by_key: dict[str, Memory],
        read: Callable[[Memory], Reading],
        prefetch: Callable[[list[str]], None],
    ) -> None:
        self.by_key, self._read, self._prefetch = by_key, read, prefetch
        self._of: dict[str, Reading] = {}

    def fetch(self, keys: Iterable[str]) -> None:
        texts = [self.by_key[k].text for k in set(keys) if k not in self._of]
        if texts:
            self._prefetch(texts)

    def of(self, key: str) -> Reading:
        reading = self._of.get(key)
        if reading is None:
            reading = self._of[key] = self._read(self.by_key[key])
        return reading

    def framed(self, entry: Entry) -> Pair:
        return self.by_key[entry[0]], self.of(entry[0])[0][entry[1]]


class Members(Sequence[Pair]):
    """Members in time order, each (memory, frame) framed when asked for; a member's
    memory and kind are known without framing it."""

    def __init__(self, entries: list[Entry], readings: Readings) -> None:
        self._entries, self.readings = entries, readings

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, at: int) -> Pair: ...

    @overload
    def __getitem__(self, at: slice) -> list[Pair]: ...

    def __getitem__(self, at: int | slice) -> Pair | list[Pair]:
        if isinstance(at, slice):
            return self._framed(self._entries[at])
        return self.readings.framed(self._entries[at])

    def some(self, places: Iterable[int]) -> list[Pair]:
        """The members at ``places``, their kept readings fetched in one batch."""
        return self._framed([self._entries[n] for n in places])

    def _framed(self, entries: list[Entry]) -> list[Pair]:
        self.readings.fetch(e[0] for e in entries)
        return list(map(self.readings.framed, entries))

    def key(self, at: int) -> str:
        """The key of the member's memory."""
        key: str = self._entries[at][0]
        return key

    def memory(self, at: int) -> Memory:
        return self.readings.by_key[self._entries[at][0]]

    def relation(self, at: int) -> int:
        """The index of the member's relation (members of one relation share it)."""
        kind: int = self._entries[at][2]
        return kind // RELATION

    def flags(self, at: int) -> int:
        kind: int = self._entries[at][2]
        return kind % RELATION


class Groups(Mapping[frozenset[str], Members]):
    """The layout's subjects: each one's members."""

    def __init__(self, groups: dict[str, list[Entry]], readings: Readings) -> None:
        self._groups, self.readings = groups, readings

    def __getitem__(self, subject: frozenset[str]) -> Members:
        return Members(self._groups[key_of(subject)], self.readings)

    def tail(self, subject: frozenset[str]) -> list[Pair]:
        """The last :data:`WINDOW` of a subject's memories (none when it has none)."""
        return Members(self._groups.get(key_of(subject), []), self.readings)[-WINDOW:]

    def __contains__(self, subject: object) -> bool:
        return isinstance(subject, frozenset) and key_of(subject) in self._groups

    def __iter__(self) -> Iterator[frozenset[str]]:
        return map(subject_of, self._groups)

    def __len__(self) -> int:
        return len(self._groups)


class Owned(Mapping[frozenset[str], Members]):
    """What each subject owns: the members of every subject of one more word ("Ana's
    phone" for Ana), those subjects in the order they were first said (``rank``)."""

    def __init__(
        self,
        sup: dict[str, list[str]],
        groups: dict[str, list[Entry]],
        rank: Callable[[str], tuple[str, str, str, int]],
        readings: Readings,
    ) -> None:
        self._sup, self._groups, self._rank, self.readings = sup, groups, rank, readings
        self._owned: dict[str, list[Entry]] = {}

    def __getitem__(self, subject: frozenset[str]) -> Members:
        # made once a run: a comparison asks for it once per memory of its subject
        key = key_of(subject)
        found = self._owned.get(key)
        if found is None:
            larger = self._sup.get(key)
            if not larger:
                raise KeyError(subject)
            ordered = sorted(larger, key=self._rank)
            found = self._owned[key] = [e for k in ordered for e in self._groups[k]]
        return Members(found, self.readings)

    def __contains__(self, subject: object) -> bool:
        return isinstance(subject, frozenset) and bool(self._sup.get(key_of(subject)))

    def __iter__(self) -> Iterator[frozenset[str]]:
        return (subject_of(k) for k, v in self._sup.items() if v)

    def __len__(self) -> int:
        return sum(1 for v in self._sup.values() if v)


#: A member as a comparison reads it: its memory, its frame and the age it gives its
#: subject (``update_frames.age``, or None).
Aged = tuple[Memory, Frame, str | None]
#: What a comparison reads of one list (the subject's own, the user's name for it, its
#: team's, what it owns): the places of the members, in order.
_Reads = tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]]


class Windows:
    """What one subject's comparison reads for each member it compares (``update.py``):
    the members of its subject right before it, of any relation when it says a change
    (:data:`CHANGE`), else of its own; the last of the subject the user names another way
    (of its relation, but for a change); its team's last (a change of a tool,
    :data:`PARTNER`); and the last of what its subject owns made before it (:data:`OWNS`).
    All planned from the members' kinds and times, so a subject compared in part has what
    it reads fetched in one batch; each member is aged once."""

    def __init__(
        self,
        members: Members,
        places: Sequence[int] | None,
        tied: tuple[Members | None, Members | None, Members | None],
    ) -> None:
        self.members = members
        self.places = range(len(members)) if places is None else places
        self._lists = (members, *tied)
        self._aged: tuple[dict[int, Aged], ...] = ({}, {}, {}, {})
        self._by_relation = [_by_relation(m) for m in (members, tied[0])]
        self._order = {n: k for b in self._by_relation[0].values() for k, n in enumerate(b)}
        if places is None:
            self._age(0, range(len(members)))  # a whole subject: read (fetched) and aged at once
            return
        reads = [self._reads(n) for n in places]
        keys = [members.key(n) for n in places]
        for which, listed in enumerate(self._lists):
            if listed is not None:
                keys += [listed.key(at) for read in reads for at in read[which]]
        members.readings.fetch(keys)

    def at(self, place: int) -> Aged:
        return self._age(0, [place])[0]

    def earlier(self, place: int) -> list[Aged]:
        """What the member at ``place`` is compared with (but what its subject owns)."""
        mine, theirs, partner, _owned = self._reads(place)
        return [*self._age(0, mine), *self._age(2, partner), *self._age(1, theirs)]

    def owned_before(self, place: int) -> list[Aged]:
        return self._age(3, self._reads(place)[3])

    def _reads(self, n: int) -> _Reads:
        members, theirs, teamed, owned = self._lists
        flags = members.flags(n)
        if flags & CHANGE:
            mine: Sequence[int] = range(max(0, n - WINDOW), n)
            partner = _last(teamed) if flags & PARTNER else range(0)
            said: Sequence[int] = _last(theirs)
        else:
            relation = members.relation(n)
            bucket, k = self._by_relation[0][relation], self._order[n]
            mine, partner = bucket[max(0, k - WINDOW) : k], range(0)
            said = self._by_relation[1].get(relation, [])[-WINDOW:]
        made: Sequence[int] = []
        if flags & OWNS and owned is not None:
            created = members.memory(n).created
            made = [i for i in range(len(owned)) if owned.memory(i).created < created][-WINDOW:]
        return mine, said, partner, made

    def _age(self, which: int, places: Sequence[int]) -> list[Aged]:
        aged, members = self._aged[which], self._lists[which]
        missing = [n for n in places if n not in aged]
        if missing and members is not None:
            for n, (memory, frame) in zip(missing, members.some(missing), strict=True):
                aged[n] = (memory, frame, age(frame))
        return [aged[n] for n in places]


def _last(members: Members | None) -> range:
    """The places of the last :data:`WINDOW` members (none of none)."""
    size = 0 if members is None else len(members)
    return range(max(0, size - WINDOW), size)


def _by_relation(members: Members | None) -> dict[int, list[int]]:
    """The places of the members of each relation, in order."""
    places: dict[int, list[int]] = {}
    if members is not None:
        for n in range(len(members)):
            places.setdefault(members.relation(n), []).append(n)
    return places
