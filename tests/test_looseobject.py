"""Loose objects written without libgit2 read back as git wrote them, however hashed, and
loose blobs read without it as libgit2 reads them, or left to it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pygit2
import pytest

from dreamgit.gitstore import GitStore
from dreamgit.gitstore.looseobject import read_loose_blob, write_loose


@pytest.mark.parametrize("large", [False, True], ids=["kernel-sha1", "openssl-sha1"])
@pytest.mark.parametrize("level", [0, 1])
def test_a_loose_blob_has_gits_id_and_reads_back(tmp_path: Path, large: bool, level: int) -> None:
    """Either hash gives git's id, and libgit2 reads the object back, stored or compressed."""
    repo = pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    body = bytes(range(256)) * 5000  # over a megabyte: the size of a big topic tree
    oid = write_loose(Path(repo.path) / "objects", b"blob", body, level=level, large=large)
    assert oid == str(pygit2.hash(body))
    assert repo[oid].data == body


def test_the_same_object_written_twice_is_kept_once(tmp_path: Path) -> None:
    """An object already there is kept: the second write, hashed the other way, finds it."""
    repo = pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    objects = Path(repo.path) / "objects"
    first = write_loose(objects, b"blob", b"same", level=0, large=True)
    assert write_loose(objects, b"blob", b"same", level=1) == first
    assert len([p for p in (objects / first[:2]).iterdir()]) == 1


@pytest.mark.parametrize(
    "body", [b"", b"name: x\n", bytes(range(256)) * 1000], ids=["empty", "small", "chunks"]
)
@pytest.mark.parametrize("level", [0, 1])
def test_a_loose_blob_reads_as_libgit2_reads_it(tmp_path: Path, body: bytes, level: int) -> None:
    """Empty, small, and stored over several of the reader's chunks: libgit2's bytes."""
    repo = pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    objects = Path(repo.path) / "objects"
    oid = write_loose(objects, b"blob", body, level=level)
    assert read_loose_blob(str(objects), oid) == repo[oid].data == body


def test_what_is_not_a_whole_loose_blob_of_its_id_is_left_to_libgit2(tmp_path: Path) -> None:
    """Missing, a tree, a truncated file, another object's bytes, an odd id: None."""
    repo = pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    objects = Path(repo.path) / "objects"
    blob = write_loose(objects, b"blob", b"kept\n", level=1)
    other = write_loose(objects, b"blob", b"other\n", level=1)
    tree = str(repo.TreeBuilder().write())
    truncated = write_loose(objects, b"blob", b"cut short\n" * 50, level=1)
    cut = objects / truncated[:2] / truncated[2:]
    cut.chmod(0o644)
    cut.write_bytes(cut.read_bytes()[:-6])
    swapped = objects / blob[:2] / blob[2:]
    swapped.chmod(0o644)
    swapped.write_bytes((objects / other[:2] / other[2:]).read_bytes())
    for odd in ("0" * 40, tree, truncated, blob, "a\0b", "../x"):
        assert read_loose_blob(str(objects), odd) is None
    assert read_loose_blob(str(objects), other) == b"other\n"


def test_the_store_reads_packed_blobs_and_refuses_a_loose_one_of_other_bytes(
    tmp_path: Path,
) -> None:
    """A packed blob through libgit2; a loose file holding another object's bytes is
    libgit2's error, not the other object's text."""
    store = GitStore.init(tmp_path / "r.git", bare=True)
    objects = store.git_dir / "objects"
    packed = store.write_blob(b"packed\n")
    git = ["git", "-C", str(store.git_dir)]
    subprocess.run(
        [*git, "pack-objects", "-q", "objects/pack/pack"],
        input=packed.encode(),
        check=True,
        capture_output=True,
    )
    subprocess.run([*git, "prune-packed"], check=True)
    swapped = store.write_blob(b"swapped\n")
    other = write_loose(objects, b"blob", b"other\n", level=1)
    assert not (objects / packed[:2] / packed[2:]).exists()
    assert store.read(packed) == b"packed\n"
    assert store.read(other) == b"other\n"
    path = objects / swapped[:2] / swapped[2:]
    path.chmod(0o644)
    path.write_bytes((objects / other[:2] / other[2:]).read_bytes())
    with pytest.raises(pygit2.GitError):
        store.read(swapped)
