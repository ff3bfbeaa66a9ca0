"""The removed versions of a reused id: numbered oldest first, each one restorable."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.errors import NotFoundError, UserError
from dreamgit.model import Memory
from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.versions import removed_versions
from gitcheck import NOW, fsck, git

TEXT = "Allergic to penicillin"
HOUR = timedelta(hours=1)


@pytest.fixture(params=[True, False], ids=["bare", "worktree"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryRepo:
    """A fresh memory repository, bare or with main checked out."""
    return MemoryRepo.init(tmp_path / "mem", bare=request.param, now=NOW)


def _path(repo: MemoryRepo) -> Path:
    return repo.store.workdir or repo.store.git_dir


def _reused(repo: MemoryRepo) -> tuple[Memory, bytes, Memory, bytes]:
    """Added high with tag medical, forgotten, added again (same id, normal), forgotten."""
    first = operations.add_memory(
        repo, TEXT, topic="health", priority="high", tags=["medical"], now=NOW
    )
    first_bytes = repo.store.read_path(repo.tip(), first.path)
    operations.forget(repo, [first.id], now=NOW + HOUR)
    second = operations.add_memory(repo, TEXT, topic="health", now=NOW + 2 * HOUR)
    second_bytes = repo.store.read_path(repo.tip(), second.path)
    operations.forget(repo, [second.id], now=NOW + 3 * HOUR)
    assert second.id == first.id and first_bytes != second_bytes
    assert first_bytes is not None and second_bytes is not None
    return first, first_bytes, second, second_bytes


def test_each_removal_of_a_reused_id_is_a_version_oldest_first(repo: MemoryRepo) -> None:
    """Two forgets of one id leave two versions, numbered 1 (high, medical) and 2 (normal)."""
    first, first_bytes, _, second_bytes = _reused(repo)
    versions = removed_versions(repo, first.id, now=NOW)
    assert [v.number for v in versions] == [1, 2]
    assert [v.data for v in versions] == [first_bytes, second_bytes]
    assert [(v.memory.priority, v.memory.tags) for v in versions] == [
        ("high", ("medical",)),
        ("normal", ()),
    ]
    forgets = git(_path(repo), "log", "--format=%H", "--grep=^forget:", "main").split()
    assert [v.removed_in for v in versions] == forgets[::-1]
    assert [v.held_in for v in versions] == [
        git(_path(repo), "rev-parse", f"{c}^").strip() for c in forgets[::-1]
    ]


def test_restore_version_one_brings_back_the_first_version_byte_for_byte(
    repo: MemoryRepo,
) -> None:
    """--version 1 restores the first version, priority and tag included."""
    first, first_bytes, _, _ = _reused(repo)
    done = restoring.restore_version(repo, first.id, now=NOW + 4 * HOUR, version=1)
    assert (done.memory.priority, done.memory.tags) == ("high", ("medical",))
    assert done.memory == first
    assert repo.store.read_path(repo.tip(), first.path) == first_bytes
    assert (done.version.number, len(done.versions)) == (1, 2)
    fsck(_path(repo))


def test_restore_without_a_version_is_the_latest_and_names_the_others(repo: MemoryRepo) -> None:
    """No version asked: the latest comes back (as before) and the older one is reported."""
    first, first_bytes, second, second_bytes = _reused(repo)
    done = restoring.restore_version(repo, first.id, now=NOW + 4 * HOUR)
    assert done.memory == second
    assert repo.store.read_path(repo.tip(), first.path) == second_bytes
    assert done.version.number == 2
    assert [v.data for v in done.others] == [first_bytes]


def test_the_same_bytes_removed_twice_are_not_different_versions(repo: MemoryRepo) -> None:
    """forget, restore, forget: two versions with the same file, so no other to report."""
    memory = operations.add_memory(repo, TEXT, topic="health", now=NOW)
    operations.forget(repo, [memory.id], now=NOW + HOUR)
    restoring.restore(repo, memory.id, now=NOW + 2 * HOUR)
    operations.forget(repo, [memory.id], now=NOW + 3 * HOUR)
    done = restoring.restore_version(repo, memory.id, now=NOW + 4 * HOUR)
    assert (done.version.number, len(done.versions), done.others) == (2, 2, [])


def test_restore_commit_brings_back_what_that_commit_holds(repo: MemoryRepo) -> None:
    """--commit REV restores the file REV's tree holds, numbered like its removal."""
    first, first_bytes, _, _ = _reused(repo)
    added = git(_path(repo), "log", "--format=%H", "--grep=^add:", "main").split()[-1]
    done = restoring.restore_version(repo, first.id, now=NOW + 4 * HOUR, commit=added[:10])
    assert done.memory == first
    assert (done.version.number, done.version.held_in) == (1, added)
    assert repo.store.read_path(repo.tip(), first.path) == first_bytes


