"""git's ref locks held by another writer: waited for with backoff, then a clear error."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from dreamgit.errors import ConcurrentUpdateError, UserError
from dreamgit.gitstore import locks
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW


@pytest.mark.usefixtures("short_lock_wait")
def test_a_branch_that_stays_locked_gives_up_with_a_clear_error(tmp_path: Path) -> None:
    """A busy writer re-taking main's ref lock throughout: the commit stops, saying why."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    tip = repo.tip()
    lock = repo.store.git_dir / "refs" / "heads" / "main.lock"
    done = threading.Event()

    def take_again() -> None:
        # A new file (new inode) put in place atomically: the lock is never absent.
        fresh = lock.with_name("main.lock.next")
        fresh.write_text(f"{tip}\n")
        os.replace(fresh, lock)

    def busy_writer() -> None:
        # The lock re-taken every 50 ms: a live writer, never one that died and left it.
        while not done.wait(0.05):
            take_again()
        lock.unlink(missing_ok=True)

    take_again()
    writer = threading.Thread(target=busy_writer)
    writer.start()
    try:
        with pytest.raises(ConcurrentUpdateError) as caught:
            repo.store.commit(
                "main",
                parents=[tip] if tip else [],
                tree=repo.store.tree_id(tip),
                message="blocked",
                who=repo.identity(),
                when=NOW,
            )
    finally:
        done.set()
        writer.join()
    assert caught.value.render() == (
        f"commit on main: {lock} stayed locked by another process\n"
        f"hint: a git command may be running; if none is, remove {lock} and retry"
    )
    assert repo.tip() == tip


def test_a_lock_error_whose_file_is_gone_gives_up_naming_the_branch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No lock file left to name (it came and went): the message says what was tried."""
    monkeypatch.setattr(locks.time, "sleep", lambda _s: None)
    with pytest.raises(ConcurrentUpdateError) as caught:
        for _ in locks.retry_on_lock("update of main", candidates=[tmp_path / "main.lock"]):
            pass
    assert caught.value.render() == (
        "update of main: the branch stayed locked by another writer\n"
        "hint: retry; if no other dreamgit runs, remove a stale *.lock under the git directory"
    )


def test_a_stuck_lock_is_tried_sixty_times_over_eleven_seconds_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The default wait: pauses doubling from 5 ms to 0.2 s, 60 attempts, about 11 s."""
    pauses: list[float] = []
    monkeypatch.setattr(locks.time, "sleep", pauses.append)
    attempts = 0
    with pytest.raises(ConcurrentUpdateError):
        for _ in locks.retry_on_lock("update of main", candidates=[tmp_path / "main.lock"]):
            attempts += 1
    assert attempts == 60 and pauses[:3] == [0.005, 0.01, 0.02] and max(pauses) == 0.2
    assert 11 <= sum(pauses) < 11.2


def test_the_wait_on_a_stuck_lock_is_the_seconds_the_variable_gives(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """$DREAMGIT_LOCK_WAIT=1 gives up after about a second of pauses; 0 after one attempt."""
    for wait, attempts_expected in (("1", 10), ("0", 1)):
        pauses: list[float] = []
        monkeypatch.setattr(locks.time, "sleep", pauses.append)
        monkeypatch.setenv("DREAMGIT_LOCK_WAIT", wait)
        attempts = 0
        with pytest.raises(ConcurrentUpdateError):
            for _ in locks.retry_on_lock("update of main", candidates=[tmp_path / "main.lock"]):
                attempts += 1
        assert attempts == attempts_expected and sum(pauses) >= float(wait)


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_lock_wait_that_is_not_seconds_is_refused_saying_what_to_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    """A wait that is not a number of seconds stops before any attempt, naming the variable."""
    monkeypatch.setenv("DREAMGIT_LOCK_WAIT", value)
    with pytest.raises(UserError) as caught:
        next(iter(locks.retry_on_lock("update of main", candidates=[tmp_path / "main.lock"])))
    assert caught.value.render() == (
        f"$DREAMGIT_LOCK_WAIT is {value!r}, not a number of seconds\n"
        "hint: set it to a wait such as 11 (the default), or unset it"
    )
