"""What each memory's counts change is kept between runs, with the same answers.

The count check compares each count with a bounded window of earlier memories counting
the same thing, found by position (``count_index``); what one memory's counts change is
kept under a digest of its text and time and those of the memories it is compared with
(``count-changes.sqlite3``, ``count_memo``). Whatever state that cache is in, a dream gives
the same operations and trees as on a fresh repository; an answer kept is used without
comparing again; and the window found by position is the one a scan of every earlier
memory finds.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from dreamgit.dream.consolidate import counts
from dreamgit.dream.consolidate.count_index import CountIndex
from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.count_reading import Quantity
from dreamgit.dream.consolidate.update_passes import WINDOW
from dreamgit.model import Memory
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh
from test_dream_kept_counts import COUNTS

#: "other code" found no change anywhere; unreadable rows hold a place that is not a number.
STATES = reading_states("count-changes", rows=2, wrong="[]", unreadable='[["a", 0, "x"]]')


@pytest.mark.parametrize("prepare", STATES, ids=STATE_IDS)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_count_changes(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable or removed answers: the dream of a fresh repository."""
    rules = same_dream_as_fresh(tmp_path, COUNTS, prepare)
    assert rules.count("supersede-newer-value") >= 2


def _memories() -> list[Memory]:
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    said = [
        "The user has 9 plugins in the editor.",
        "The user's reading list has 30 novels.",
        "The user installed 14 plugins in the editor.",
        "The user added 34 novels to their reading list.",
    ]
    return [
        Memory(
            id=f"m-{k}",
            topic="tools",
            slug=f"s{k}",
            text=text,
            created=start + timedelta(hours=k),
            updated=start + timedelta(hours=k),
        )
        for k, text in enumerate(said)
    ]


def test_a_kept_answer_is_used_without_comparing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later block (a later process) takes each memory's count changes from the database."""
    memories = _memories()
    with keeping_counts(tmp_path):
        first = [(a.id, b.id, why) for a, b, why in counts.count_changes(memories)]
    assert [(a, b) for a, b, _why in first] == [("m-0", "m-2"), ("m-1", "m-3")]

    def compared(*_args: object) -> list[tuple[int, int, str]]:
        raise AssertionError("compared again")

    monkeypatch.setattr(counts, "_changes", compared)
    with keeping_counts(tmp_path):
        again = [(a.id, b.id, why) for a, b, why in counts.count_changes(memories)]
    assert again == first
    with pytest.raises(AssertionError, match="compared again"):
        list(counts.count_changes(memories))  # outside a block nothing is kept


def test_a_changed_neighbour_compares_again(tmp_path: Path) -> None:
    """An earlier memory edited since the answer was kept: the memory is compared anew."""
    memories = _memories()
    with keeping_counts(tmp_path):
        assert len(list(counts.count_changes(memories))) == 2
    memories[0] = Memory(
        id="m-0",
        topic="tools",
        slug="s0",
        text="The user has 14 plugins in the editor.",
        created=memories[0].created,
        updated=memories[0].created,
    )
    with keeping_counts(tmp_path):
        found = [(a.id, b.id) for a, b, _why in counts.count_changes(memories)]
    assert found == [("m-1", "m-3")]  # 14 plugins then and now: no change


_EAST = timezone(timedelta(hours=2))


def _scan(
    counted: list[tuple[Quantity, ...]], created: list[datetime], n: int, q: Quantity
) -> list[int]:
    """The windows as a scan of every memory finds them (the count check before the index)."""
    by_word: dict[str, list[int]] = {}
    by_phrase: dict[tuple[str, ...], list[int]] = {}
    for k, quantities in enumerate(counted):
        for p in quantities:
            for w in p.counted[-1:] or tuple(p.setting):
                by_word.setdefault(w, []).append(k)
            if len(p.counted) > 1:
                by_phrase.setdefault(p.counted, []).append(k)
    words = set(q.counted[-1:]) | q.setting | (q.before if q.changed else set())
    near = sorted({k for w in words for k in by_word.get(w, ()) if k < n})[-WINDOW:]
    same = [k for k in by_phrase.get(q.counted, ()) if k < n][-WINDOW:]
    at_once: list[int] = []
    if q.changed:
        found = {k for w in words for k in by_word.get(w, ())} | set(by_phrase.get(q.counted, ()))
        at_once = sorted(k for k in found if k > n and created[k] == created[n])
    return [*reversed(sorted({*near, *same})), *at_once]


def test_the_window_found_by_position_is_the_scans_window() -> None:
    """Random counts over few words and few moments: the same memories in the same order."""
    rng = random.Random(7)
    nouns = ["plugins", "novels", "workers", "days", "problems"]
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    for _round in range(20):
        counted: list[tuple[Quantity, ...]] = []
        created: list[datetime] = []
        for _k in range(rng.randint(50, 400)):
            quantities = []
            for _q in range(rng.randint(1, 3)):
                phrase = tuple(rng.sample(nouns, rng.randint(0, 2)))
                quantities.append(
                    Quantity(
                        number=str(rng.randint(1, 9)),
                        counted=phrase,
                        rate="",
                        percent=False,
                        setting=frozenset(rng.sample(nouns, rng.randint(0, 1))),
                        before=frozenset(rng.sample(nouns, rng.randint(0, 2))),
                        qualifier=frozenset(),
                        owner=frozenset(),
                        changed=rng.random() < 0.5,
                        verb="have",
                        increment=False,
                    )
                )
            counted.append(tuple(quantities))
            # some said at the moment before, at times in another offset (the same instant)
            if created and rng.random() < 0.3:
                created.append(created[-1].astimezone(rng.choice([UTC, _EAST])))
            else:
                moment += timedelta(minutes=rng.randint(1, 3))
                created.append(moment)
        index = CountIndex(counted, created)
        for n, quantities in enumerate(counted):
            for q in quantities:
                assert index.compared(n, q) == _scan(counted, created, n, q)
