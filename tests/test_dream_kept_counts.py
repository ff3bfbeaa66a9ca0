"""A dream reads its memories' counts through readings kept between runs, with the same answers.

The count check reads the numbers, names, dates and words of every memory with a digit;
``counts.sqlite3`` in the git directory keeps each text's reading (``count_memo``), so a
later run reads only new and changed memories. Whatever state that cache is in (filled by
a review, missing, damaged, written by other code, holding rows it cannot read), a dream
gives the same operations, the same run id and the same trees as on a fresh repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.dream.consolidate.count_memo import CountCodec, keeping_counts
from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountKeeper, CountReading
from dreamgit.dream.consolidate.counts import read_counts
from dreamkit import MEMORIES, Seed
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh

#: The fixture's memories and counts that newer memories change.
COUNTS: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("The user has 9 plugins in the editor.", "tools"),
    Seed("The user installed 14 plugins in the editor.", "tools", hours=2),
    Seed("The user's reading list has 30 novels.", "hobbies"),
    Seed("The user added 34 novels to their reading list.", "hobbies", hours=2),
)
#: Sentences with counts, settings, rates, names and dates, and one without any count.
SAID = (
    "The user has 9 plugins in the editor.",
    "The user bumped it to 5 workers for the billing queue.",
    "The daily upload cap for Vega is 500 files per day, up 20% since 3 June 2025.",
    "Now has a total of 10 cards using Bootstrap.",
    "Moved to Porto in 2021.",
    "Prefers pytest over unittest.",
)


#: The cache's states before the dream (``keptstates``): a reading of every text with a
#: count after a review; "other code" read no count anywhere; unreadable rows of another shape.
STATES = reading_states("counts", rows=4, wrong="null", unreadable="[1, [[2]], [], [], []]")


@pytest.mark.parametrize("prepare", STATES, ids=STATE_IDS)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_counts(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable or removed readings: the dream of a fresh repository."""
    rules = same_dream_as_fresh(tmp_path, COUNTS, prepare)
    # the counts a newer count changes (another verb: the count check's, not a frame's)
    assert rules.count("supersede-newer-value") >= 2


def _keeper() -> CountKeeper:
    keeper = COUNT_KEEPER.get()
    assert keeper is not None
    return keeper


def test_a_kept_reading_is_read_back_without_reading_the_text_again(tmp_path: Path) -> None:
    """A second block (a later process) takes each text's reading from the database."""
    with keeping_counts(tmp_path):
        first = [_keeper()(t, read_counts) for t in SAID]
    assert None in first and sum(r is not None for r in first) >= 4
    asked: list[str] = []

    def reading(text: str) -> CountReading | None:
        asked.append(text)
        raise AssertionError(f"read again: {text}")

    with keeping_counts(tmp_path):
        assert [_keeper()(t, reading) for t in SAID] == first
    assert asked == []
    assert COUNT_KEEPER.get() is None  # nothing is kept outside a block


def test_a_kept_reading_reads_back_equal_field_by_field() -> None:
    """Counts, settings, rates, percentages, names, dates and words come back as read."""
    codec = CountCodec()
    for text in SAID:
        reading = read_counts(text)
        assert codec.decode(codec.encode(reading)) == reading
