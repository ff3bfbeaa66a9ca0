"""The merge passes read and judge only new and changed memories for restatements, with
the same answers as the full scan.

``contained_pairs`` keeps the restatement finder's last answer (``contained.sqlite3`` in
the git directory: each note's group keys, and the judgments that held) and reads the
text of a memory, or judges a pair, only when that answer does not hold it. Whatever
the memories did in between (added, edited, moved in time order past a group's cap,
removed) and whatever state the cache is in, the pairs and their order are those of a
scan of every memory, and a dream gives the same operations and trees.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.consolidate import contained_pairs as contained_module
from dreamgit.dream.consolidate.contained_pairs import (
    contained_pairs,
    keeping_contained,
    read_ahead,
    unread,
)
from dreamgit.dream.consolidate.finder_views import FinderViews
from dreamgit.extract import duplicates
from dreamgit.extract.duplicates import ContainedKeys, DupItem, find_contained_pairs
from dreamgit.extract.frame import parse_frame
from dreamgit.extract.guards import extends, subsumes
from dreamgit.model import Memory
from dreamgit.store.keptcontained import Contained, KeptContained
from dreamgit.store.repo import MemoryRepo
from dreamgit.textsim import dice, features
from dreamkit import MEMORIES, Seed
from keptcachekit import KeptCache

_T0 = datetime(2026, 3, 2, tzinfo=UTC)
_OBJECTS = ["green tea", "black coffee"]
_PHRASES = ["", " at the office", " at the office before standup", " in the evening"]
_WORK = ["Priya works at Harbor Labs", "Priya works as a cook at Harbor Labs"]


def _memories(n: int, rng: random.Random, start: int = 0) -> list[Memory]:
    """Notes over two objects and a few qualifiers in two topics: groups larger than the
    finder's cap, restatements in every group, and some notes with a key."""
    out = []
    for k in range(start, start + n):
        if rng.random() < 0.1:
            text = rng.choice(_WORK)
        else:
            text = f"Priya drinks {rng.choice(_OBJECTS)}{rng.choice(_PHRASES)}"
        created = _T0 + timedelta(minutes=rng.randint(0, 5000))
        key = rng.choice([None, None, None, "drink.morning", "drink.evening"])
        out.append(
            Memory(
                id=f"m-{k:04d}",
                topic=rng.choice("ab"),
                slug=f"s{k}",
                text=text,
                key=key,
                created=created,
                updated=created,
            )
        )
    return out


def _scan(items: Sequence[DupItem]) -> list[tuple[str, str, float]]:
    """The full scan, as the finder has always defined it: every note's frame, groups of
    topic, subject, relation and object (the first 32 of each compared), and every note's
    phrases looked up among the groups."""
    frames = [parse_frame(item.text) for item in items]
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, (item, f) in enumerate(zip(items, frames, strict=True)):
        if f is not None and f.object:
            groups.setdefault((item.topic, f.subject, f.head, f.particle, f.object), []).append(i)
    found = set()
    for members in groups.values():
        for i, j in combinations(members[:32], 2):
            a, b = items[i], items[j]
            agree = not a.key or not b.key or a.key.lower() == b.key.lower()
            if agree and (extends(a.text, b.text) or extends(b.text, a.text)):
                found.add((i, j))
    for i, (item, f) in enumerate(zip(items, frames, strict=True)):
        for particle, words in f.phrases if f is not None else ():
            key = (item.topic, f.subject, f.head, particle, words)
            for j in groups.get(key, [])[:32]:
                if subsumes(item.text, items[j].text):
                    found.add((min(i, j), max(i, j)))
    return [
        (items[a].id, items[b].id, dice(features(items[a].text), features(items[b].text)))
        for a, b in sorted(found)
    ]


def _views(memories: Sequence[Memory]) -> tuple[list[DupItem], list[str]]:
    return FinderViews(0.8).of(sorted(memories, key=lambda m: (m.created, m.id)))


