"""Work split between this process and a forked child: the same answer, whatever the child does."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Sequence

import pytest

from dreamgit.store import forkhalves
from dreamgit.store.forkhalves import in_two

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

ITEMS = list(range(40))


def _squares_by(some: Sequence[int]) -> list[tuple[int, int]]:
    """Each item's square and the process that computed it."""
    return [(n * n, os.getpid()) for n in some]


def test_the_second_half_is_done_in_a_child_and_joined_in_order() -> None:
    found = in_two(ITEMS, _squares_by, at_least=10)
    assert [square for square, _ in found] == [n * n for n in ITEMS]
    mine = {pid for _, pid in found[:20]}
    theirs = {pid for _, pid in found[20:]}
    assert mine == {os.getpid()}
    assert len(theirs) == 1 and theirs != mine


def test_few_items_are_done_here() -> None:
    found = in_two(ITEMS, _squares_by, at_least=41)
    assert found == [(n * n, os.getpid()) for n in ITEMS]


def _dies_in_the_child(parent: int, how: str) -> object:
    def work(some: Sequence[int]) -> list[tuple[int, int]]:
        if os.getpid() != parent:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "raises":
                raise RuntimeError("the child fails")
            return [(0, 0)]  # sends too few results
        return _squares_by(some)

    return work


@pytest.mark.parametrize("how", ["killed", "raises", "short"])
def test_a_child_that_dies_fails_or_sends_too_little_has_its_half_done_here(how: str) -> None:
    parent = os.getpid()
    found = in_two(ITEMS, _dies_in_the_child(parent, how), at_least=10)  # type: ignore[arg-type]
    assert found == [(n * n, parent) for n in ITEMS]


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not forkhalves.can_fork()
        found = in_two(ITEMS, _squares_by, at_least=10)
    finally:
        stop.set()
        other.join()
    assert found == [(n * n, os.getpid()) for n in ITEMS]


def test_an_error_here_stops_the_child_and_reaches_the_caller() -> None:
    parent = os.getpid()

    def work(some: Sequence[int]) -> list[int]:
        if os.getpid() == parent:
            raise ValueError("this half fails")
        signal.pause()  # the child waits to be killed
        return list(some)

    before = set(_children(parent))
    with pytest.raises(ValueError, match="this half fails"):
        in_two(ITEMS, work, at_least=10)
    children = [pid for pid in _children(parent) if pid not in before]
    assert children == []  # killed and reaped: no child left behind


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (zombies included)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry))
    return found
