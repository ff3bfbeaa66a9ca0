"""A file written aside keeps the permissions of the regular file it replaces, no others;
a regular file's mode read as git stages it, never through a symlink."""

from __future__ import annotations

from pathlib import Path

from dreamgit.gitstore.permissions import git_mode, keep_permissions


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


def test_git_mode_is_executable_when_the_owner_may_run_the_file(tmp_path: Path) -> None:
    file = tmp_path / "run.sh"
    file.write_text("echo\n", encoding="utf-8")
    for bits, mode in ((0o755, b"100755"), (0o744, b"100755"), (0o644, b"100644")):
        file.chmod(bits)
        assert git_mode(file) == mode
    file.chmod(0o655)  # others may run it, its owner not: git stages it plain
    assert git_mode(file) == b"100644"


def test_git_mode_of_no_regular_file_is_none(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_text("echo\n", encoding="utf-8")
    target.chmod(0o755)
    link = tmp_path / "link"
    link.symlink_to(target)
    assert git_mode(link) is None  # never followed
    assert git_mode(tmp_path) is None
    assert git_mode(tmp_path / "gone") is None
