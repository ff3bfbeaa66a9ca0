"""Stat data recorded for index entries without any: only where the file holds the blob."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import time
from pathlib import Path

import pygit2
import pytest

from dreamgit.gitstore import indexstat
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git


class _LaterClock:
    """``time`` as seen a few seconds from now: every file looks old enough to trust."""

    @staticmethod
    def time() -> float:
        return time.time() + 5


def _zero_stat_data(worktree: Path) -> None:
    """Stage every entry again from its blob id alone, as dreamgit staged files before."""
    index = pygit2.Index(str(worktree / ".git" / "index"))
    for entry in list(index):
        index.add(pygit2.IndexEntry(entry.path, entry.id, entry.mode))
    index.write()


def _mtimes(worktree: Path) -> dict[str, int]:
    """Each index entry's recorded mtime in seconds, as git itself reads the index."""
    found: dict[str, int] = {}
    path = ""
    for line in git(worktree, "ls-files", "--debug").splitlines():
        if not line.startswith(" "):
            path = line
        elif line.strip().startswith("mtime:"):
            found[path] = int(line.split(":")[1])
    return found


def _plain_repo(tmp_path: Path) -> tuple[pygit2.Repository, Path]:
    """A plain git repository with two committed files and no stat data in its index."""
    worktree = tmp_path / "plain"
    git(tmp_path, "init", "-q", "-b", "main", str(worktree))
    (worktree / "a.md").write_text("first\n")
    (worktree / "b.md").write_text("second\n")
    git(worktree, "add", ".")
    git(worktree, "-c", "user.name=A", "-c", "user.email=a@b.c", "commit", "-qm", "x")
    _zero_stat_data(worktree)
    return pygit2.Repository(str(worktree)), worktree


def _record(repo: pygit2.Repository, worktree: Path) -> int:
    index = pygit2.Index(str(worktree / ".git" / "index"))
    recorded = indexstat.record_missing_stat_data(
        index,
        (worktree / ".git" / "index").read_bytes(),
        worktree,
        lambda path: str(repo.hashfile(str(worktree / path), as_path=path)),
    )
    index.write()
    return recorded


def test_stat_data_are_recorded_only_for_files_holding_the_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edited file keeps zero stat data and stays modified; what is staged never changes."""
    monkeypatch.setattr(indexstat, "time", _LaterClock)
    repo, worktree = _plain_repo(tmp_path)
    staged = git(worktree, "ls-files", "-s")
    (worktree / "b.md").write_text("edited\n")
    assert _record(repo, worktree) == 1
    assert _mtimes(worktree)["a.md"] > 0 and _mtimes(worktree)["b.md"] == 0
    assert git(worktree, "ls-files", "-s") == staged
    assert git(worktree, "status", "--porcelain") == " M b.md\n"


def test_executable_is_told_by_the_owners_bit_as_git_tells_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file others may run but its owner not is staged plain by git (``git add``); its
    entry's stat data are recorded as any plain file's, and git's status stays clean."""
    monkeypatch.setattr(indexstat, "time", _LaterClock)
    worktree = tmp_path / "plain"
    git(tmp_path, "init", "-q", "-b", "main", str(worktree))
    (worktree / "a.md").write_text("first\n")
    (worktree / "a.md").chmod(0o655)
    git(worktree, "add", ".")
    git(worktree, "-c", "user.name=A", "-c", "user.email=a@b.c", "commit", "-qm", "x")
    assert git(worktree, "ls-files", "-s").startswith("100644 ")
    _zero_stat_data(worktree)
    assert _record(pygit2.Repository(str(worktree)), worktree) == 1
    assert _mtimes(worktree)["a.md"] > 0
    assert git(worktree, "status", "--porcelain") == ""


def _found_both_ways(worktree: Path) -> list[tuple[str, str, int]]:
    """The entries without stat data as the byte search finds them, checked against a
    walk of every entry."""
    data = (worktree / ".git" / "index").read_bytes()
    index = pygit2.Index(str(worktree / ".git" / "index"))
    searched = indexstat._without_stat_data(index, data, ())
    assert searched == indexstat._walk_without_stat_data(index)
    return searched


def _some_zero_stat_data(worktree: Path, paths: set[str]) -> None:
    index = pygit2.Index(str(worktree / ".git" / "index"))
    for entry in list(index):
        if entry.path in paths:
            index.add(pygit2.IndexEntry(entry.path, entry.id, entry.mode))
    index.write()


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_the_byte_search_finds_what_a_walk_of_every_entry_finds(
    tmp_path: Path, version: str
) -> None:
    """Zero stat data (a file's, an executable's), a person's intent-to-add and
    skip-worktree entries, git's own stat data: the same entries either way, in any
    version of the index git writes."""
    _repo, worktree = _plain_repo(tmp_path)
    (worktree / "run.sh").write_text("echo hi\n")
    (worktree / "run.sh").chmod(0o755)
    (worktree / "c.md").write_text("third\n")
    git(worktree, "add", "run.sh", "c.md")
    git(worktree, "update-index", "--refresh")
    _some_zero_stat_data(worktree, {"a.md", "run.sh"})
    (worktree / "new.md").write_text("intent\n")
    git(worktree, "add", "-N", "new.md")
    git(worktree, "update-index", "--skip-worktree", "c.md")
    git(worktree, "update-index", "--index-version", version)
    found = [(path, mode) for path, _blob, mode in _found_both_ways(worktree)]
    assert found == [("a.md", 0o100644), ("run.sh", 0o100755)]


