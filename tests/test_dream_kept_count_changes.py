"""What each memory's counts change is kept between runs, with the same answers.

The count check compares each count with a bounded window of earlier memories counting
the same thing; what one memory's counts change is kept with the newer-value check's
layout (``count_layout``, ``update_layout``; its cache states are
``test_dream_update_layout``'s), and only a memory whose window a new, changed or removed
memory entered or left is compared again. An answer kept is used without comparing again,
a changed neighbour is compared anew, and the window the layout finds is the one a scan
of every earlier memory finds.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from dreamgit.dream.consolidate import counts
from dreamgit.dream.consolidate.count_layout import CountLayout, spec
from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.count_reading import Quantity
from dreamgit.dream.consolidate.count_said import Said
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.dream.consolidate.update_passes import WINDOW
from dreamgit.model import Memory


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


def _changes(tmp_path: Path, memories: list[Memory]) -> list[tuple[str, str, str]]:
    """The count changes a run with the caches of the runs before finds."""
    with keeping_counts(tmp_path), keeping_updates(tmp_path):
        return [(u.old, u.new, u.reason) for u in find_updates(memories)]


def test_a_kept_answer_is_used_without_comparing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later block (a later process) takes each memory's count changes from the layout."""
    memories = _memories()
    first = _changes(tmp_path, memories)
    assert [(a, b) for a, b, _why in first] == [("m-0", "m-2"), ("m-1", "m-3")]

    def compared(*_args: object) -> str | None:
        raise AssertionError("compared again")

    monkeypatch.setattr(counts, "_changed_count", compared)
    assert _changes(tmp_path, memories) == first
    with pytest.raises(AssertionError, match="compared again"):
        counts.count_changes(memories)  # outside a block nothing is kept


def test_a_changed_neighbour_compares_again(tmp_path: Path) -> None:
    """An earlier memory edited since the answer was kept: the memory is compared anew."""
    memories = _memories()
    assert len(_changes(tmp_path, memories)) == 2
    memories[0] = Memory(
        id="m-0",
        topic="tools",
        slug="s0",
        text="The user has 14 plugins in the editor.",
        created=memories[0].created,
        updated=memories[0].created,
    )
    assert [(a, b) for a, b, _why in _changes(tmp_path, memories)] == [("m-1", "m-3")]


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


def test_the_window_the_layout_finds_is_the_scans_window() -> None:
    """Random counts over few words and few moments, put in the layout in random order:
    the same memories in the same order."""
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
        # time order is the order of the ISO times (then ids), as the check sorts them
        order = sorted(range(len(created)), key=lambda k: (created[k].isoformat(), k))
        counted = [counted[k] for k in order]
        created = [created[k] for k in order]
        layout = CountLayout({}, id_of=str)
        keys = [f"{n:05d}" for n in range(len(counted))]
        for n in rng.sample(range(len(counted)), len(counted)):
            memory = Memory(keys[n], "t", keys[n], "x", created[n], created[n])
            layout.add(keys[n], spec(memory, counted[n], None))
        for n, quantities in enumerate(counted):
            for q in quantities:
                found = [int(k) for k in layout.compared(keys[n], q)]
                assert found == _scan(counted, created, n, q)


def test_an_older_memory_of_another_subject_is_not_read_to_be_kept_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new memory compared with the kept ones: an older memory whose subject keeps its
    counts apart (another team's) is told apart by the kept layout, not read again; one of
    the same subject is read and its count changed."""
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    said = [
        "The billing team has 9 workers.",
        "The search team has 4 workers.",
        "The billing team now has 12 workers.",
    ]
    memories = [
        Memory(f"m-{k}", "teams", f"s{k}", text, start + timedelta(hours=k), start)
        for k, text in enumerate(said)
    ]
    assert _changes(tmp_path, memories[:2]) == []
    read: list[str] = []
    reader = counts._said

    def reading(memory: Memory) -> Said | None:
        read.append(memory.id)
        return reader(memory)

    monkeypatch.setattr(counts, "_said", reading)
    assert [(a, b) for a, b, _why in _changes(tmp_path, memories)] == [("m-0", "m-2")]
    assert sorted(read) == ["m-0", "m-2"]


def test_the_changes_found_do_not_hang_on_the_order_memories_are_compared_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The layout compares memories word by word for the processor's cache: compared in
    the opposite order, the same changes."""
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    said = [
        "The user has 9 plugins in the editor.",
        "The user's reading list has 30 novels.",
        "The billing team has 4 workers.",
        "The user installed 14 plugins in the editor.",
        "The billing team now has 6 workers.",
        "The user added 34 novels to their reading list.",
        "The user now has 20 plugins in the editor.",
    ]
    memories = [
        Memory(f"m-{k}", "tools", f"s{k}", text, start + timedelta(hours=k), start)
        for k, text in enumerate(said)
    ]
    found = counts.count_changes(memories)
    assert len(found) == 4
    ordered = CountLayout.in_word_order
    monkeypatch.setattr(CountLayout, "in_word_order", lambda self, keys: ordered(self, keys)[::-1])
    assert counts.count_changes(memories) == found
