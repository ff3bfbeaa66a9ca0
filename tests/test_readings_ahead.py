"""A cold store's readings made in two processes: what one process finds and keeps.

When thousands of the memories a newer-value check reads have no kept reading, a forked
child reads half of those (``readings_ahead``). The updates found and every row kept
(frames, readings, counts) are those of one process; a child that dies, fails or sends
too little leaves its half to this process; the child reads and saves no kept reading;
a run whose readings are kept does not fork. The threshold is lowered here so that a few
dozen memories split.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.consolidate import counts, readings_ahead
from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.frame_memo import Memo, keeping_frames
from dreamgit.dream.consolidate.update import Update, find_updates
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.extract.frame import parse_frame
from dreamgit.model import Memory
from dreamgit.store import forkhalves
from dreamgit.store.keptframes import KeptReadings
from dreamgit.store.lookedreadings import LookedUpReadings

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

_T0 = datetime(2026, 5, 4, 8, tzinfo=UTC)
_WHO = ["Lena", "Omar", "The user", "The user's brother", "Lena's team"]
_SHAPES = [
    "{who} has {n} plugins.",
    "{who} now has {n} plugins.",
    "{who} lives in {place}.",
    "{who} moved to {place}.",
    "{who} uses {tool} for the billing service.",
    "{who} switched from Flask to {tool}.",
    "{who} no longer uses {tool}.",
    "The staging database listens on port {n}00.",
    "Lena got promoted to senior engineer in {place}.",
    "The launch of the atlas site moved to {n} July; {who} is glad, said {tool}.",
]
_PLACES = ["Oslo", "Porto", "Quito", "Riga"]
_TOOLS = ["Django", "Redis", "Postgres"]
#: Memories enough to split at the lowered threshold, each text its own.
MEMORIES = [
    Memory(
        id=f"m-two{n:04d}",
        topic="life",
        slug=f"s{n}",
        text=_SHAPES[n % len(_SHAPES)].format(
            who=_WHO[n % len(_WHO)], n=n + 2, place=_PLACES[n % 4], tool=_TOOLS[n % 3]
        ),
        created=_T0 + timedelta(hours=n * 7 % 90),
        updated=_T0 + timedelta(hours=n * 7 % 90),
    )
    for n in range(80)
]
_KINDS = ("frames", "update-readings", "counts")


@contextmanager
def _kept(git_dir: Path) -> Iterator[None]:
    """The caches a dream's plan opens for the newer-value and count checks."""
    with ExitStack() as stack:
        stack.enter_context(keeping_frames(git_dir))
        stack.enter_context(keeping_counts(git_dir))
        stack.enter_context(keeping_updates(git_dir))
        yield


def _forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The forks made from now on (one entry each)."""
    made: list[int] = []
    fork = os.fork

    def counted() -> int:
        made.append(1)
        return fork()

    monkeypatch.setattr(forkhalves.os, "fork", counted)
    return made


def _rows(git_dir: Path) -> dict[str, list[tuple[str, str]]]:
    """Every kept reading of each kind, in the order of its text."""
    found = {}
    for kind in _KINDS:
        with sqlite3.connect(git_dir / "dreamgit" / "cache" / f"{kind}.sqlite3") as db:
            found[kind] = db.execute("SELECT text, value FROM readings ORDER BY text").fetchall()
    return found


def _run(git_dir: Path, memories: Sequence[Memory] = MEMORIES) -> list[Update]:
    """The updates of one run over the caches kept in ``git_dir`` (each sentence framed
    afresh or taken from there, not from a run before in this process)."""
    parse_frame.cache_clear()
    with _kept(git_dir):
        return find_updates(memories)


def _one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """The updates and kept rows of a cold run in one process."""
    with monkeypatch.context() as patch:
        patch.setattr(readings_ahead, "SPLIT_AT", 10**9)
        found = _run(tmp_path / "one")
    return found, _rows(tmp_path / "one")


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thresholds a few dozen memories pass."""
    monkeypatch.setattr(readings_ahead, "SPLIT_AT", 8)