def test_an_index_without_any_entry_lacking_stat_data_gives_nothing(tmp_path: Path) -> None:
    """git's own index (every entry with its stat data): nothing found, nothing walked."""
    _repo, worktree = _plain_repo(tmp_path)
    git(worktree, "update-index", "--refresh")
    assert _found_both_ways(worktree) == []


def test_an_index_where_every_entry_lacks_stat_data_is_walked(tmp_path: Path) -> None:
    """Hundreds of entries without stat data: the same answer, by the walk."""
    _repo, worktree = _plain_repo(tmp_path)
    for n in range(300):
        (worktree / f"m{n:03}.md").write_text(f"memory {n}\n")
    git(worktree, "add", ".")
    _zero_stat_data(worktree)
    assert len(_found_both_ways(worktree)) == 302


def test_entries_about_to_be_rewritten_are_left_out(tmp_path: Path) -> None:
    """A path the staging changes (here removed from the index since it was read) is
    neither looked up nor walked to."""
    _repo, worktree = _plain_repo(tmp_path)
    data = (worktree / ".git" / "index").read_bytes()
    index = pygit2.Index(str(worktree / ".git" / "index"))
    index.remove("a.md")
    assert [e[0] for e in indexstat._without_stat_data(index, data, {"a.md"})] == ["b.md"]


def test_a_file_written_this_second_keeps_zero_stat_data(tmp_path: Path) -> None:
    """A file whose ctime is this very second is not trusted: a later edit could share it."""
    repo, worktree = _plain_repo(tmp_path)
    (worktree / "a.md").write_text("first\n")  # same content, a ctime of now
    assert _record(repo, worktree) <= 1  # b.md only, if its second is already over
    assert _mtimes(worktree)["a.md"] == 0


class _TickingClock:
    """``time`` one second on once the file has been hashed: the recording is still in
    the second the file was written in when it looks, and past it when it has hashed."""

    def __init__(self, second: int) -> None:
        self.second, self.hashed = second, False

    def time(self) -> float:
        return self.second + (1.5 if self.hashed else 0.5)


def test_an_edit_while_the_file_is_hashed_in_its_own_second_keeps_zero_stat_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file last written in second S, looked at in S, edited (same size, still S) just
    after its hash and before the clock passed S: nothing is recorded, so git, comparing
    whole seconds, still sees the edit."""
    repo, worktree = _plain_repo(tmp_path)
    file = worktree / "a.md"
    second = file.stat().st_ctime_ns // 1_000_000_000  # the second it was written in
    os.utime(file, (second, second))
    clock = _TickingClock(second)
    monkeypatch.setattr(indexstat, "time", clock)
    index = pygit2.Index(str(worktree / ".git" / "index"))

    def hash_then_edit(path: str) -> str:
        blob = str(repo.hashfile(str(worktree / path), as_path=path))
        if path == "a.md":
            file.write_text("FIRST\n")  # the same size, in the same second
            os.utime(file, (second, second))
            clock.hashed = True
        return blob

    data = (worktree / ".git" / "index").read_bytes()
    indexstat.record_missing_stat_data(index, data, worktree, hash_then_edit)
    index.write()
    assert _mtimes(worktree)["a.md"] == 0
    assert git(worktree, "status", "--porcelain") == " M a.md\n"


def test_an_edit_in_the_same_second_after_recording_is_seen_by_git_and_dreamgit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git's racy-entry rule: an entry not older than the index is checked by content."""
    monkeypatch.setattr(indexstat, "time", _LaterClock)  # records even this second's files
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    worktree = repo.store.workdir
    assert worktree is not None
    memory = operations.add_memory(repo, "Uses vim", topic="tools", now=NOW)
    _zero_stat_data(worktree)
    operations.add_memory(repo, "Uses zsh", topic="tools", now=NOW)
    assert _mtimes(worktree)[memory.path] > 0
    file = worktree / memory.path
    file.write_text(file.read_text().replace("Uses vim", "Uses vi!"))  # the same size
    assert git(worktree, "status", "--porcelain") == f" M {memory.path}\n"
    assert list(repo.store.worktree_edits(("memories/",))) == [memory.path]


