"""The count check laid out by counted word, kept between runs and moved by what changed.

The count check (``counts.py``) walks the memories that state a count in time order and
compares each count with the last :data:`~.update_passes.WINDOW` earlier memories that
count the same word (or the same whole phrase), cut out of each word's memories by
bisection, and with those said at the same moment. What one memory's counts change
depends on it and on the memories in those windows alone. :class:`CountLayout` keeps,
per memory that states a count, the words and phrases it counts and asks about, and
what its counts changed; and per word, phrase and moment, the memories in time order. A
run takes the gone and changed memories out (marking the memories whose windows held
them), puts the new and changed ones in (marking those whose windows now hold them), and
compares again only the marked ones; every other memory's answer is carried without
reading it. From an empty layout every memory is new: the scan from nothing, with the
same answers.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from dreamgit.dream.consolidate.count_reading import Quantity
from dreamgit.dream.consolidate.count_said import Said
from dreamgit.dream.consolidate.update_passes import WINDOW
from dreamgit.model import Memory

__all__ = ["CountLayout", "query_words"]

#: One memory's entry: [created (ISO), moment, counted words, phrases, queries, subject],
#: each query [the words it asks about, its phrase, whether it was said as a change]; the
#: subject is the one that keeps its counts apart from another subject's, its words joined
#: ("" for the user alone, kept apart from no one: :attr:`.Said.own_subject`).
_Spec = list[Any]


def query_words(q: Quantity) -> set[str]:
    """The words a count is compared by: what it counts, its setting, and for a change the
    words said before it."""
    return set(q.counted[-1:]) | q.setting | (q.before if q.changed else set())


def _phrase(counted: tuple[str, ...]) -> str:
    return "\x1f".join(counted)


def moment(memory: Memory) -> str:
    """When a memory was said, as one string for one instant in any offset."""
    created = memory.created
    return f"{created.timestamp()!r}/{created.tzinfo is None}"


def spec(memory: Memory, quantities: Iterable[Quantity], subject: frozenset[str] | None) -> _Spec:
    """What the layout keeps of a memory that states ``quantities`` of its own ``subject``
    (None: a subject that keeps its counts apart from no other, the user alone)."""
    counted: list[str] = []
    phrases: list[str] = []
    queries: list[list[Any]] = []
    for q in quantities:
        for w in q.counted[-1:] or sorted(q.setting):
            if w not in counted:
                counted.append(w)
        if len(q.counted) > 1:
            phrases.append(_phrase(q.counted))
        queries.append([sorted(query_words(q)), _phrase(q.counted), q.changed])
    own = "\x1f".join(sorted(subject)) if subject is not None else ""
    return [memory.created.isoformat(), moment(memory), counted, phrases, queries, own]


class CountLayout:
    """The count check's layout (JSON-ready ``state``) over the memories of one run.

    ``state`` holds ``said`` (memory key → :data:`_Spec`), ``found`` (memory key → its
    [older memory key, reason] changes), and ``word``, ``query``, ``phrase`` and ``at``
    (a counted word, an asked word, a phrase, a moment → memory keys in time order; a
    phrase once per count that counts it).
    """

    def __init__(self, state: dict[str, Any], id_of: Callable[[str], str]) -> None:
        for part in ("said", "found", "word", "query", "phrase", "at"):
            if not isinstance(state.setdefault(part, {}), dict):
                raise ValueError("a kept count layout of another shape")
        self.state = state
        self._said: dict[str, _Spec] = state["said"]
        self._id_of = id_of
        #: each memory's time, made when it is put in: the windows sort and bisect by it,
        #: 3 million times over 100,000 memories laid out from nothing, and a dict's own
        #: lookup as the sort key costs a tenth of a method that makes it when first asked
        self._times = {key: self._time_of(key, spec_) for key, spec_ in self._said.items()}
        #: A memory's place in time order: created, id (then its key, for a repeated id).
        self.time: Callable[[str], tuple[str, str, str]] = self._times.__getitem__

    def _time_of(self, key: str, spec_: _Spec) -> tuple[str, str, str]:
        return (spec_[0], self._id_of(key), key)

    def remove(self, key: str, marked: set[str]) -> None:
        """Take a memory out, marking the memories whose windows held it."""
        if key not in self._said:
            return
        self.mark(key, marked)
        spec_ = self._said[key]
        for part, names in (("word", spec_[2]), ("phrase", set(spec_[3]))):
            for name in names:
                entries = self.state[part][name]
                entries[:] = [k for k in entries if k != key]
                if not entries:
                    del self.state[part][name]
        for name in {w for query in spec_[4] for w in query[0]}:
            self._drop(self.state["query"], name, key)
        self._drop(self.state["at"], spec_[1], key)
        del self._said[key]
        self._times.pop(key, None)
        self.state["found"].pop(key, None)

    def add(self, key: str, spec_: _Spec, *, ordered: bool = True) -> None:
        """Put a memory in (:meth:`mark` it once every new one is in); not ``ordered``,
        at the end of its lists, for :meth:`order` to sort once all are in."""
        self._said[key] = spec_
        self._times[key] = self._time_of(key, spec_)
        put: Callable[[list[str], str], None] = self._insort if ordered else list.append
        for w in spec_[2]:
            put(self.state["word"].setdefault(w, []), key)
        for phrase in spec_[3]:
            put(self.state["phrase"].setdefault(phrase, []), key)
        for w in {w for query in spec_[4] for w in query[0]}:
            put(self.state["query"].setdefault(w, []), key)
        put(self.state["at"].setdefault(spec_[1], []), key)

    def _insort(self, entries: list[str], key: str) -> None:
        insort(entries, key, key=self.time)

    def order(self) -> None:
        """Sort every list in time order (after adding memories not ``ordered``)."""
        for part in ("word", "phrase", "query", "at"):
            for entries in self.state[part].values():
                entries.sort(key=self.time)

    def _drop(self, part: dict[str, list[str]], name: str, key: str) -> None:
        entries = part[name]
        entries.remove(key)
        if not entries:
            del part[name]

    def mark(self, key: str, marked: set[str]) -> None:
        """Mark ``key`` and the memories whose windows hold ``key``: those asking about a word it
        counts, later than it and no more than a window of that word's memories later;
        those of a phrase it counts, likewise; those said at its moment."""
        spec_, when = self._said[key], self.time(key)
        for w in spec_[2]:
            counting = self.state["word"][w]
            bound = self._bound(counting, when)
            asking = self.state["query"].get(w, [])
            start = bisect_right(asking, when, key=self.time)
            end = len(asking) if bound is None else bisect_right(asking, bound, key=self.time)
            marked.update(asking[start:end])
        for phrase in set(spec_[3]):
            counting = self.state["phrase"][phrase]
            start = bisect_right(counting, when, key=self.time)
            marked.update(counting[start : start + WINDOW])
        marked.update(self.state["at"][spec_[1]])
        marked.add(key)

    def _bound(self, entries: list[str], when: tuple[str, str, str]) -> tuple[str, str, str] | None:
        """The time of the last memory of ``entries`` whose window may hold the one at
        ``when`` (None: every later one)."""
        start = bisect_right(entries, when, key=self.time)
        last = start + WINDOW - 1
        return self.time(entries[last]) if last < len(entries) else None

    def compared(self, key: str, q: Quantity) -> list[str]:
        """The memories ``q`` of the memory ``key`` is compared with: the earlier ones,
        newest first, then those said at the same time."""
        return [*reversed(self._earlier(key, q)), *self._at_once(key, q)]

    def _earlier(self, key: str, q: Quantity) -> list[str]:
        when, time = self.time(key), self.time
        near: list[list[str]] = []
        for w in query_words(q):
            entries = self.state["word"].get(w)
            if entries:
                end = bisect_left(entries, when, key=time)
                near.append(entries[max(0, end - WINDOW) : end])
        # the last WINDOW of them in time order: one word's are already (a word's list
        # holds a memory once, in time order), several words' are sorted once
        found = near[0] if len(near) == 1 else sorted(set().union(*near), key=time)[-WINDOW:]
        phrase = self.state["phrase"].get(_phrase(q.counted)) if len(q.counted) > 1 else None
        if phrase:
            end = bisect_left(phrase, when, key=time)
            said_so = phrase[max(0, end - WINDOW) : end]
            found = sorted({*found, *said_so}, key=time) if said_so else found
        return found

    def _at_once(self, key: str, q: Quantity) -> list[str]:
        if not q.changed:
            return []
        when, words = self.time(key), query_words(q)
        phrase = _phrase(q.counted) if len(q.counted) > 1 else None
        return [
            k
            for k in self.state["at"][self._said[key][1]]
            if self.time(k) > when
            and (not words.isdisjoint(self._said[k][2]) or phrase in self._said[k][3])
        ]

    def changes(self) -> Iterator[tuple[str, str, str]]:
        """(older key, newer key, reason) of every change kept, in time order of the newer
        memory; an older memory retired once, by the first."""
        done: set[str] = set()
        found: dict[str, list[list[str]]] = self.state["found"]
        for key in sorted(found, key=self.time):
            for old, reason in found[key]:
                if self._id_of(old) not in done:
                    done.add(self._id_of(old))
                    yield old, key, reason

    def in_word_order(self, keys: Iterable[str]) -> list[str]:
        """``keys`` by the first word each memory counts, each word's in time order: the
        order to compare them in, each window then mostly the one before it, still in the
        processor's cache (in a set's order the count check's comparisons at 100,000 took
        three times as long)."""
        said, time = self._said, self.time
        return sorted(keys, key=lambda key: (said[key][2][0], time(key)))

    def compare(
        self,
        key: str,
        said: Mapping[str, Said],
        find: Callable[[Said, Said, Quantity], str | None],
    ) -> None:
        """Compare the memory ``key`` again: the older memories each of its counts changes
        (``find``), of those whose subjects do not keep them apart whatever they count. The
        subjects are told by the entries kept here, before an older memory is read: at
        100,000 nine in ten of the 1.4 million older memories compared are of another
        subject."""
        new = said[key]
        created = new.memory.created
        specs, mine = self._said, self._said[key][5]
        found: list[list[str]] = []
        #: each older memory asked about, or None when no count of it can change
        near: dict[str, Said | None] = {}
        for q in new.quantities:
            compared = self.compared(key, q)
            if mine:  # a subject of its own: only memories of that subject or of the user's
                compared = [k for k in compared if specs[k][5] in ("", mine)]
            for k in compared:
                if k in near:
                    old = near[k]
                else:
                    old = said[k]
                    if old.memory.created > created:
                        old = None
                    near[k] = old
                if old is None:
                    continue
                reason = find(old, new, q)
                if reason is not None:
                    found.append([k, reason])
        if found:
            self.state["found"][key] = found
        else:
            self.state["found"].pop(key, None)
