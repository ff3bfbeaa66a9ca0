"""Helpers for the foundation tests: the real `git` binary as the judge of a repository."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
NOW_TEXT = "2026-11-22T03:00:00Z"


def git(repo: Path, *args: str, check: bool = True) -> str:
    """Run the real git binary in ``repo`` (bare or not) and return its stdout."""
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def subjects(repo: Path, branch: str = "main") -> list[str]:
    """Commit subjects on ``branch``, newest first, as git itself reads them."""
    return git(repo, "log", "--format=%s", branch).splitlines()


def fsck(repo: Path) -> None:
    """Fail unless `git fsck --strict` finds nothing wrong."""
    done = subprocess.run(
        ["git", "-C", str(repo), "fsck", "--strict", "--no-dangling"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def tree_files(repo: Path, rev: str = "main") -> list[str]:
    """Every file path in ``rev``'s tree."""
    return git(repo, "ls-tree", "-r", "--name-only", rev).splitlines()


def tree_blobs(repo: Path, rev: str = "HEAD") -> dict[str, str]:
    """What git says ``rev``'s tree holds: path → blob id."""
    found = {}
    for line in git(repo, "ls-tree", "-r", rev).splitlines():
        meta, path = line.split("\t", 1)
        found[path] = meta.split()[2]
    return found


def committed_work_tree(path: Path, files: dict[str, str]) -> Path:
    """A new repository at ``path`` whose work tree and index hold one commit of
    ``files`` (path → text), made by the git binary, as a clone leaves them."""
    git(path.parent, "init", "-q", str(path))
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "add", "-A")
    git(path, "-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-q", "-m", "c")
    return path
