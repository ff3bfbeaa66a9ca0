"""A cold dream's newer-value check laid out ahead in a forked child: the same plan whatever
the child does, no fork where a layout is kept, and nothing of the dream's touched there."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.consolidate import phase, update_ahead
from dreamgit.dream.consolidate.update_members import RELATION
from dreamgit.store import forkhalves, sqlitecache
from dreamkit import MEMORIES, Seed, build_repo, forced_dream, invoke_json, op_view, spawn
from forkcount import counted_forks
from keptstates import forget_in_process_readings, kept_path

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

#: The fixture's memories with values that newer memories of the same subject change, and
#: a count that changes.
UPDATES: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("The staging cluster runs Kubernetes 1.27.", "work"),
    Seed("The staging cluster runs Kubernetes 1.29.", "work", hours=2),
    Seed("The user's sister lives in Ghent.", "people"),
    Seed("The user's sister lives in Utrecht.", "people", hours=2),
    Seed("The newsletter has 1,200 subscribers.", "work"),
    Seed("The newsletter has now reached 5,000 subscribers.", "work", hours=3),
)
#: Few memories are many here: every review of the fixture forks its check.
FEW = 2

ChildWork = Callable[[Path, Callable[[], object]], None]
_REAL_CHILD: ChildWork = update_ahead._in_child


def _review(root: Path) -> tuple[Any, ...]:
    """A cold review's operations and deferred work (what a review plans)."""
    forget_in_process_readings()
    record = invoke_json(build_repo(root, bare=True, memories=UPDATES), "review", "--force")
    return op_view(record["ops"]), record["deferred"]


def _alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """The review of the fixture in one process."""
    with monkeypatch.context() as m:
        m.setattr(update_ahead, "AHEAD_AT", 10**9)
        return _review(tmp_path / "alone")


def _readings(repo_root: Path, kind: str) -> dict[str, str]:
    """The kept readings of ``kind``, by text."""
    with sqlite3.connect(repo_root / "dreamgit" / "cache" / f"{kind}.sqlite3") as db:
        return dict(db.execute("SELECT text, value FROM readings"))


def _layout_rows(repo_root: Path) -> dict[str, Any]:
    """The kept layout's parts, decoded, as they read whatever the order it was laid out
    in: each member's kind as its relation's name (not its index, numbered as first met)
    and its flags, and the subjects each subject is owned by as a set."""
    path = repo_root / "dreamgit" / "cache" / "update-layout.sqlite3"
    with sqlite3.connect(path) as db:
        parts = {part: json.loads(value) for part, value in db.execute("SELECT * FROM layout")}
    names = {index: name for name, index in parts.pop("relations").items()}
    for part in ("groups", "movers", "pronouns"):
        for entries in parts[part].values():
            for entry in entries:
                entry[2] = (names[entry[2] // RELATION], entry[2] % RELATION)
    parts["sup"] = {key: set(larger) for key, larger in parts["sup"].items()}
    return parts


def test_a_review_with_its_check_laid_out_ahead_plans_and_keeps_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _alone(tmp_path, monkeypatch)
    assert any(rule == "supersede-newer-value" for _op, _p, rule, _m, _s in alone[0])
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(update_ahead, "AHEAD_AT", FEW)
    assert _review(tmp_path / "ahead") == alone
    assert len(forks) == 1
    said = {seed.text for seed in UPDATES}
    for kind in ("update-readings", "frames", "counts"):
        alone_rows, ahead_rows = (_readings(tmp_path / root, kind) for root in ("alone", "ahead"))
        assert alone_rows.items() <= ahead_rows.items(), kind
        # the child read the memories as read, some of which the passes before the check
        # retired (a same-key supersession): their readings are kept too
        assert {text.split(". ")[0] for text in ahead_rows.keys() - alone_rows} <= {
            text.split(". ")[0] for text in said
        }
    assert _layout_rows(tmp_path / "ahead") == _layout_rows(tmp_path / "alone")


def _same_dreams_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, root: str) -> None:
    """Two applied dreams of the fixture: the first laid out ahead, the second moving its
    layout, each the dream of one process."""
    dreams = []
    for name, at in (("alone", 10**9), (root, FEW)):
        monkeypatch.setattr(update_ahead, "AHEAD_AT", at)
        repo = build_repo(tmp_path / name, bare=True, memories=UPDATES)
        forget_in_process_readings()
        first = forced_dream(repo)
        forget_in_process_readings()
        dreams.append((first, forced_dream(repo)))
    assert dreams[0] == dreams[1]


def test_the_dreams_after_one_laid_out_ahead_are_those_after_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forks = counted_forks(monkeypatch)
    _same_dreams_after(tmp_path, monkeypatch, "ahead")
    assert len(forks) == 1  # the second dream moved the kept layout: no fork


def _killed(git_dir: Path, check: Callable[[], object]) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _failing(git_dir: Path, check: Callable[[], object]) -> None:
    raise RuntimeError("the child's check failed")


def _nothing(git_dir: Path, check: Callable[[], object]) -> None:
    pass


def _killed_after_saving(git_dir: Path, check: Callable[[], object]) -> None:
    _REAL_CHILD(git_dir, check)
    os.kill(os.getpid(), signal.SIGKILL)


def _stuck(git_dir: Path, check: Callable[[], object]) -> None:
    time.sleep(60)


CHILDREN: dict[str, ChildWork] = {
    "killed": _killed,
    "failing": _failing,
    "writing-nothing": _nothing,
    "killed-after-saving": _killed_after_saving,
    "too-slow": _stuck,
}


@pytest.mark.parametrize("child", list(CHILDREN), ids=list(CHILDREN))
def test_a_child_that_ends_badly_leaves_the_plan_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, child: str
) -> None:
    alone = _alone(tmp_path, monkeypatch)
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(update_ahead, "AHEAD_AT", FEW)
    monkeypatch.setattr(update_ahead, "_in_child", CHILDREN[child])
    monkeypatch.setattr(update_ahead, "_LEAST_PATIENCE", 0.5)
    started = time.monotonic()
    assert _review(tmp_path / child) == alone
    assert len(forks) == 1
    assert time.monotonic() - started < 30  # a stuck child is not waited for


