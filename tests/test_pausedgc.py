"""paused_gc: no pass over the middle or oldest generation while a dream runs; as it was
after."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.run import dream
from dreamgit.store.pausedgc import paused_gc
from dreamkit import DREAM_AT, build_repo


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generations the collector passed over while the test ran."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def test_a_dream_makes_no_full_pass_of_the_collector(tmp_path: Path, passes: list[int]) -> None:
    """From its first phase to the merge a dream runs without a pass over the middle or the
    oldest generation."""
    repo = build_repo(tmp_path / "r", bare=True)
    before = gc.get_threshold()
    seen: list[tuple[str, int, int]] = []
    record = dream(
        repo,
        now=DREAM_AT,
        force=True,
        progress=lambda phase: seen.append(
            (phase, len([g for g in passes if g > 0]), min(gc.get_threshold()[1:]))
        ),
    )
    assert record["merged"] and record["ops"]
    assert seen[0][0] == "reading memories" and seen[-1][0] == "merging into main"
    assert len({(count, older) for _, count, older in seen}) == 1
    assert seen[0][2] > 1_000_000
    assert gc.isenabled() and gc.get_threshold() == before


def test_the_thresholds_are_back_after_an_error() -> None:
    """An exception inside the block leaves the collector's thresholds as they were."""
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), paused_gc():
        young, middle, oldest = gc.get_threshold()
        assert young == before[0] and middle > before[1] and oldest > before[2]
        raise RuntimeError("boom")
    assert gc.get_threshold() == before


def test_a_collector_turned_off_by_the_caller_stays_off() -> None:
    """Nested in code that turned the collector off, the block leaves it off."""
    gc.disable()
    try:
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_young_cycles_are_still_collected_inside() -> None:
    """A cycle made and dropped inside the block is freed by a young pass, not kept to the end."""

    class Node:
        def __init__(self) -> None:
            self.me = self

    with paused_gc():
        gc.collect(0)
        freed_before = gc.get_stats()[0]["collected"]
        for _ in range(20_000):
            Node()
        collected = gc.get_stats()[0]["collected"]
        assert collected - freed_before > 10_000
