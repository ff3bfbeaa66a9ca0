"""A commit's file read from loose objects: git's own bytes, or None on any doubt."""

from __future__ import annotations

import os
import subprocess
import zlib
from pathlib import Path

import pytest

from dreamgit.store.looseobjects import committed_file


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A work tree with a file at the top, one two folders down, a script and a link."""
    folder = tmp_path / "repo"
    (folder / "memories" / "prefs").mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- index line\n", encoding="utf-8")
    (folder / "memories" / "prefs" / "tabs.md").write_bytes("Tabs, not spaces — café\n".encode())
    (folder / "run.sh").write_text("echo hi\n", encoding="utf-8")
    (folder / "run.sh").chmod(0o755)
    os.symlink("MEMORY.md", folder / "link.md")
    _git(tmp_path, "init", "-q", "-b", "main", str(folder))
    _git(folder, "add", "-A")
    _git(folder, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x")
    return folder


def _head(repo: Path) -> str:
    return _git(repo, "rev-parse", "HEAD")


@pytest.mark.parametrize("path", ["MEMORY.md", "memories/prefs/tabs.md", "run.sh"])
def test_a_committed_file_reads_as_git_shows_it(repo: Path, path: str) -> None:
    """Top-level, nested and executable files: the bytes `git show` gives."""
    shown = subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{path}"], check=True, capture_output=True
    ).stdout
    assert committed_file(repo / ".git", _head(repo), path) == shown


@pytest.mark.parametrize(
    "path", ["absent.md", "memories/none/x.md", "MEMORY.md/inside", "link.md", "memories"]
)
def test_what_is_not_a_plain_file_of_the_commit_answers_none(repo: Path, path: str) -> None:
    """Absent, under a missing folder, under a file, a symbolic link, a folder: None."""
    assert committed_file(repo / ".git", _head(repo), path) is None


def test_packed_objects_answer_none(repo: Path) -> None:
    """Once git packs the objects, the caller takes the full path."""
    _git(repo, "repack", "-a", "-d", "-q")
    _git(repo, "prune-packed")
    assert committed_file(repo / ".git", _head(repo), "MEMORY.md") is None


def test_a_damaged_object_answers_none(repo: Path) -> None:
    """An object file that does not inflate, or whose header lies about its size: None."""
    blob = _git(repo, "rev-parse", "HEAD:MEMORY.md")
    path = repo / ".git" / "objects" / blob[:2] / blob[2:]
    path.chmod(0o644)
    path.write_bytes(b"not zlib")
    assert committed_file(repo / ".git", _head(repo), "MEMORY.md") is None

    path.write_bytes(zlib.compress(b"blob 99\0- index line\n"))
    assert committed_file(repo / ".git", _head(repo), "MEMORY.md") is None


def test_an_id_that_is_not_a_commit_answers_none(repo: Path) -> None:
    """A tree's id, or text that is not an object id, is not a commit."""
    tree = _git(repo, "rev-parse", "HEAD^{tree}")
    assert committed_file(repo / ".git", tree, "MEMORY.md") is None
    assert committed_file(repo / ".git", "../../" + "0" * 34, "MEMORY.md") is None
