"""git's index read without libgit2: versions 2, 3 and 4 as git writes them, and a doubt
(None) for what the reader does not vouch for."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.store.gitindex import read_index
from gitcheck import git


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A repository with staged files in nested folders, names sharing long prefixes."""
    path = tmp_path / "w"
    git(tmp_path, "init", "-q", str(path))
    names = [
        "MEMORY.md",
        "memories/kitchen/keeps-a-sourdough-starter.md",
        "memories/kitchen/keeps-a-sourdough-starter-warm.md",
        "memories/plans/a-name-long-enough-to-need-more-than-one-pad-block-of-eight.md",
        "sessions/2026/11/22/s-1.md",
        "café.md",
    ]
    for i, name in enumerate(names):
        file = path / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"file {i}\n" * (i + 1))
    (path / "run.sh").write_text("echo hi\n")
    (path / "run.sh").chmod(0o755)
    git(path, "add", "-A")
    return path


def _staged(work: Path) -> dict[bytes, tuple[int, str]]:
    """What git says is staged: path → (mode, blob id)."""
    found = {}
    for line in git(work, "ls-files", "--stage", "-z").split("\0"):
        if line:
            meta, path = line.split("\t", 1)
            mode, blob, _stage = meta.split()
            found[path.encode()] = (int(mode, 8), blob)
    return found


@pytest.mark.parametrize("version", [2, 3, 4])
def test_every_version_reads_as_git_lists_it(work: Path, version: int) -> None:
    """Paths, modes and blob ids are git's own, whatever the version."""
    git(work, "update-index", "--index-version", str(version))
    index = read_index(work / ".git")
    assert index is not None
    read = {path: (e.mode, e.object_id.hex()) for path, e in index.entries.items()}
    assert read == _staged(work)
    entry = index.entries[b"MEMORY.md"]
    assert (entry.size, entry.mtime_s) == (
        (work / "MEMORY.md").stat().st_size,
        int((work / "MEMORY.md").stat().st_mtime),
    )


def test_a_damaged_index_is_a_doubt(work: Path) -> None:
    """One byte changed: the checksum no longer holds."""
    index = work / ".git" / "index"
    data = bytearray(index.read_bytes())
    data[40] ^= 0xFF
    index.write_bytes(bytes(data))
    assert read_index(work / ".git") is None


def test_skip_worktree_intent_to_add_and_missing_index_are_doubts(work: Path) -> None:
    """An entry git does not check out, one only announced, or no index at all."""
    git(work, "update-index", "--skip-worktree", "MEMORY.md")
    assert read_index(work / ".git") is None
    git(work, "update-index", "--no-skip-worktree", "MEMORY.md")
    assert read_index(work / ".git") is not None
    (work / "later.md").write_text("not yet\n")
    git(work, "add", "--intent-to-add", "later.md")
    assert read_index(work / ".git") is None
    (work / ".git" / "index").unlink()
    assert read_index(work / ".git") is None


def test_a_merge_in_conflict_is_a_doubt(work: Path) -> None:
    """Stages 1 to 3 of one path: the reader does not choose."""
    who = ["-c", "user.name=t", "-c", "user.email=t@t"]
    git(work, *who, "commit", "-q", "-m", "base")
    git(work, "checkout", "-q", "-b", "other")
    (work / "MEMORY.md").write_text("theirs\n")
    git(work, *who, "commit", "-q", "-am", "theirs")
    git(work, "checkout", "-q", "-")
    (work / "MEMORY.md").write_text("ours\n")
    git(work, *who, "commit", "-q", "-am", "ours")
    git(work, *who, "merge", "-q", "other", check=False)
    assert read_index(work / ".git") is None