def _step(memories: list[Memory], rng: random.Random, serial: int) -> list[Memory]:
    """One run's worth of changes: some added, edited, moved earlier (past a group's
    cap) or later, removed."""
    out = list(memories)
    for _ in range(rng.randint(1, 12)):
        k = rng.randrange(len(out))
        change = rng.choice(["add", "edit", "earlier", "later", "remove", "key"])
        if change == "add":
            out += _memories(rng.randint(1, 3), rng, start=1000 * serial + len(out))
        elif change == "edit":
            out[k] = replace(out[k], text=f"Priya drinks {rng.choice(_OBJECTS)} at home")
        elif change in ("earlier", "later"):
            shift = timedelta(days=-9 if change == "earlier" else 9, minutes=k)
            out[k] = replace(out[k], created=out[k].created + shift)
        elif change == "key":
            out[k] = replace(out[k], key=rng.choice([None, "drink.morning"]))
        else:
            del out[k]
    return out


def test_the_scan_of_every_note_is_the_reference() -> None:
    """The finder's full scan is the reference's, cap and order included."""
    memories = _memories(200, random.Random(3))
    items, _signs = _views(memories)
    assert sum(m.topic == "a" and "green tea" in m.text for m in memories) > 32
    found = find_contained_pairs(items)
    assert len(found) > 20
    assert found == _scan(items)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_runs_answer_as_the_full_scan(tmp_path: Path, seed: int) -> None:
    """Runs of added, edited, moved and removed memories, each a block of its own (a
    process) with one to three passes: the pairs of a scan of every memory, in order."""
    rng = random.Random(seed)
    memories = _memories(120, rng)
    for serial in range(1, 9):
        with keeping_contained(tmp_path):
            for _pass in range(rng.randint(1, 3)):
                items, signs = _views(memories)
                assert contained_pairs(items, signs) == _scan(items)
                if rng.random() < 0.5:
                    memories = _step(memories, rng, 100 * serial + _pass)
        memories = _step(memories, rng, serial)


def _texts_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts whose keys are read from here on, in the order they are read."""
    read: list[str] = []

    def keys(text: str) -> ContainedKeys:
        read.append(text)
        return duplicates.contained_keys(text)

    monkeypatch.setattr(contained_module, "contained_keys", keys)
    return read


def test_only_new_and_changed_memories_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later block reads the texts of the edited and added memories alone."""
    read = _texts_read(monkeypatch)
    memories = _memories(80, random.Random(5))
    with keeping_contained(tmp_path):
        contained_pairs(*_views(memories))
    assert len(read) == 80
    read.clear()
    memories[4] = replace(memories[4], text="Priya drinks green tea at the desk")
    memories.append(replace(memories[9], id="m-new", text="Priya drinks black coffee at noon"))
    with keeping_contained(tmp_path):
        items, signs = _views(memories)
        assert contained_pairs(items, signs) == _scan(items)
        assert contained_pairs(items, signs) == _scan(items)  # the next pass reads none
    assert sorted(read) == [
        "Priya drinks black coffee at noon",
        "Priya drinks green tea at the desk",
    ]