def test_adds_heal_entries_without_stat_data_and_keep_a_persons_staged_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next add records the stat data; a file a person staged stays staged as it was."""
    monkeypatch.setattr(indexstat, "time", _LaterClock)
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    worktree = repo.store.workdir
    assert worktree is not None
    first = operations.add_memory(repo, "Prefers pytest", topic="prefs", now=NOW)
    (worktree / "notes.txt").write_text("a person's note\n")
    git(worktree, "add", "notes.txt")
    (worktree / "notes.txt").write_text("a person's note, edited after staging\n")
    _zero_stat_data(worktree)
    staged_note = git(worktree, "ls-files", "-s", "notes.txt")
    operations.add_memory(repo, "Prefers ruff", topic="prefs", now=NOW)
    assert _mtimes(worktree)[first.path] > 0
    assert _mtimes(worktree)["notes.txt"] == 0  # its file no longer holds what is staged
    assert git(worktree, "ls-files", "-s", "notes.txt") == staged_note
    assert git(worktree, "status", "--porcelain") == "AM notes.txt\n"
    fsck(worktree)


def test_an_entry_a_person_staged_by_its_blob_id_alone_is_left_as_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git update-index --cacheinfo`` of another blob at a memory's path: no stat data
    (the file holds other content), the person's blob stays staged."""
    monkeypatch.setattr(indexstat, "time", _LaterClock)
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    worktree = repo.store.workdir
    assert worktree is not None
    memory = operations.add_memory(repo, "Prefers pytest", topic="prefs", now=NOW)
    (worktree / "empty").write_bytes(b"")
    blob = git(worktree, "hash-object", "-w", "empty").strip()
    (worktree / "empty").unlink()
    git(worktree, "update-index", "--cacheinfo", f"100644,{blob},{memory.path}")
    operations.add_memory(repo, "Prefers ruff", topic="prefs", now=NOW)
    assert git(worktree, "ls-files", "-s", memory.path).split()[1] == blob
    assert _mtimes(worktree)[memory.path] == 0
    assert git(worktree, "status", "--porcelain", memory.path) == f"MM {memory.path}\n"


def _heal_and_die_halfway(path: str) -> None:
    """A writer killed by SIGKILL halfway through recording stat data."""
    indexstat.time = _LaterClock  # type: ignore[assignment]  # forked: this process only
    recorded = indexstat._add_with_stat
    count = 0

    def record_then_die(*args: object) -> None:
        nonlocal count
        count += 1
        if count == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        recorded(*args)  # type: ignore[arg-type]

    indexstat._add_with_stat = record_then_die  # type: ignore[assignment]
    operations.add_memory(MemoryRepo.open(path), "Killed while healing", topic="t", now=NOW)


def test_a_writer_killed_while_recording_leaves_the_index_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index is written aside and renamed in: a SIGKILL midway changes nothing in it."""
    monkeypatch.setattr("dreamgit.gitstore.locks.STALE_LOCK_SECONDS", 0.3)
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    worktree = repo.store.workdir
    assert worktree is not None
    facts = [operations.add_memory(repo, f"Fact {n}", topic="t", now=NOW).path for n in range(6)]
    _zero_stat_data(worktree)
    before = (worktree / ".git" / "index").read_bytes()
    writer = multiprocessing.get_context("fork").Process(
        target=_heal_and_die_halfway, args=(str(worktree),)
    )
    writer.start()
    writer.join()
    assert writer.exitcode == -signal.SIGKILL
    assert (worktree / ".git" / "index").read_bytes() == before
    time.sleep(0.4)  # the dead writer's index.lock is stale now
    monkeypatch.setattr(indexstat, "time", _LaterClock)
    operations.add_memory(MemoryRepo.open(worktree), "After the kill", topic="t", now=NOW)
    assert git(worktree, "status", "--porcelain") == ""
    assert all(_mtimes(worktree)[path] > 0 for path in facts)
    fsck(worktree)


def test_a_persons_git_add_waits_for_the_lock_and_is_kept(tmp_path: Path) -> None:
    """While dreamgit holds index.lock git add fails; an add after it is not overwritten."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    worktree = repo.store.workdir
    assert worktree is not None
    operations.add_memory(repo, "Prefers pytest", topic="prefs", now=NOW)
    _zero_stat_data(worktree)
    (worktree / "notes.txt").write_text("a person's note\n")
    with repo.store.index_locked():
        refused = subprocess.run(
            ["git", "-C", str(worktree), "add", "notes.txt"], capture_output=True, text=True
        )
        assert refused.returncode != 0 and "index.lock" in refused.stderr
    git(worktree, "add", "notes.txt")
    staged = git(worktree, "ls-files", "-s", "notes.txt")
    operations.add_memory(repo, "Prefers ruff", topic="prefs", now=NOW)
    assert git(worktree, "ls-files", "-s", "notes.txt") == staged
    assert git(worktree, "status", "--porcelain") == "A  notes.txt\n"
