"""paused_gc: no pass of Python's cyclic collector while a dream runs; as it was after."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.pausedgc import paused_gc
from dreamgit.dream.run import dream
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


def test_a_dream_makes_no_pass_of_the_collector(tmp_path: Path, passes: list[int]) -> None:
    """From its first phase to the merge a dream runs without one automatic collection."""
    repo = build_repo(tmp_path / "r", bare=True)
    seen: list[tuple[str, int, bool]] = []
    record = dream(
        repo,
        now=DREAM_AT,
        force=True,
        progress=lambda phase: seen.append((phase, len(passes), gc.isenabled())),
    )
    assert record["merged"] and record["ops"]
    assert seen[0][0] == "reading memories" and seen[-1][0] == "merging into main"
    assert {(count, on) for _, count, on in seen} == {(seen[0][1], False)}
    assert gc.isenabled()


def test_the_collector_is_back_after_an_error() -> None:
    """An exception inside the block leaves the collector on again."""
    with pytest.raises(RuntimeError), paused_gc():
        assert not gc.isenabled()
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off() -> None:
    """Nested in code that turned the collector off, the block leaves it off."""
    gc.disable()
    try:
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