def test_a_commit_or_version_that_does_not_hold_the_memory_is_a_clear_error(
    repo: MemoryRepo,
) -> None:
    """Out-of-range versions, commits without it and unknown revisions name the fix."""
    first, _, _, _ = _reused(repo)
    tip = repo.tip()
    with pytest.raises(NotFoundError) as missing:
        restoring.restore(repo, first.id, now=NOW, version=3)
    assert missing.value.render() == (
        f"memory {first.id} has no version 3: history holds 2 removed version(s), "
        "numbered from 1\n"
        f"hint: `dreamgit show {first.id} --history` lists them"
    )
    init = git(_path(repo), "rev-list", "--max-parents=0", "main").strip()
    with pytest.raises(NotFoundError) as empty:
        restoring.restore(repo, first.id, now=NOW, commit=init)
    assert empty.value.render() == (
        f"commit {init[:12]} does not hold memory {first.id}\n"
        f"hint: a commit where `dreamgit show {first.id} --history` shows its text holds it; "
        "the commit that removed it does not"
    )
    with pytest.raises(NotFoundError) as unknown:
        restoring.restore(repo, first.id, now=NOW, commit="no-such-branch")
    assert unknown.value.render() == (
        "no commit named 'no-such-branch' in this repository\n"
        "hint: give a commit id, a branch or main~N; "
        f"`dreamgit show {first.id} --history` lists the commits that hold it"
    )
    with pytest.raises(UserError) as both:
        restoring.restore(repo, first.id, now=NOW, version=1, commit="main")
    assert str(both.value) == "restore takes --version or --commit, not both"
    assert repo.tip() == tip


def test_an_active_id_is_refused_and_says_how_to_pick_another_version(repo: MemoryRepo) -> None:
    """Asking for a version of an active memory keeps the old error, with the way on."""
    first, _, _, _ = _reused(repo)
    restoring.restore(repo, first.id, now=NOW + 4 * HOUR)
    tip = repo.tip()
    with pytest.raises(UserError) as plain:
        restoring.restore(repo, first.id, now=NOW)
    assert plain.value.render() == f"memory {first.id} is already active\nhint: nothing to restore"
    with pytest.raises(UserError) as chosen:
        restoring.restore(repo, first.id, now=NOW, version=1)
    assert chosen.value.render() == (
        f"memory {first.id} is already active\n"
        f"hint: to bring back another version: `dreamgit forget {first.id}`, then restore it"
    )
    assert repo.tip() == tip


def _commit_all(path: Path, message: str) -> None:
    git(path, "add", "-A")
    git(path, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qm", message)


def test_plain_git_deletes_count_once_and_a_move_is_not_a_removal(tmp_path: Path) -> None:
    """A `git rm` commit is a version, a `git mv` is none, a merge commit does not repeat one."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    path = _path(repo)
    memory = operations.add_memory(repo, TEXT, topic="health", now=NOW)
    git(path, "mv", memory.path, "memories/health/moved.md")
    _commit_all(path, "tidy: move a file")
    assert removed_versions(repo, memory.id, now=NOW) == []
    git(path, "checkout", "-q", "-b", "side")
    git(path, "rm", "-q", "memories/health/moved.md")
    _commit_all(path, "drop it")
    git(path, "checkout", "-q", "main")
    (path / "notes").mkdir()
    (path / "notes" / "x.md").write_text("x\n")
    _commit_all(path, "a note")
    git(path, "-c", "user.name=x", "-c", "user.email=x@y", "merge", "-q", "--no-ff", "side")
    versions = removed_versions(repo, memory.id, now=NOW)
    assert [(v.number, v.path) for v in versions] == [(1, "memories/health/moved.md")]
    restored = restoring.restore(repo, memory.id, now=NOW)
    assert restored.path == "memories/health/moved.md"
