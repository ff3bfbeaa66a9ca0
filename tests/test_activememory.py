"""A memory found by its id through the derived store reads as a snapshot reads it."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.activememory import active_memory
from dreamgit.store.repo import MemoryRepo

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def _repo(tmp_path: Path) -> MemoryRepo:
    """Three memories, a second file stating the first one's id, and a broken file."""
    repo = MemoryRepo.init(tmp_path / "mem", bare=True, now=NOW)
    first = operations.add_memory(repo, "Swims before work.", topic="habits", now=NOW)
    operations.add_memory(repo, "Prefers green tea.", topic="food", tags=["drinks"], now=NOW)
    operations.add_memory(repo, "Lives near the harbour.", topic="places", now=NOW)
    twin = (repo.read_text(first.path) or "").replace("Swims before work.", "Swims at noon.")
    files = {
        "memories/zzz/second-of-its-id.md": twin.encode(),
        "memories/habits/broken.md": b"---\ndream: [unclosed\n---\nNot readable.\n",
    }
    repo.commit_main("hand: two files", lambda _tip: files, now=NOW)
    return repo


@pytest.mark.parametrize("usable", [True, False])
def test_each_id_reads_as_the_snapshot_has_it(tmp_path: Path, usable: bool) -> None:
    """Every active memory is found with the snapshot's fields (the first file of an id
    by path wins), an unknown id is None, with or without a usable derived store."""
    repo = _repo(tmp_path)
    if not usable:  # a database that cannot be opened: the files answer
        cache = repo.store.git_dir / "dreamgit" / "cache" / "derived.sqlite3"
        cache.unlink(missing_ok=True)
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir(parents=True)
    snapshot = repo.snapshot(now=NOW)
    assert len(snapshot.memories) == 3
    for memory in snapshot.memories:
        assert active_memory(repo, memory.id, repo.tip(), now=NOW) == memory
    assert active_memory(repo, "m-unknown1", repo.tip(), now=NOW) is None


def test_reinforce_finds_the_memory_through_the_derived_store(tmp_path: Path) -> None:
    """The reinforced memory is the id's active file, updated and tagged, others kept."""
    repo = _repo(tmp_path)
    before = repo.snapshot(now=NOW).by_id()
    target = next(m for m in before.values() if m.topic == "food")
    later = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    done = operations.reinforce(repo, target.id, now=later, tags=["again"])
    after = repo.snapshot(now=later).by_id()
    assert done == after[target.id]
    assert (done.updated, done.tags) == (later, ("again", "drinks"))
    assert {i: m for i, m in after.items() if i != target.id} == {
        i: m for i, m in before.items() if i != target.id
    }
