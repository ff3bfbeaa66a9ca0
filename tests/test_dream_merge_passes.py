"""Consolidation settles in one run: what a first merge brings together is merged next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamgit.dream.run import dream
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamgit.textsim import similarity

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
OLDEST = "Keeps the changelog in CHANGELOG.md at the repository root."
MIDDLE = "Keeps the release changelog in CHANGELOG.md at the repository root."
NEWEST = "Keeps the release changelog and upgrade notes in CHANGELOG.md at the repository root."


def test_a_chain_of_near_duplicates_ends_as_one_memory_after_one_compact(tmp_path: Path) -> None:
    """A~B and B~C but not A~C: the first pass merges A and B, the second adds C."""
    assert similarity(OLDEST, MIDDLE) >= 0.8 and similarity(MIDDLE, NEWEST) >= 0.8
    assert similarity(OLDEST, NEWEST) < 0.8  # so the first pass cannot see the whole chain
    repo = MemoryRepo.init(tmp_path / "memory", now=T0)
    for hours, text in enumerate((OLDEST, MIDDLE, NEWEST)):
        operations.add_memory(repo, text, topic="projects", now=T0 + timedelta(hours=hours))
    record = dream(repo, now=T0 + timedelta(days=1), gather=False)
    merges = [op for op in record["ops"] if op["op"] == "merge"]
    assert len(merges) == 2
    assert [m.text for m in repo.memories(now=T0 + timedelta(days=1))] == [NEWEST]
    again = dream(repo, now=T0 + timedelta(days=1), gather=False)
    assert again["ops"] == []


def test_a_group_with_two_protected_members_records_both(tmp_path: Path) -> None:
    """A merge skipped for protection names every protected member, not only the first."""
    repo = MemoryRepo.init(tmp_path / "memory", now=T0)
    texts = (OLDEST, MIDDLE, MIDDLE.replace("release changelog", "release change log"))
    ids = []
    for hours, text in enumerate(texts):
        priority = "core" if hours < 2 else "normal"
        ids.append(
            operations.add_memory(
                repo, text, topic="projects", priority=priority, now=T0 + timedelta(hours=hours)
            ).id
        )
    record = dream(repo, now=T0 + timedelta(days=1), gather=False)
    reasons = {d["reason"] for d in record["decisions"] if not d.get("accepted", True)}
    assert f"merge skipped: {ids[0]} is protected" in reasons
    assert f"merge skipped: {ids[1]} is protected" in reasons
