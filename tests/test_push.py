"""Pushing a dream branch: a failure says what git said and keeps the branch to push again."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.dream.run import dream
from dreamgit.errors import UserError
from dreamgit.history.push import push_branch
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, git

HINT = "hint: check the remote's name and your credentials; the branch is still here to push again"


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A memory repository with one pending session."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    operations.log_session(repo, "User: I prefer pytest over unittest for tests.", now=NOW)
    return repo


def test_push_to_a_missing_remote_says_what_git_said(repo: MemoryRepo) -> None:
    """A remote that does not exist: git's own words, the remote and branch, and the hint."""
    record = dream(repo, now=NOW + timedelta(days=1), force=True, merge=False)
    branch = record["branch"]
    assert branch is not None
    with pytest.raises(UserError) as caught:
        push_branch(repo, branch, remote="nowhere")
    first, _, rest = caught.value.render().partition("\n")
    assert first.startswith(f"git push nowhere {branch} failed: fatal: 'nowhere' does not")
    assert rest.endswith(HINT)
    assert branch in git(repo.store.workdir or repo.store.git_dir, "branch", "--list")


def test_run_push_failure_is_exit_1_and_the_branch_stays(repo: MemoryRepo) -> None:
    """`run --no-merge --push nowhere` exits 1 with git's message; the branch is kept."""
    path = repo.store.workdir or repo.store.git_dir
    args = ["--repo", str(path), "--now", "2026-11-23T03:00:00Z", "run", "--force"]
    result = CliRunner().invoke(cli, [*args, "--no-merge", "--push", "nowhere"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: git push nowhere dream/")
    assert result.stderr.endswith(HINT + "\n")
    assert "dream/" in git(path, "branch", "--list")


def test_push_without_git_on_path_says_so(
    repo: MemoryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pushing runs the git program: without it on PATH, the user is told to install it."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(UserError) as caught:
        push_branch(repo, "main", remote="origin")
    assert caught.value.render() == (
        "pushing needs the git program, which is not on PATH\n"
        "hint: install git, or push the branch yourself"
    )