def test_a_warm_store_and_a_small_one_never_fork(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(update_ahead, "AHEAD_AT", FEW)
    repo = build_repo(tmp_path / "mem", bare=True, memories=UPDATES)
    first = invoke_json(repo, "review", "--force")
    assert len(forks) == 1
    forget_in_process_readings()
    again = invoke_json(repo, "review", "--force")  # the layout is kept: moved, not made
    assert len(forks) == 1
    assert op_view(again["ops"]) == op_view(first["ops"])
    monkeypatch.setattr(update_ahead, "AHEAD_AT", len(UPDATES) + 1)
    invoke_json(build_repo(tmp_path / "small", bare=True, memories=UPDATES), "review", "--force")
    assert len(forks) == 1


def test_the_child_never_writes_through_the_dreams_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every cache connection the dream opened before the fork has made, in the child,
    the changes it had made when the child began."""
    opened: list[sqlite3.Connection] = []
    real_connect = sqlitecache.connect_cache

    def recorded(path: Path, tables: str) -> sqlite3.Connection:
        db = real_connect(path, tables)
        opened.append(db)
        return db

    seen = tmp_path / "seen.json"

    def watched(git_dir: Path, check: Callable[[], object]) -> None:
        inherited = [(db, _changes(db)) for db in opened]
        _REAL_CHILD(git_dir, check)
        alive = [(db, before) for db, before in inherited if before is not None]
        touched = sum(_changes(db) != before for db, before in alive)
        seen.write_text(json.dumps({"inherited": len(alive), "touched": touched}))

    monkeypatch.setattr(sqlitecache, "connect_cache", recorded)
    monkeypatch.setattr(update_ahead, "AHEAD_AT", FEW)
    monkeypatch.setattr(update_ahead, "_in_child", watched)
    _review(tmp_path / "mem")
    found = json.loads(seen.read_text())
    assert found["inherited"] >= 3  # the dream's frames, counts and words at least
    assert found["touched"] == 0


def _changes(db: sqlite3.Connection) -> int | None:
    """The rows ``db`` changed so far (None once it is closed)."""
    try:
        return db.total_changes
    except sqlite3.ProgrammingError:
        return None


def test_a_dream_beside_the_child_sees_whole_rows_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review as another process, run while the child saves its readings one by one,
    plans what one process plans."""
    alone = _alone(tmp_path, monkeypatch)
    root = tmp_path / "mem"
    repo = build_repo(root, bare=True, memories=UPDATES)
    beside: list[Any] = []

    def slow(git_dir: Path, check: Callable[[], object]) -> None:
        from dreamgit.dream.consolidate import frame_memo
        from dreamgit.store.keptframes import KeptReadings

        real_add = KeptReadings.add

        def add_slowly(self: KeptReadings, added: Any) -> None:
            real_add(self, added)
            time.sleep(0.02)

        frame_memo.SAVE_EVERY = 1  # each reading its own transaction
        KeptReadings.add = add_slowly  # type: ignore[method-assign]
        _REAL_CHILD(git_dir, check)

    real_check_ahead = phase.check_ahead

    def and_another(memories: int, check: Callable[[], object]) -> None:
        real_check_ahead(memories, check)
        beside.append(spawn(repo, "review", "--force", "--json"))

    monkeypatch.setattr(update_ahead, "AHEAD_AT", FEW)
    monkeypatch.setattr(update_ahead, "_in_child", slow)
    monkeypatch.setattr(phase, "check_ahead", and_another)
    forget_in_process_readings()
    record = invoke_json(repo, "review", "--force")
    assert (op_view(record["ops"]), record["deferred"]) == alone
    other = beside[0]
    assert other.returncode == 0, other.stderr
    record = json.loads(other.stdout)
    assert (op_view(record["ops"]), record["deferred"]) == alone
    assert kept_path(repo, "update-readings").exists()
