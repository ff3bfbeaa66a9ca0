"""``GitStore.diff`` reads only the folders that changed and says what libgit2's diff says."""

from __future__ import annotations

import os
from pathlib import Path

import pygit2
import pytest

from dreamgit.gitstore import GitStore
from dreamgit.gitstore.values import Change
from gitcheck import git


def _commit(work: Path, message: str, *, stage: bool = True) -> str:
    if stage:
        git(work, "add", "-A")
    git(work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)
    return git(work, "rev-parse", "HEAD").strip()


def _by_libgit2(store: GitStore, old: str, new: str) -> list[Change]:
    """The changes libgit2's own tree diff gives, in ``diff``'s order."""
    repo = pygit2.Repository(str(store.git_dir))
    a, b = (repo[c].peel(pygit2.Commit).tree for c in (old, new))
    found = []
    for delta in a.diff_to_tree(b).deltas:
        old_id = None if delta.old_file.id.raw == b"\0" * 20 else str(delta.old_file.id)
        new_id = None if delta.new_file.id.raw == b"\0" * 20 else str(delta.new_file.id)
        found.append(Change(delta.new_file.path or delta.old_file.path, old_id, new_id))
    return sorted(found, key=lambda c: c.path)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def history(tmp_path: Path) -> tuple[GitStore, str, str]:
    """Two commits that change files every way git can: contents, new and removed files
    deep in folders, a file become a folder and a folder a file, a file become a link, an
    executable bit alone (also deep down), and many files left as they were."""
    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    for k in range(40):
        _write(work / "memories" / f"topic{k % 4}" / f"note-{k}.md", f"Note {k}.\n")
    for name in ("edit.md", "gone.md", "becomes-folder", "becomes-link", "exec.sh"):
        _write(work / "memories" / "deep" / "er" / name, f"{name}\n")
    _write(work / "folder-to-file" / "inside.md", "inside\n")
    _write(work / "MEMORY.md", "index\n")
    old = _commit(work, "one")
    deep = work / "memories" / "deep" / "er"
    _write(deep / "edit.md", "edited\n")
    (deep / "gone.md").unlink()
    _write(deep / "added.md", "added\n")
    (deep / "becomes-folder").unlink()
    _write(deep / "becomes-folder" / "now.md", "now\n")
    (deep / "becomes-link").unlink()
    os.symlink("edit.md", deep / "becomes-link")
    os.chmod(deep / "exec.sh", 0o755)
    (work / "folder-to-file" / "inside.md").unlink()
    (work / "folder-to-file").rmdir()
    _write(work / "folder-to-file", "a file now\n")
    _write(work / "memories" / "topic3" / "note-3.md", "Note three, changed.\n")
    new = _commit(work, "two")
    return GitStore.open(work), old, new


def test_the_changes_are_libgit2s_both_ways(history: tuple[GitStore, str, str]) -> None:
    """Every kind of change, forwards and backwards, as libgit2 lists it."""
    store, old, new = history
    forwards = store.diff(old, new)
    assert forwards == _by_libgit2(store, old, new)
    assert store.diff(new, old) == _by_libgit2(store, new, old)
    paths = [c.path for c in forwards]
    assert paths.count("memories/deep/er/becomes-link") == 2  # removed, then added
    exec_bit = next(c for c in forwards if c.path.endswith("exec.sh"))
    assert exec_bit.old == exec_bit.new  # the mode alone changed
    assert store.diff(old, new, "memories/deep/") == [
        c for c in forwards if c.path.startswith("memories/deep/")
    ]
    assert store.diff(new, new) == []


def test_a_changed_submodule_is_left_to_libgit2(history: tuple[GitStore, str, str]) -> None:
    """A gitlink that moves: the diff is libgit2's, whatever it makes of it."""
    store, old, new = history
    work = store.workdir
    assert work is not None
    git(work, "update-index", "--add", "--cacheinfo", f"160000,{new},vendored")
    first = _commit(work, "a submodule", stage=False)
    git(work, "update-index", "--cacheinfo", f"160000,{old},vendored")
    second = _commit(work, "the submodule moved", stage=False)
    found = store.diff(first, second)
    assert found == _by_libgit2(store, first, second)
    assert [c.path for c in found] == ["vendored"]
