"""Each memory's count reading, kept between runs.

The count check reads the numbers, names, dates and words of every memory that holds a
digit (``counts.read_counts``); over 10,000 memories that was most of the check, and all
but the new and changed memories read as in the run before. Inside :func:`keeping_counts`
(the dream's plan opens it for its repository) a text's reading is taken from the kept
ones when the code that made it is the code running now (``counts.sqlite3`` in the git
directory, tagged with a fingerprint of the reading code), and the readings made anew are
saved when the block ends. Outside it every text is read afresh. Same answers either way.

What each memory's counts change is kept with the newer-value check's layout
(``count_layout``, ``update_layout``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountReading, Quantity
from dreamgit.dream.consolidate.frame_memo import keeping, read_through
from dreamgit.jsontext import as_json

__all__ = ["keeping_counts"]

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
        return as_json([reading.fact, counts, *sets])

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


@contextmanager
def keeping_counts(git_dir: Path) -> Iterator[None]:
    """Read texts' counts through those kept in ``git_dir``; save the new ones at the end
    (all read afresh when the code cannot be read to fingerprint)."""
    with keeping(git_dir, _READ_BY, "counts", CountCodec(), COUNT_KEEPER, read_through):
        yield