def test_keys_read_ahead_are_taken_by_the_next_pass_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass takes the keys read ahead of the notes it would read and reads the rest;
    the pass after it reads as if none had been (they were its predecessor's)."""
    read = _texts_read(monkeypatch)
    memories = _memories(80, random.Random(6))
    items, signs = _views(memories)
    assert unread(items, signs) == []  # outside a block: a pass reads every text
    with keeping_contained(tmp_path):
        texts = unread(items, signs)
        assert texts == [item.text for item in items]
        distinct = list(dict.fromkeys(texts))
        ahead = {text: duplicates.contained_keys(text) for text in distinct[::2]}
        read_ahead(ahead)
        assert contained_pairs(items, signs) == _scan(items)
        assert read and sorted(read) == sorted(t for t in texts if t not in ahead)
        assert unread(items, signs) == []  # all read: the next pass reads none
    read.clear()
    memories[3] = replace(memories[3], text="Priya drinks black coffee at the desk")
    items, signs = _views(memories)
    with keeping_contained(tmp_path):
        assert unread(items, signs) == ["Priya drinks black coffee at the desk"]
        assert contained_pairs(items, signs) == _scan(items)
    assert read == ["Priya drinks black coffee at the desk"]


#: The fixture's memories and three restatements (one adds a phrase, one holds the other's
#: relation and object as a phrase, one of a core memory, which never merges: its pair is
#: found again by every run).
RESTATED: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("Drinks oolong tea at home", "habits", "core"),
    Seed("Drinks oolong tea at home with the team", "habits", hours=2),
    Seed("Drinks green tea at the office", "habits"),
    Seed("Drinks green tea at the office before the standup", "habits", hours=2),
    Seed("Works at Harbor Labs", "work"),
    Seed("Works as a site engineer at Harbor Labs", "work", hours=2),
)


KEPT = KeptCache("contained.sqlite3", RESTATED, "SELECT count(*) FROM held")


def _from_other_code(repo: MemoryRepo) -> None:
    """An answer kept by other code (a fingerprint of its own), every judgment wrong."""
    KEPT.reviewed(repo)
    with sqlite3.connect(KEPT.path(repo)) as db:
        db.execute("DELETE FROM held")
        db.execute("UPDATE notes SET grp = NULL, phrases = ''")
        db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")


def _saved_by_another_process(repo: MemoryRepo) -> None:
    """An answer whose generation another process moved on: written whole again."""
    KEPT.reviewed(repo)
    with sqlite3.connect(KEPT.path(repo)) as db:
        db.execute("UPDATE meta SET value = '41' WHERE key = 'generation'")


def _from_another_store(repo: MemoryRepo) -> None:
    KEPT.from_another_store(repo, RESTATED[:16])


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The dream of a fresh repository, made once for the states compared with it."""
    return KEPT.dreamt(tmp_path_factory.mktemp("fresh"), None)


@pytest.mark.parametrize(
    "prepare",
    [KEPT.reviewed, KEPT.damaged, _from_other_code, _saved_by_another_process, _from_another_store],
    ids=["kept", "damaged", "other-code", "other-generation", "another-store"],
)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_answer(
    tmp_path: Path, prepare: Callable[[MemoryRepo], None], fresh: tuple[Any, str]
) -> None:
    """Kept, damaged, foreign or removed answers: the dream of a fresh repository."""
    assert any(op[2] == "merge-restatement" for op in fresh[0][1])
    assert KEPT.dreamt(tmp_path / "prepared", prepare) == fresh


def test_deleting_the_kept_answer_changes_no_dream(tmp_path: Path, fresh: tuple[Any, str]) -> None:
    """The answer removed after a review: the same dream."""
    assert KEPT.dreamt(tmp_path / "removed", KEPT.removed_after_review) == fresh


def test_the_kept_answer_is_loaded_at_the_first_pass_not_when_the_block_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dream opens the block before its memories are read: the kept answer is read when
    a pass first asks for it, once; a block with no pass reads none."""
    memories = _memories(60, random.Random(7))
    with keeping_contained(tmp_path):
        contained_pairs(*_views(memories))
    loads: list[Path] = []
    load = KeptContained.load

    def counted(kept: KeptContained) -> Contained:
        loads.append(kept.path)
        return load(kept)

    monkeypatch.setattr(KeptContained, "load", counted)
    with keeping_contained(tmp_path):
        assert loads == []
    assert loads == []
    with keeping_contained(tmp_path):
        assert loads == []
        items, signs = _views(memories)
        assert contained_pairs(items, signs) == _scan(items)
        assert contained_pairs(items, signs) == _scan(items)
    assert len(loads) == 1
