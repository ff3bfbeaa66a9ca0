"""A worker imports every Nth test module before collecting; one that fails is left alone."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from folderkit import FolderMaker
from workershare import import_share


@pytest.fixture
def modules(tmp_path: Path) -> Iterator[Path]:
    """A folder of five test modules (the third fails to import) on ``sys.path``."""
    for number in range(5):
        body = "raise ValueError('broken')\n" if number == 2 else f"NUMBER = {number}\n"
        (tmp_path / f"test_share_{number}.py").write_text(body)
    (tmp_path / "helper_share.py").write_text("NUMBER = -1\n")
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [name for name in sys.modules if "_share" in name]:
        del sys.modules[name]


def test_each_worker_imports_its_share_of_the_test_modules(modules: Path) -> None:
    """Worker 0 of 2 imports the 1st, 3rd and 5th modules (the 3rd fails: left out)."""
    assert import_share(modules, 0, 2) == ["test_share_0", "test_share_4"]
    assert "test_share_1" not in sys.modules
    assert "helper_share" not in sys.modules
    assert import_share(modules, 1, 2) == ["test_share_1", "test_share_3"]


def test_a_folder_not_on_the_path_imports_nothing(tmp_path: Path) -> None:
    """Collection puts the folder on the path; before it, nothing is imported."""
    (tmp_path / "test_off_path.py").write_text("NUMBER = 1\n")
    assert import_share(tmp_path, 0, 1) == []
    assert "test_off_path" not in sys.modules


def test_folders_are_new_numbered_and_named_safely(tmp_path: Path) -> None:
    """Each call makes a new empty folder: the name made safe, cut, and numbered."""
    maker = FolderMaker(tmp_path)
    first = maker.new("test_x[a b/c]")
    second = maker.new("test_x[a b/c]")
    long = maker.new("n" * 50)
    assert (first.name, second.name) == ("test_x_a_b_c_-0", "test_x_a_b_c_-1")
    assert long.name == "n" * 30 + "-2"
    assert [p.is_dir() and not any(p.iterdir()) for p in (first, second, long)] == [True] * 3
