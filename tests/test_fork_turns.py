"""Parts done by this process and a forked child taking turns from one queue: each part's
result is the one process's, in the parts' order, whatever the child does."""

from __future__ import annotations

import os
import signal
import time

import pytest

from dreamgit.dream.consolidate import fork_turns
from dreamgit.dream.consolidate.fork_turns import in_turns
from dreamgit.store import forkhalves
from forkcount import counted_forks

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

#: Parts of uneven cost (the first far the dearest), as a merge pass's topics are.
PARTS = [40, 2, 3, 1, 5, 2, 8, 1, 1, 3]


def _slow_square(part: int) -> tuple[int, int]:
    """The part squared and the process that did it, after ``part`` hundredths of a second."""
    time.sleep(part / 100)
    return part * part, os.getpid()


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_parts_are_shared_by_both_processes_and_answered_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forks = counted_forks(monkeypatch)
    before = _open_descriptors()
    found = in_turns(PARTS, _slow_square)
    assert [square for square, _pid in found] == [part * part for part in PARTS]
    doers = {pid for _square, pid in found}
    assert os.getpid() in doers and len(doers) == 2  # the child took the parts the dear one left
    assert forks == [1]
    assert _open_descriptors() == before  # the queue's pipe closed


@pytest.mark.parametrize("how", ["killed", "raises"])
def test_the_parts_a_failed_child_took_are_done_here(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()

    def work(part: int) -> tuple[int, int]:
        if os.getpid() != parent and part < 40:  # the child fails on its first cheap part
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("the child fails")
        return part * part, os.getpid()

    found = in_turns(PARTS, work)
    assert found == [(part * part, parent) for part in PARTS]


def test_without_a_fork_every_part_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(forkhalves, "can_fork", lambda: False)
    assert in_turns(PARTS, _slow_square) == [(p * p, os.getpid()) for p in PARTS]
    assert forks == []


@pytest.mark.parametrize("parts", [[], [3], list(range(5))])
def test_one_part_or_more_than_a_queue_holds_are_done_here(
    parts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(fork_turns, "MOST_PARTS", 4)
    assert in_turns(parts, lambda part: (part * part, os.getpid())) == [
        (p * p, os.getpid()) for p in parts
    ]
    assert forks == []


def test_an_error_here_stops_the_child_and_reaches_the_caller() -> None:
    parent = os.getpid()

    def work(part: int) -> int:
        if os.getpid() == parent:
            raise ValueError("this part fails")
        signal.pause()  # the child waits to be killed
        return part

    before = _open_descriptors()
    with pytest.raises(ValueError, match="this part fails"):
        in_turns(PARTS, work)
    assert _open_descriptors() == before


def test_a_full_queue_is_written_before_the_fork_without_blocking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forks = counted_forks(monkeypatch)
    parts = list(range(fork_turns.MOST_PARTS))
    assert in_turns(parts, lambda part: part * part) == [part * part for part in parts]
    assert forks == [1]
