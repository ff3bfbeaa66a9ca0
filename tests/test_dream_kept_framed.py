"""The newer-value check takes what each unchanged memory says from the readings kept
between runs.

``framed.sqlite3`` in the git directory keeps, under a memory's text, the frame of its
sentence, the frames it says of its subjects and a promotion it names (``framed_memo``),
so a later run reads afresh only the new and changed memories. Whatever state that cache
is in (filled by a review, missing, damaged, written by other code, holding rows it cannot
read), a dream gives the same operations, run id and trees as on a fresh repository.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.dream.consolidate import update_frames
from dreamgit.dream.consolidate.framed_memo import keeping_framed
from dreamgit.dream.consolidate.update_frames import frames_by_subject
from dreamgit.model import Memory
from dreamkit import MEMORIES, Seed
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh

#: The fixture's memories, values that newer memories change, and a promotion.
CHANGES: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("The build server runs Jenkins 2.3.", "work"),
    Seed("The build server runs Jenkins 2.4 now.", "work", hours=2),
    Seed("The user's brother lives in Porto; he moved there from Braga.", "people"),
    Seed("The user's brother lives in Faro.", "people", hours=2),
)

#: "other code" read nothing in any memory; unreadable rows name a sentence not there.
STATES = reading_states("framed", rows=4, wrong="[null, [], []]", unreadable="[3, [], []]")


@pytest.mark.parametrize("prepare", STATES, ids=STATE_IDS)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_readings(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable or removed readings: the dream of a fresh repository."""
    rules = same_dream_as_fresh(tmp_path, CHANGES, prepare)
    assert rules.count("supersede-newer-value") >= 2


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _memory(n: int, text: str, hours: int) -> Memory:
    when = T0 + timedelta(hours=hours)
    return Memory(
        id=f"m-frm{n:05d}", topic="work", slug=f"s{n}", text=text, created=when, updated=when
    )


STORE = [
    _memory(1, "The build server runs Jenkins 2.3.", 0),
    _memory(2, "The build server runs Jenkins 2.4 now.", 2),
    _memory(3, "Dana got promoted to Staff Engineer.", 1),
    _memory(4, "Dana is a senior engineer; her team ships the billing service.", 0),
]


def test_a_second_block_reads_no_unchanged_memory_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later process reads only a changed memory's text, and frames all alike."""
    with keeping_framed(tmp_path):
        first = frames_by_subject(STORE)
    assert first[1] and len(first[0]) >= 3  # a promotion, and frames of several subjects
    read: list[str] = []
    real = update_frames.as_fact

    def counting(text: str) -> str:
        read.append(text)
        return real(text)

    monkeypatch.setattr(update_frames, "as_fact", counting)
    with keeping_framed(tmp_path):
        assert frames_by_subject(STORE) == first
    assert read == []
    changed = [*STORE[:3], _memory(4, "Dana is a principal engineer.", 0)]
    with keeping_framed(tmp_path):
        assert frames_by_subject(changed) == frames_by_subject(changed)
    assert read == ["Dana is a principal engineer."]  # once: the block keeps what it read
    assert frames_by_subject(changed) != first
