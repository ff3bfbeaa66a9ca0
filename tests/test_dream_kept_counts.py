"""A dream reads its memories' counts through readings kept between runs, with the same answers.

The count check reads the numbers, names, dates and words of every memory with a digit;
``counts.sqlite3`` in the git directory keeps each text's reading (``count_memo``), so a
later run reads only new and changed memories. Whatever state that cache is in (filled by
a review, missing, damaged, written by other code, holding rows it cannot read), a dream
gives the same operations, the same run id and the same trees as on a fresh repository.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.consolidate.count_memo import CountCodec, keeping_counts
from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountKeeper, CountReading
from dreamgit.dream.consolidate.counts import read_counts
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import remove_database
from dreamkit import MEMORIES, Seed, build_repo, forced_dream, invoke_json

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


def _kept(repo: MemoryRepo) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / "counts.sqlite3"


def _reviewed(repo: MemoryRepo) -> None:
    """A review before the run (a process of its own): the database holds every reading."""
    invoke_json(repo, "review", "--force")
    with sqlite3.connect(_kept(repo)) as db:
        assert db.execute("SELECT count(*) FROM readings").fetchone()[0] >= 4


def _damaged(repo: MemoryRepo) -> None:
    _reviewed(repo)
    for suffix in ("-wal", "-shm"):
        Path(f"{_kept(repo)}{suffix}").unlink(missing_ok=True)
    _kept(repo).write_bytes(b"not a database, " * 64)


def _from_other_code(repo: MemoryRepo) -> None:
    """Readings made by other code (a fingerprint of its own), every one of them wrong."""
    _reviewed(repo)
    with sqlite3.connect(_kept(repo)) as db:
        db.execute("UPDATE readings SET value = 'null'")
        db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")


def _unreadable_rows(repo: MemoryRepo) -> None:
    """Rows this code cannot read back (another shape, not JSON): each text is read again."""
    _reviewed(repo)
    with sqlite3.connect(_kept(repo)) as db:
        texts = [t for (t,) in db.execute("SELECT text FROM readings")]
        for k, text in enumerate(texts):
            value = "{broken" if k % 2 else "[1, [[2]], [], [], []]"
            db.execute("UPDATE readings SET value = ? WHERE text = ?", (value, text))


def _removed_after_review(repo: MemoryRepo) -> None:
    _reviewed(repo)
    remove_database(_kept(repo))


def _dreamt(root: Path, prepare: Callable[[MemoryRepo], None] | None) -> tuple[Any, str]:
    repo = build_repo(root, bare=True, memories=COUNTS)
    if prepare is not None:
        prepare(repo)
    return forced_dream(repo)


@pytest.mark.parametrize(
    "prepare",
    [_reviewed, _damaged, _from_other_code, _unreadable_rows, _removed_after_review],
    ids=["kept", "damaged", "other-code", "unreadable-rows", "removed"],
)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_counts(
    tmp_path: Path, prepare: Callable[[MemoryRepo], None]
) -> None:
    """Kept, damaged, foreign, unreadable or removed readings: the dream of a fresh repository."""
    fresh, fresh_tree = _dreamt(tmp_path / "fresh", None)
    # the counts a newer count changes (another verb: the count check's, not a frame's)
    by_value = [rule for _op, _ph, rule, _m, _s in fresh[1] if rule == "supersede-newer-value"]
    assert len(by_value) >= 2
    assert _dreamt(tmp_path / "prepared", prepare) == (fresh, fresh_tree)


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
