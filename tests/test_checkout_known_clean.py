"""A write where main is checked out: a work tree git's index and status show clean is
not looked at again by libgit2's status; any edit still is, and is committed."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.gitstore.store import GitStore
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, git, subjects


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A memory repository with a work tree and main checked out."""
    return MemoryRepo.init(tmp_path / "mem", now=NOW)


@pytest.fixture
def looked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The prefixes each call of libgit2's work-tree status was asked about (the real
    method still answers)."""
    calls: list[tuple[str, ...]] = []
    real = GitStore.worktree_edits

    def spy(self: GitStore, prefixes: tuple[str, ...]) -> dict[str, bytes | None]:
        calls.append(prefixes)
        return real(self, prefixes)

    monkeypatch.setattr(GitStore, "worktree_edits", spy)
    return calls


def test_a_clean_work_tree_is_not_walked_by_libgit2(
    repo: MemoryRepo, looked: list[tuple[str, ...]]
) -> None:
    """Two adds in a row: the work tree each finds is the tip's, told by git's status."""
    operations.add_memory(repo, "Keeps bees on the roof", topic="home", now=NOW)
    operations.add_memory(repo, "Brews cider in autumn", topic="home", now=NOW)
    assert looked == []
    assert repo.store.workdir is not None
    assert git(repo.store.workdir, "status", "--porcelain") == ""


def test_an_edit_is_still_found_and_committed(
    repo: MemoryRepo, looked: list[tuple[str, ...]]
) -> None:
    """A hand edit makes the check doubt: libgit2 looks, and the edit is committed first."""
    first = operations.add_memory(repo, "Keeps bees on the roof", topic="home", now=NOW)
    assert repo.store.workdir is not None
    file = repo.store.workdir / first.path
    file.write_text(file.read_text().replace("bees", "three hives of bees"))
    operations.add_memory(repo, "Brews cider in autumn", topic="home", now=NOW)
    assert looked
    assert subjects(repo.store.workdir)[1] == "agent edits: 1 file(s) changed by hand"
    assert "three hives" in git(repo.store.workdir, "show", f"main:{first.path}")
