"""Loose objects written without libgit2 read back as git wrote them, however hashed."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from dreamgit.gitstore.looseobject import write_loose


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
