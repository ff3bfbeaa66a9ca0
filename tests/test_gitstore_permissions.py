"""A file written aside keeps the permissions of the regular file it replaces, no others."""

from __future__ import annotations

from pathlib import Path

from dreamgit.gitstore.permissions import keep_permissions


def _written(tmp_path: Path) -> Path:
    written = tmp_path / "written"
    written.write_text("new", encoding="utf-8")
    written.chmod(0o644)
    return written


def test_an_executable_replaced_gives_its_bits(tmp_path: Path) -> None:
    replaced = tmp_path / "run.sh"
    replaced.write_text("old", encoding="utf-8")
    replaced.chmod(0o750)
    written = _written(tmp_path)
    keep_permissions(written, replaced)
    assert written.stat().st_mode & 0o777 == 0o750


def test_nothing_replaced_leaves_the_default(tmp_path: Path) -> None:
    written = _written(tmp_path)
    keep_permissions(written, tmp_path / "gone")
    assert written.stat().st_mode & 0o777 == 0o644


def test_a_symlinks_own_bits_are_not_taken(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    link = tmp_path / "link"
    link.symlink_to(target)
    written = _written(tmp_path)
    keep_permissions(written, link)
    assert written.stat().st_mode & 0o777 == 0o644
