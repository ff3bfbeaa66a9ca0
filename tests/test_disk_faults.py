"""A full disk or a read-only object store is exit 1 with what to fix, and leaves no lock behind.

Through the installed command: the ``enospc:`` / ``erofs:`` fault hooks make one
write fail exactly as the kernel would; where this machine lets the test mount a
small tmpfs, a disk really filled up too. After the fault the next write (run in the
test's process) succeeds at once (no lock of ours waits ten minutes to look stale).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, initialized, prepared
from dreamgit.errors import environment_problem

NOW = "2026-11-20T10:00:00Z"
FULL = "hint: free space on the disk that holds the repository (or raise the quota), "
FULL += "then run the command again; main was not changed\n"


def run(repo: Path, *args: str, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    env.pop("DREAMGIT_FAULT", None)
    if fault:
        env["DREAMGIT_FAULT"] = fault
    return subprocess.run(
        [*command, "--now", NOW, *args], env=env, capture_output=True, text=True, check=False
    )


def tip(repo: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "main"], capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path, templates: RepositoryTemplates) -> Path:
    """What ``dreamgit init`` makes (the command runs once a worker, each test gets a copy)."""
    path = tmp_path / "mem"
    initialized(templates, path, NOW)
    return path


def test_a_full_disk_while_taking_the_index_lock_is_exit_1_and_leaves_no_lock(repo: Path) -> None:
    """The half-made index.lock is removed, so the next add goes through at once."""
    before = tip(repo)
    done = run(repo, "add", "Likes green tea.", "--topic", "food", fault="enospc:lock-file")
    lock = repo / ".git" / "index.lock"
    assert (done.returncode, done.stderr) == (
        1,
        f"error: no space left on the device: cannot write {lock}\n{FULL}",
    )
    assert not lock.exists() and tip(repo) == before
    started = time.monotonic()
    prepared(repo, NOW, "add", "Likes green tea.", "--topic", "food")
    assert time.monotonic() - started < 30 and tip(repo) != before


@pytest.mark.parametrize(
    "args",
    [
        ("add", "Likes green tea.", "--topic", "food"),
        ("log", "A short session."),
        ("run", "--force"),
    ],
)
def test_a_read_only_object_store_is_exit_1_naming_it(repo: Path, args: tuple[str, ...]) -> None:
    """add, log and run say the file system is read-only and where; main stays."""
    prepared(repo, NOW, "log", "Earlier session about tea.")
    before = tip(repo)
    done = run(repo, *args, fault="erofs:object-write")
    assert (done.returncode, done.stderr) == (
        1,
        f"error: the file system is read-only: cannot write {repo / '.git' / 'objects'}\n"
        "hint: mount the repository's disk read-write, then run the command again; "
        "main was not changed\n",
    )
    assert tip(repo) == before
    prepared(repo, NOW, *args)  # the next write goes through (the same code, in this process)


def test_libgit2_words_for_a_full_disk_or_a_read_only_store_are_understood() -> None:
    """libgit2 says it only in its message; that message is kept, a crash is not reported."""

    class GitError(Exception):
        pass

    full = environment_problem(GitError("failed to write 'objects/ab/cd': No space left on device"))
    assert full is not None and full.exit_code == 1
    assert str(full) == (
        "no space left on the device: failed to write 'objects/ab/cd': No space left on device"
    )
    assert environment_problem(GitError("object not found")) is None
    assert environment_problem(ValueError("no space left on device")) is not None


@pytest.fixture
def small_disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=5m", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip("this machine does not let the test mount a tmpfs")
    try:
        yield mount
    finally:
        # Lazily: the repository the test opened in this process may still hold a file
        # there, and a plain umount then fails (busy), leaving a mount that makes every
        # later session's removal of this folder fail.
        subprocess.run(["umount", "--lazy", str(mount)], check=True)


def test_a_disk_that_really_fills_up_is_exit_1_and_the_next_write_succeeds(
    small_disk: Path,
) -> None:
    """On a 5 MB tmpfs filled to the last byte: add and log fail cleanly; freed, add works."""
    repo = small_disk / "mem"
    assert run(repo, "init", str(repo)).returncode == 0
    filler = small_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    before = tip(repo)
    for args in (("add", "Likes green tea.", "--topic", "food"), ("log", "A session.")):
        done = run(repo, *args)
        assert done.returncode == 1 and done.stderr.startswith("error: no space left on the device")
        assert done.stderr.endswith(FULL)
    assert tip(repo) == before and not list((repo / ".git").glob("*.lock"))
    filler.unlink()
    prepared(repo, NOW, "add", "Likes green tea.", "--topic", "food")
    assert tip(repo) != before


@pytest.mark.usefixtures("short_lock_wait")
def test_a_lock_left_on_main_is_named_with_what_to_do(repo: Path) -> None:
    """A 0-byte refs/heads/main.lock (a killed writer's, or git's) is named, not 'the branch'."""
    lock = repo / ".git" / "refs" / "heads" / "main.lock"
    lock.write_bytes(b"")
    done = run(repo, "add", "Likes green tea.", "--topic", "food")
    assert (done.returncode, done.stderr) == (
        1,
        f"error: update of main: {lock} stayed locked by another process\n"
        f"hint: a git command may be running; if none is, remove {lock} and retry\n",
    )
    lock.unlink()
    prepared(repo, NOW, "add", "Likes green tea.", "--topic", "food")
