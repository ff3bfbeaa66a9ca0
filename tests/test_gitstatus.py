"""git's own status asked about the agent's paths of a work tree: nothing there is True,
anything there (an edit, a staged change, an untracked or ignored file) is False, and
git that cannot be asked is None."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dreamgit.store.gitstatus import clean_by_git
from gitcheck import committed_work_tree, git

PATHS = ("memories/", "MEMORY.md")
STARTER = "memories/kitchen/keeps-a-starter.md"


def _repository(path: Path) -> Path:
    files = {
        "MEMORY.md": "- index\n",
        STARTER: "Keeps a sourdough starter.\n",
        "memories/travel/likes-trains.md": "Likes night trains.\n",
        "notes/elsewhere.md": "Outside the agent's paths.\n",
        ".gitignore": "*.swp\n",
    }
    return committed_work_tree(path, files)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A repository with a work tree holding its commit."""
    return _repository(tmp_path / "w")


def _ask(work: Path, commit: str | None = None) -> bool | None:
    head = commit or git(work, "rev-parse", "HEAD").strip()
    return clean_by_git(work / ".git", work, PATHS, head)


def test_a_work_tree_holding_the_commit_is_clean(work: Path) -> None:
    """Nothing under the paths differs, even with an edit and a new file elsewhere."""
    (work / "notes" / "elsewhere.md").write_text("Edited outside the paths.\n")
    (work / "notes" / "new.md").write_text("New outside the paths.\n")
    assert _ask(work) is True


def _edit(work: Path) -> None:
    (work / STARTER).write_text("Gave the starter away.\n")


def _untracked(work: Path) -> None:
    (work / "memories" / "kitchen" / "hand-written.md").write_text("Likes rye bread.\n")


def _ignored(work: Path) -> None:
    (work / "memories" / "kitchen" / ".keeps-a-starter.md.swp").write_text("swap\n")


def _staged_then_undone(work: Path) -> None:
    original = (work / STARTER).read_bytes()
    (work / STARTER).write_text("Staged, then undone.\n")
    git(work, "add", STARTER)
    (work / STARTER).write_bytes(original)


def _deleted_index(work: Path) -> None:
    (work / "MEMORY.md").unlink()


def _new_commit_by_git(work: Path) -> None:
    """HEAD moves to a commit of another file; the work tree keeps the old one's."""
    git(work, "rm", "-q", "--cached", STARTER)
    git(work, "-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-q", "-m", "rm")


@pytest.mark.parametrize(
    "change", [_edit, _untracked, _ignored, _staged_then_undone, _deleted_index, _new_commit_by_git]
)
def test_anything_under_the_paths_is_something(work: Path, change: object) -> None:
    """An edit, a new file, an ignored one, a staged change, a deletion: not clean."""
    change(work)  # type: ignore[operator]
    assert _ask(work) is False


def test_gits_variables_that_point_elsewhere_are_not_followed(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository asked about is the one given, whatever GIT_DIR and the rest say."""
    other = _repository(tmp_path / "other")
    _edit(other)
    head = git(work, "rev-parse", "HEAD").strip()
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    assert _ask(work, head) is True
    _edit(work)
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "absent"))
    assert _ask(work, head) is False


def test_no_git_or_no_repository_cannot_say(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git absent from PATH, or a folder that is not a repository: None."""
    assert clean_by_git(tmp_path / "nothing", tmp_path, PATHS, "0" * 40) is None
    head = git(work, "rev-parse", "HEAD").strip()
    monkeypatch.setenv("PATH", os.fspath(tmp_path / "empty"))
    assert _ask(work, head) is None


def test_a_head_at_another_commit_is_something(work: Path) -> None:
    """The work tree is judged against the commit asked about: HEAD elsewhere is False,
    even when the files are those of the commit HEAD is at."""
    asked = git(work, "rev-parse", "HEAD").strip()
    git(
        work,
        "-c",
        "user.name=a",
        "-c",
        "user.email=a@b.c",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "e",
    )
    assert _ask(work) is True
    assert _ask(work, asked) is False
