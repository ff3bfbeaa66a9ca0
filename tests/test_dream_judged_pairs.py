"""The merge passes judge only pairs with a new or changed memory, with the same answers.

``judged_pairs`` keeps the duplicate finder's last judged set (``pairs.sqlite3`` in the git
directory) and asks the finder only for pairs with a memory that set did not hold. Whatever
state that cache is in (filled by a review, missing, damaged, written by other code, kept
from another repository's memories), a dream gives the same operations, the same run id
and the same trees as a dream on a fresh repository.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from dreamgit.dream.consolidate import judged_pairs, topic_turns
from dreamgit.dream.consolidate.judged_pairs import duplicate_pairs, keeping_pairs
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.model import Memory
from dreamgit.store.keptpairs import Judged, KeptPairs
from dreamgit.store.repo import MemoryRepo
from dreamkit import MEMORIES, Seed
from keptcachekit import KeptCache

#: The fixture's memories and two more near-duplicates, one of them in another topic.
REPEATS: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("Lives in Lisbon, Portugal!", "identity", hours=2),
    Seed("Uses Flask for the web services at work", "work", hours=2),
)


KEPT = KeptCache("pairs.sqlite3", REPEATS, "SELECT count(*) FROM pairs")


def _from_other_code(repo: MemoryRepo) -> None:
    """Pairs kept by other code (a fingerprint of its own), every one of them wrong."""
    KEPT.reviewed(repo)
    with sqlite3.connect(KEPT.path(repo)) as db:
        items = [i for (i,) in db.execute("SELECT item FROM judged")]
        db.executemany("INSERT INTO pairs VALUES (?, ?, 1.0)", itertools.pairwise(items))
        db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")


def _from_another_store(repo: MemoryRepo) -> None:
    """The judged set of another repository (other memories, some shared, some edited)."""
    KEPT.from_another_store(repo, MEMORIES[:9])


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The dream of a fresh repository, made once for the states compared with it."""
    return KEPT.dreamt(tmp_path_factory.mktemp("fresh"), None)


@pytest.mark.parametrize(
    "prepare",
    [KEPT.reviewed, KEPT.damaged, _from_other_code, _from_another_store, KEPT.removed_after_review],
    ids=["kept", "damaged", "other-code", "another-store", "removed"],
)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_pairs(
    tmp_path: Path, prepare: Callable[[MemoryRepo], None], fresh: tuple[Any, str]
) -> None:
    """Kept, damaged, foreign or removed pairs: the dream of a fresh repository."""
    assert sum(op == "merge" for op, _ph, _rule, _m, _s in fresh[0][1]) >= 2
    assert KEPT.dreamt(tmp_path / "prepared", prepare) == fresh


_T0 = datetime(2026, 1, 5, tzinfo=UTC)
_WORDS = ["pytest", "Flask", "Postgres", "uv", "ruff", "vim", "daily", "at work", "in staging"]


def _memories(n: int, seed: int) -> list[Memory]:
    """Short facts over a few words in two topics: many near-duplicates."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        text = " ".join(["Priya", rng.choice(["uses", "likes"]), *rng.sample(_WORDS, 3)])
        created = _T0 + timedelta(hours=rng.randint(0, 50))
        out.append(
            Memory(
                id=f"m-{k:04d}",
                topic=rng.choice("ab"),
                slug=f"s{k}",
                text=text,
                created=created,
                updated=created,
            )
        )
    return out


def _pairs(memories: Sequence[Memory]) -> list[tuple[str, str, float]]:
    ordered = sorted(memories, key=lambda m: (m.created, m.id))
    return duplicate_pairs(ordered, [DupItem.from_memory(m) for m in ordered], 0.8)


def _whole(memories: Sequence[Memory]) -> list[tuple[str, str, float]]:
    ordered = sorted(memories, key=lambda m: (m.created, m.id))
    return find_duplicate_pairs([DupItem.from_memory(m) for m in ordered], threshold=0.8)


def test_only_pairs_with_new_or_changed_memories_are_judged_and_the_answer_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later block (a later process) asks the finder about the changed, moved and added
    memories alone, and answers every pair of the whole store, in the finder's order."""
    asked: list[Collection[str] | None] = []

    def finder(items: Sequence[DupItem], **kwargs: Any) -> list[tuple[str, str, float]]:
        asked.append(kwargs.get("involving"))
        return find_duplicate_pairs(items, **kwargs)

    monkeypatch.setattr(judged_pairs, "find_duplicate_pairs", finder)
    monkeypatch.setattr(topic_turns, "find_duplicate_pairs", finder)  # every pair
    before = _memories(300, seed=1)
    with keeping_pairs(tmp_path):
        assert _pairs(before) == _whole(before)
    assert asked and set(asked) == {None}  # all new: every pair judged (topic by topic)
    asked[:] = [None]
    after = before[:200] + before[210:]  # ten gone
    after[3] = replace(after[3], text="Priya uses Postgres daily in staging")  # changed
    after[4] = replace(after[4], created=after[4].created + timedelta(days=9))  # moved last
    after.append(replace(before[5], id="m-new"))  # a copy: a pair with m-0005
    with keeping_pairs(tmp_path):
        assert _pairs(after) == _whole(after)
        assert _pairs(after) == _whole(after)  # the next pass: nothing new to judge
    assert asked[1:] == [{after[3].id, after[4].id, "m-new"}]
    with keeping_pairs(tmp_path):  # the set the last pass judged, kept
        assert _pairs(after) == _whole(after)
    assert len(asked) == 2
    assert _pairs(after) == _whole(after)  # outside a block: every pair judged
    assert len(asked) > 2 and set(asked[2:]) == {None}


def test_a_signature_tells_apart_what_a_pass_depends_on_and_only_that() -> None:
    """Another time, text, topic or key is another version; the same instant at another
    offset, or a field the finder never reads, is the same one."""
    at = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    base = Memory("m-1", "facts", "m-1", "Uses uv for Python", at, at)
    same = [
        replace(base, created=at.astimezone(timezone(timedelta(hours=2)))),
        replace(base, updated=at + timedelta(days=1), tags=("tools",), recalls=4),
    ]
    other = [
        replace(base, created=at + timedelta(microseconds=1)),
        replace(base, created=at.astimezone(ZoneInfo("Europe/Oslo")) + timedelta(seconds=1)),
        replace(base, text="Uses uv for Python."),
        replace(base, topic="tools"),
        replace(base, key="python.installer"),
    ]
    sign = judged_pairs.signature(base, 0.8)
    assert [judged_pairs.signature(m, 0.8) for m in same] == [sign, sign]
    signs = {judged_pairs.signature(m, 0.8) for m in other}
    assert len(signs) == len(other) and sign not in signs
    assert judged_pairs.signature(base, 0.85) != sign


def test_the_kept_set_is_loaded_at_the_first_pass_not_when_the_block_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dream opens the block before its memories are read: the kept set is read when a
    pass first asks for it, once; a block with no pass reads none."""
    before = _memories(60, seed=3)
    with keeping_pairs(tmp_path):
        _pairs(before)
    loads: list[Path] = []
    load = KeptPairs.load

    def counted(kept: KeptPairs) -> Judged:
        loads.append(kept.path)
        return load(kept)

    monkeypatch.setattr(KeptPairs, "load", counted)
    with keeping_pairs(tmp_path):
        assert loads == []
    assert loads == []
    with keeping_pairs(tmp_path):
        assert loads == []
        assert _pairs(before) == _whole(before)
        assert _pairs(before) == _whole(before)
    assert len(loads) == 1
