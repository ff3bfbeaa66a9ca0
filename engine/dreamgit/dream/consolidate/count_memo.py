"""Each memory's count reading, and what its counts change, kept between runs.

The count check reads the numbers, names, dates and words of every memory that holds a
digit (``counts.read_counts``); over 10,000 memories that was most of the check, and all
but the new and changed memories read as in the run before. Inside :func:`keeping_counts`
(the dream's plan opens it for its repository) a text's reading is taken from the kept
ones when the code that made it is the code running now (``counts.sqlite3`` in the git
directory, tagged with a fingerprint of the reading code), and the readings made anew are
saved when the block ends. Outside it every text is read afresh. Same answers either way.

The comparisons are kept too: what one memory's counts change depends on its text and
time and on those of the earlier memories it is compared with, in their order, and on the
consolidation code (``count-changes.sqlite3``, under a digest of those inputs), so only a
memory that is new or whose neighbours changed is compared again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountReading, Quantity
from dreamgit.dream.consolidate.frame_memo import Memo, keeping, read_through

__all__ = ["CountChange", "keeping_counts", "kept_count_changes"]

#: One count a memory changes: (which of its quantities, the place of the older memory
#: among those that quantity is compared with, the reason).
CountChange = tuple[int, int, str]

#: The source a reading depends on (relative to the package).
_READ_BY = (
    "extract",
    "textsim.py",
    "lazyre.py",
    "dream/consolidate/counts.py",
    "dream/consolidate/count_reading.py",
    "dream/consolidate/count_words.py",
    "dream/consolidate/setting_names.py",
    "dream/consolidate/restate.py",
)


class CountCodec:
    """A count reading as a JSON list of its fields (sets sorted), and back."""

    def encode(self, reading: CountReading | None) -> str:
        """The reading as JSON text ("null" for none)."""
        if reading is None:
            return "null"
        counts = [_quantity_fields(q) for q in reading.quantities]
        sets = [sorted(reading.names), sorted(reading.dates), sorted(reading.words)]
        return json.dumps([reading.fact, counts, *sets], ensure_ascii=False)

    def decode(self, text: str) -> CountReading | None:
        """A kept reading; ValueError or TypeError when it has another shape."""
        values = json.loads(text)
        if values is None:
            return None
        fact, counts, names, dates, words = values
        if not isinstance(fact, str) or not isinstance(counts, list):
            raise ValueError("a kept count reading of another shape")
        quantities = tuple(_quantity(q) for q in counts)
        return CountReading(fact, quantities, frozenset(names), frozenset(dates), frozenset(words))


def _quantity_fields(q: Quantity) -> list[Any]:
    sets = [sorted(s) for s in (q.setting, q.before, q.qualifier, q.owner)]
    flags = [q.changed, q.verb, q.increment, q.total, q.head]
    return [q.number, list(q.counted), q.rate, q.percent, *sets, *flags]


def _quantity(values: list[Any]) -> Quantity:
    number, counted, rate, percent, setting, before, qualifier, owner, *flags = values
    changed, verb, increment, total, head = flags
    return Quantity(
        number=number,
        counted=tuple(counted),
        rate=rate,
        percent=percent,
        setting=frozenset(setting),
        before=frozenset(before),
        qualifier=frozenset(qualifier),
        owner=frozenset(owner),
        changed=changed,
        verb=verb,
        increment=increment,
        total=total,
        head=head,
    )


#: The source what a count changes depends on: reading, framing and comparing.
_COMPARED_BY = ("extract", "textsim.py", "lazyre.py", "model.py", "dream/consolidate")

_CHANGES_KEEPER: ContextVar[Memo[list[CountChange]] | None] = ContextVar(
    "dreamgit_count_changes", default=None
)


class _ChangesCodec:
    """A memory's count changes as a JSON list of [int, int, str], and back."""

    def encode(self, found: list[CountChange]) -> str:
        return json.dumps([list(f) for f in found], ensure_ascii=False)

    def decode(self, text: str) -> list[CountChange]:
        values = json.loads(text)
        if not isinstance(values, list) or not all(_is_change(v) for v in values):
            raise ValueError("kept count changes of another shape")
        return [(at, place, reason) for at, place, reason in values]


def _is_change(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(type(x) is int for x in value[:2])
        and isinstance(value[2], str)
    )


def kept_count_changes(
    key: Callable[[], str], find: Callable[[], list[CountChange]]
) -> list[CountChange]:
    """``find()``, or what it found for the same inputs (their digest ``key()``) before."""
    memo = _CHANGES_KEEPER.get()
    if memo is None:
        return find()
    return memo.read(key(), lambda _key: find())


@contextmanager
def keeping_counts(git_dir: Path) -> Iterator[None]:
    """Read texts' counts, and what each memory's counts change, through those kept in
    ``git_dir``; save the new ones at the end (all read afresh when the code cannot be
    read to fingerprint)."""
    with ExitStack() as stack:
        stack.enter_context(
            keeping(git_dir, _READ_BY, "counts", CountCodec(), COUNT_KEEPER, read_through)
        )
        stack.enter_context(
            keeping(
                git_dir, _COMPARED_BY, "count-changes", _ChangesCodec(), _CHANGES_KEEPER, _itself
            )
        )
        yield


def _itself(memo: Memo[list[CountChange]]) -> Memo[list[CountChange]]:
    return memo
