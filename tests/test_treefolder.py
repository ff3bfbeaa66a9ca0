"""TreeFolder: a folder's entries kept in git's order give the tree object git writes."""

from __future__ import annotations

import random
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import FileMode

from dreamgit.gitstore.treefolder import EXECUTABLE, FILE, FOLDER, TreeFolder, written_mode

#: Names whose order differs between plain byte order and git's (a folder sorts as if
#: its name ended in "/": "a.md" < "a/" < "a0").
NAMES = ["a", "a.md", "a-b", "a0", "a_b", "B", "b", "é.md", "z"]


def _built(repo: pygit2.Repository, entries: dict[str, tuple[bytes, pygit2.Oid]]) -> bytes:
    """The tree libgit2's own builder writes for ``entries``."""
    builder = repo.TreeBuilder()
    for name, (mode, oid) in entries.items():
        builder.insert(name, oid, FileMode.TREE if mode == FOLDER else FileMode.BLOB)
    return repo[builder.write()].read_raw()


def test_random_files_and_folders_give_the_tree_the_builder_writes(tmp_path: Path) -> None:
    """Sets and removals of files and folders, in any order, join to the builder's tree."""
    repo = pygit2.init_repository(tmp_path / "r", bare=True)
    blob = repo.create_blob(b"x\n")
    sub = repo[repo.TreeBuilder().write()].id  # an empty tree serves as a folder's id
    rng = random.Random(16)
    folder, model = TreeFolder(), {}
    for _ in range(200):
        name = rng.choice(NAMES)
        if rng.random() < 0.3:
            folder.remove(name)
            model.pop(name, None)
        else:
            mode, oid = (FOLDER, sub) if rng.random() < 0.5 else (FILE, blob)
            folder.set(name, mode, oid.raw)
            model[name] = (mode, oid)
        if model:
            assert folder.raw() == _built(repo, model)
        assert len(folder) == len(model)


def test_a_folder_read_from_a_tree_writes_it_back_unchanged(tmp_path: Path) -> None:
    """A tree's bytes read in are the bytes written out, other modes kept as they were."""
    repo = pygit2.init_repository(tmp_path / "r", bare=True)
    builder = repo.TreeBuilder()
    builder.insert("run.sh", repo.create_blob(b"#!/bin/sh\n"), FileMode.BLOB_EXECUTABLE)
    builder.insert("link", repo.create_blob(b"run.sh"), FileMode.LINK)
    builder.insert("notes", repo[repo.TreeBuilder().write()].id, FileMode.TREE)
    raw = repo[builder.write()].read_raw()
    folder = TreeFolder(raw)
    assert folder.raw() == raw
    assert folder.get("notes") == (FOLDER, builder.get("notes").id.raw)
    assert folder.get("missing") is None


@pytest.mark.parametrize("name", ["", ".", "..", ".git", ".GIT", "a/b", "a\0b"])
def test_a_name_no_tree_may_hold_is_refused(name: str) -> None:
    """Names a tree builder refuses are refused here too, before any tree is written."""
    with pytest.raises(ValueError, match="not a name a tree may hold"):
        TreeFolder().set(name, FILE, b"\1" * 20)


def test_names_with_spaces_and_ids_with_any_byte_read_back_as_written() -> None:
    """An entry's name may hold spaces and bytes that are not UTF-8, its id any byte (a NUL,
    a line break): each is read as the tree holds it."""
    ids = [b"\0" * 20, b"\n" * 20, bytes(range(20)), b" " * 20]
    names = [b"a b c.md", b"\xff\xfe.md", b"plain.md", b"with space"]
    raw = b"".join(b"100644 %s\0%s" % (n, oid) for n, oid in sorted(zip(names, ids, strict=True)))
    folder = TreeFolder(raw)
    assert folder.raw() == raw
    for name, oid in zip(names, ids, strict=True):
        assert folder.get(name.decode("utf-8", "surrogateescape")) == (FILE, oid)


def test_bytes_that_are_not_a_trees_entries_are_refused() -> None:
    """A cut-off entry is not read as a shorter folder."""
    raw = b"100644 a.md\0" + b"\1" * 20 + b"100644 b.md\0" + b"\2" * 19
    with pytest.raises(ValueError, match="not a tree object's entries"):
        TreeFolder(raw)


def test_a_written_files_mode_is_the_one_its_file_gives_else_the_replaced_executables() -> None:
    """The mode a file gives wins; without one, only an executable replaced stays one."""
    assert written_mode(None) == FILE
    assert written_mode(EXECUTABLE) == EXECUTABLE
    assert written_mode(FOLDER) == FILE
    assert written_mode(None, EXECUTABLE) == EXECUTABLE
    assert written_mode(EXECUTABLE, FILE) == FILE
