"""Uncommitted edits that do not read: reported and left out; fixed ones count at once."""

from __future__ import annotations

from pathlib import Path

from formatkit import LATER, T0, claude_folder_on_master, git
from test_format_claude import ok, run

BROKEN = "---\nname: &a broken\ndescription: [unclosed\n---\nText.\n"
FIXED = "---\nname: fixed\ndescription: mended by hand\ntype: project\n---\nThe fix holds.\n"


def _adopted(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    claude_folder_on_master(root)
    ok(root, "init", str(root), now=T0)
    return root


def test_a_file_that_does_not_read_is_left_out_of_agent_edits(tmp_path: Path) -> None:
    """run commits the good edit and leaves the broken file in the work tree, named."""
    root = _adopted(tmp_path)
    (root / "broken.md").write_text(BROKEN, encoding="utf-8")
    (root / "good.md").write_text(FIXED, encoding="utf-8")
    result = run(root, "run", "--force")
    assert result.exit_code == 0, result.output
    assert "warning: broken.md" in result.stderr
    assert "; left uncommitted, as written, until it reads\n" in result.stderr
    tracked = git(root, "ls-files").split()
    assert "good.md" in tracked and "broken.md" not in tracked
    assert (root / "broken.md").read_text(encoding="utf-8") == BROKEN
    status = run(root, "status")
    assert status.exit_code == 0 and "warning: broken.md" in status.stderr


def test_status_reads_the_fix_in_the_work_tree_not_the_committed_copy(tmp_path: Path) -> None:
    """A broken file committed by hand stops status; fixed on disk (uncommitted), it does not."""
    root = _adopted(tmp_path)
    (root / "broken.md").write_text(BROKEN, encoding="utf-8")
    git(root, "add", "broken.md")
    git(root, "commit", "-q", "-m", "a broken file")
    assert run(root, "status").exit_code == 1
    (root / "broken.md").write_text(FIXED, encoding="utf-8")
    status = run(root, "status", now=LATER)
    assert status.exit_code == 0, status.output
    assert status.stderr == ""
    ok(root, "add", "Ships on Fridays.", "--topic", "project")
    assert git(root, "show", "master:broken.md") == FIXED


def test_agent_edits_are_authored_by_the_person_and_committed_by_dreamgit(
    tmp_path: Path,
) -> None:
    """A hand edit carries git's user.name as author; dreamgit is only the committer."""
    root = _adopted(tmp_path)
    git(root, "config", "user.name", "Ada Lovelace")
    git(root, "config", "user.email", "ada@example.com")
    (root / "good.md").write_text(FIXED, encoding="utf-8")
    ok(root, "add", "Ships on Fridays.", "--topic", "project")
    edits = git(root, "log", "--format=%an <%ae>|%cn|%s", "master")
    line = next(
        row for row in edits.splitlines() if row.endswith("|agent edits: 1 file(s) changed by hand")
    )
    assert line.startswith("Ada Lovelace <ada@example.com>|dreamgit|")
