"""The lean index writer (``gitstore/leanindex.py``): libgit2's bytes, or a doubt.

Every index here is written by the real git; each change is staged both by the lean
writer and by libgit2 (the path the stager takes on a doubt), and the bytes compared.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from dreamgit.gitstore.leanindex import staged_index
from dreamgit.gitstore.staging import _staged_by_libgit2
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git

FOLDERS = ("memories/a", "memories/b/c", "memories/b", "sessions", "")


def _work_tree(path: Path, files: int = 24) -> Path:
    """A repository with a work tree, ``files`` files in nested folders, committed by git
    (its index then holds the cached trees of every folder)."""
    git(path.parent, "init", "-q", "-b", "main", path.name)
    for k in range(files):
        folder = path / FOLDERS[k % len(FOLDERS)]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{k:02d}.md").write_text(f"file {k}\n", encoding="utf-8")
    git(path, "add", "-A")
    git(path, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "files")
    return path


def _by_libgit2(tmp_path: Path, data: bytes, edits: dict[str, str | None]) -> bytes:
    index_file, aside = tmp_path / "libgit2-in", tmp_path / "libgit2-out"
    index_file.write_bytes(data)
    aside.unlink(missing_ok=True)
    _staged_by_libgit2(index_file, aside, edits)
    return aside.read_bytes()


def _blob(repo: pygit2.Repository, rng: random.Random) -> str:
    return str(repo.create_blob(f"content {rng.random()}\n".encode()))


def _random_edits(
    rng: random.Random, repo: pygit2.Repository, staged: list[str]
) -> dict[str, str | None]:
    """A few paths changed, added (in old and new folders) and removed, at random."""
    edits: dict[str, str | None] = {}
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.35 and staged:
            edits[rng.choice(staged)] = _blob(repo, rng)
        elif roll < 0.6 and staged:
            edits[rng.choice(staged)] = None
        elif roll < 0.7:
            edits[f"memories/gone/x{rng.randint(0, 99)}.md"] = None  # never staged
        else:
            folder = rng.choice([*FOLDERS[:-1], "memories/new", "memories/b/c/d"])
            edits[f"{folder}/n{rng.randint(0, 999)}.md"] = _blob(repo, rng)
    return edits


@pytest.mark.parametrize("seed", range(6))
def test_random_stagings_give_libgit2s_bytes(tmp_path: Path, seed: int) -> None:
    """Over random sequences of changes, each written index is libgit2's byte for byte,
    and git reads it as staging exactly the files asked for."""
    work = _work_tree(tmp_path / "wt")
    repo = pygit2.Repository(str(work))
    rng = random.Random(seed)
    data = (work / ".git" / "index").read_bytes()
    for step in range(12):
        staged = git(work, "ls-files").splitlines()
        edits = _random_edits(rng, repo, staged)
        lean = staged_index(data, edits)
        assert lean is not None
        assert lean == _by_libgit2(tmp_path, data, edits)
        (work / ".git" / "index").write_bytes(lean)
        expected = {path: blob for _mode, blob, path in _staged_files(work)}
        assert set(expected) == (set(staged) | {p for p, b in edits.items() if b}) - {
            p for p, b in edits.items() if b is None
        }
        assert all(expected[p] == b for p, b in edits.items() if b is not None)
        if step % 4 == 3:
            git(work, "write-tree")  # git caches every tree again
        data = (work / ".git" / "index").read_bytes()
    git(work, "write-tree")  # git takes the last index as it is


def _split(work: Path) -> None:
    git(work, "update-index", "--split-index")


def _untracked_cache(work: Path) -> None:
    git(work, "config", "core.untrackedCache", "true")
    git(work, "update-index", "--untracked-cache")
    git(work, "status", "--porcelain")


def _version(number: int) -> Callable[[Path], None]:
    def set_version(work: Path) -> None:
        git(work, "update-index", "--index-version", str(number))

    return set_version


def _skip_worktree(work: Path) -> None:
    first = git(work, "ls-files").splitlines()[0]
    git(work, "update-index", "--skip-worktree", first)


def _sparse(work: Path) -> None:
    git(work, "sparse-checkout", "set", "--cone", "--sparse-index", "memories")


def _conflict(work: Path) -> None:
    head = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    entries = f"100644 {head} 1\tmemories/zz.md\n100644 {head} 2\tmemories/zz.md\n"
    subprocess.run(
        ["git", "-C", str(work), "update-index", "--index-info"],
        input=entries,
        text=True,
        check=True,
    )


SHAPES = {
    "split index": _split,
    "untracked cache": _untracked_cache,
    "version 3": _skip_worktree,
    "version 4": _version(4),
    "sparse index": _sparse,
    "merge conflict": _conflict,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_an_index_it_does_not_know_is_libgit2s(tmp_path: Path, shape: str) -> None:
    """A split or sparse index, an untracked cache, version 3 or 4, a conflict: None."""
    work = _work_tree(tmp_path / "wt")
    SHAPES[shape](work)
    data = (work / ".git" / "index").read_bytes()
    blob = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    assert staged_index(data, {"memories/a/new.md": blob}) is None


def test_a_bad_checksum_or_a_torn_index_is_libgit2s(tmp_path: Path) -> None:
    work = _work_tree(tmp_path / "wt")
    data = (work / ".git" / "index").read_bytes()
    blob = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    edits: dict[str, str | None] = {"memories/a/new.md": blob}
    assert staged_index(data, edits) is not None
    flipped = bytearray(data)
    flipped[40] ^= 1
    assert staged_index(bytes(flipped), edits) is None
    assert staged_index(data[: len(data) // 2], edits) is None


@pytest.mark.parametrize(
    "edits",
    [{"memories/a/f00.md/inner.md": "x"}, {"memories/b": "x"}],
    ids=["file-becomes-folder", "folder-becomes-file"],
)
def test_a_path_in_the_way_of_a_staged_one_is_libgit2s(
    tmp_path: Path, edits: dict[str, str | None]
) -> None:
    work = _work_tree(tmp_path / "wt")
    blob = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    data = (work / ".git" / "index").read_bytes()
    assert staged_index(data, dict.fromkeys(edits, blob)) is None


@pytest.mark.parametrize("shape", ["none", "untracked cache", "version 3", "version 4"])
def test_adds_in_a_work_tree_leave_git_clean_whatever_the_index(tmp_path: Path, shape: str) -> None:
    """Adds through the stager (lean or libgit2's) leave `git status` clean and `git
    fsck` content, the index staging the tip's files, with each index shape (a split
    index is not among them: libgit2 cannot read one, on main as here)."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    work = repo.store.workdir
    assert work is not None
    if shape != "none":
        SHAPES[shape](work)
    for k in range(3):
        operations.add_memory(repo, f"Fact number {k} about the build", topic="build", now=NOW)
        assert git(work, "status", "--porcelain") == ""
        assert _staged_files(work) == _committed_files(work)
    fsck(work)


def _staged_files(work: Path) -> list[tuple[str, str, str]]:
    """(mode, blob id, path) of each entry, as git reads the index (all at stage 0)."""
    found = []
    for line in git(work, "ls-files", "--stage").splitlines():
        fields, path = line.split("\t")
        mode, blob, stage = fields.split()
        assert stage == "0"
        found.append((mode, blob, path))
    return found


def _committed_files(work: Path) -> list[tuple[str, str, str]]:
    """(mode, blob id, path) of each file in HEAD's tree."""
    found = []
    for line in git(work, "ls-tree", "-r", "HEAD").splitlines():
        fields, path = line.split("\t")
        mode, _kind, blob = fields.split()
        found.append((mode, blob, path))
    return found


def test_the_checksum_is_sha1_of_the_content(tmp_path: Path) -> None:
    work = _work_tree(tmp_path / "wt")
    data = (work / ".git" / "index").read_bytes()
    blob = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    lean = staged_index(data, {"memories/a/f00.md": None, "notes/x.md": blob})
    assert lean is not None
    assert hashlib.sha1(lean[:-20]).digest() == lean[-20:]


@pytest.mark.parametrize(
    "path",
    ["memories/a/" + "x" * 4200 + ".md", "memories/\u00e9t\u00e9.md", "memories/a-b.md", "Z.md"],
    ids=["longer-than-the-flags-say", "non-ascii", "sorts-between-folders", "upper-case"],
)
def test_paths_that_sort_or_measure_apart_give_libgit2s_bytes(tmp_path: Path, path: str) -> None:
    """A path longer than the flags word holds, one sorted by its UTF-8 bytes, one whose
    byte order falls between a folder's files: staged, then removed, as libgit2 does."""
    work = _work_tree(tmp_path / "wt")
    blob = git(work, "rev-parse", "HEAD:memories/a/f00.md").strip()
    data = (work / ".git" / "index").read_bytes()
    for edits in ({path: blob, "memories/b/f01.md": blob}, {path: None}):
        lean = staged_index(data, edits)
        assert lean is not None
        assert lean == _by_libgit2(tmp_path, data, edits)
        data = lean
