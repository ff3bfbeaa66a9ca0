"""package_files: a package's bundled files, as importlib.resources reads them."""

from __future__ import annotations

import sys
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

from dreamgit.packagefiles import package_files


def test_an_installed_package_is_its_folder_holding_the_same_files() -> None:
    """The bundled rules: a Path to the folder, the same names and bytes as the reader's."""
    found = package_files("dreamgit.rules")
    assert isinstance(found, Path) and found.is_dir()
    ours = {item.name: item.read_bytes() for item in found.iterdir() if item.name.endswith(".yaml")}
    theirs = {
        item.name: item.read_bytes()
        for item in files("dreamgit.rules").iterdir()
        if item.name.endswith(".yaml")
    }
    assert ours == theirs and "default.yaml" in ours


def test_a_package_in_a_zip_is_read_through_importlib_resources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not one folder on disk: the reader importlib.resources gives, which reads the zip."""
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("kites/__init__.py", "")
        zipped.writestr("kites/rules.yaml", "fly: sundays\n")
    monkeypatch.syspath_prepend(str(archive))
    monkeypatch.delitem(sys.modules, "kites", raising=False)
    found = package_files("kites")
    assert not isinstance(found, Path)
    assert (found / "rules.yaml").read_text(encoding="utf-8") == "fly: sundays\n"