@pytest.mark.usefixtures("split")
def test_a_cold_run_in_two_processes_finds_and_keeps_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same updates, and the same rows of frames, readings and counts."""
    one, rows = _one_process(tmp_path, monkeypatch)
    forks = _forks(monkeypatch)
    assert _run(tmp_path / "two") == one
    assert forks == [1]
    assert _rows(tmp_path / "two") == rows
    assert rows["update-readings"] and rows["frames"] and rows["counts"]
    # and a run over what two processes kept finds the same, reading nothing
    assert _run(tmp_path / "two") == one
    assert forks == [1]


def _failing(parent: int, how: str) -> Callable[..., Any]:
    """The child's work, failing ``how`` in the child."""
    afresh = readings_ahead._Afresh.__call__

    def work(self: Any, memories: Sequence[Memory]) -> list[Any]:
        made = afresh(self, memories)
        if os.getpid() != parent:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "raises":
                raise RuntimeError("the child fails")
            return made[:-1]  # one reading short
        return made

    return work


@pytest.mark.usefixtures("split")
@pytest.mark.parametrize("how", ["killed", "raises", "short"])
def test_a_child_that_dies_fails_or_sends_short_leaves_its_half_read_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    one, rows = _one_process(tmp_path, monkeypatch)
    monkeypatch.setattr(readings_ahead._Afresh, "__call__", _failing(os.getpid(), how))
    forks = _forks(monkeypatch)
    assert _run(tmp_path / "two") == one
    assert forks == [1]
    assert _rows(tmp_path / "two") == rows


def _logged(log: Path, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method``, noting the process that calls it in ``log`` first."""

    def called(*args: Any, **kwargs: Any) -> Any:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {name}\n")
        return method(*args, **kwargs)

    return called


@pytest.mark.usefixtures("split")
def test_the_child_reads_and_saves_no_kept_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forked child neither reads nor writes the kept readings' databases: it must
    not touch the connections it inherited, nor write beside them."""
    log = tmp_path / "calls.log"
    watched = [
        (Memo, ("read", "prefetch", "missing", "add_made", "save", "close")),
        (KeptReadings, ("_open", "add", "load_some", "looked_up", "save", "save_current")),
        (LookedUpReadings, ("pop", "close", "_rest", "_rows")),
        (readings_ahead._Afresh, ("__call__",)),
    ]
    for owner, names in watched:
        for name in names:
            method = getattr(owner, name)
            monkeypatch.setattr(owner, name, _logged(log, name, method))
    _run(tmp_path / "two")
    calls = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    child = {pid for pid, name in calls if name == "__call__"}
    assert len(child) == 1 and child != {str(os.getpid())}
    assert [name for pid, name in calls if pid in child] == ["__call__"]


@pytest.mark.usefixtures("split")
def test_a_run_whose_readings_are_kept_does_not_fork(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every memory read again (the check's layout lost) but few without a kept reading:
    one process."""
    _run(tmp_path)
    (tmp_path / "dreamgit" / "cache" / "update-layout.sqlite3").unlink()
    forks = _forks(monkeypatch)
    more = [
        Memory(
            id=f"m-new{n}",
            topic="life",
            slug=f"n{n}",
            text=f"Omar has {n + 50} novels.",
            created=_T0,
            updated=_T0,
        )
        for n in range(3)
    ]
    _run(tmp_path, [*MEMORIES, *more])
    assert forks == []


@pytest.mark.usefixtures("split")
def test_the_count_readings_of_the_childs_memories_come_from_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count check that follows takes the child's count readings: this process reads
    only the others."""
    read_here: list[str] = []
    read_counts = counts.read_counts

    def spied(text: str) -> Any:
        if os.getpid() == parent:
            read_here.append(text)
        return read_counts(text)

    parent = os.getpid()
    monkeypatch.setattr(counts, "read_counts", spied)
    _run(tmp_path)
    counted = [t for t, _ in _rows(tmp_path)["counts"]]
    assert 0 < len(read_here) < len(counted)


@pytest.mark.usefixtures("split")
def test_a_run_whose_counts_are_kept_makes_only_the_readings_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readings lost (another reading code) but the counts kept: the child reads the
    readings, the counts are taken from those kept, and the rows are the same."""
    found = _run(tmp_path)
    rows = _rows(tmp_path)
    for kind in ("update-readings", "update-layout"):
        (tmp_path / "dreamgit" / "cache" / f"{kind}.sqlite3").unlink()
    made: list[int] = []
    add_made = Memo.add_made

    def spied(memo: Memo[Any], readings: Any, *, held: bool) -> None:
        made.append(len(readings))
        add_made(memo, readings, held=held)

    monkeypatch.setattr(Memo, "add_made", spied)
    forks = _forks(monkeypatch)
    assert _run(tmp_path) == found
    assert forks == [1]
    assert made[0] > 0 and made[-1] == 0  # readings, frames, then no counts
    assert _rows(tmp_path) == rows
