"""Branches under a prefix, whether a repository is bare and where its work tree is,
read from git's own files.

The lean status (``dream/leanstatus.py``) runs without libgit2, as the cached recall does
(``store/headref.py``): what it must know of the refs besides HEAD's branch is which dream
branches exist and where they point, to see that they are the ones a kept view saw. Loose
refs under ``refs/heads/PREFIX`` win over ``packed-refs`` lines, as in git. Anything odd —
a symbolic ref, a file that is not an object id, an unreadable folder, a reftable — is a
doubt and answers None, and the caller takes the full path.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["branches_under", "says_bare", "work_tree_of"]

_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def branches_under(git_dir: Path, prefix: str) -> dict[str, str] | None:
    """Local branches whose name starts with ``prefix`` (a folder, ``dream/``) and their
    tips, sorted by name as ``GitStore.branches`` gives them; None on any doubt."""
    if (git_dir / "reftable").exists():
        return None
    found: dict[str, str] = {}
    packed = _read(git_dir / "packed-refs")
    wanted = f"refs/heads/{prefix}"
    for line in (packed or "").splitlines():
        if line.startswith(("#", "^")):
            continue
        object_id, _, name = line.partition(" ")
        if name.startswith(wanted):
            if not _OBJECT_ID.fullmatch(object_id):
                return None
            found[name.removeprefix("refs/heads/")] = object_id
    folder = git_dir / "refs" / "heads" / prefix.rstrip("/")
    if folder.exists():
        loose = _loose(folder, prefix.rstrip("/"))
        if loose is None:
            return None
        found.update(loose)
    return dict(sorted(found.items()))


def _loose(folder: Path, name: str) -> dict[str, str] | None:
    found: dict[str, str] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    for entry in entries:
        if entry.name.endswith(".lock"):
            continue  # a ref being written: git reads the ref itself, not its lock
        if entry.is_dir(follow_symlinks=False):
            deeper = _loose(Path(entry.path), f"{name}/{entry.name}")
            if deeper is None:
                return None
            found.update(deeper)
            continue
        text = _read(Path(entry.path)) if entry.is_file(follow_symlinks=False) else None
        commit = None if text is None else text.rstrip("\n")
        if commit is None or not _OBJECT_ID.fullmatch(commit):
            return None  # a symbolic ref, or not a ref at all
        found[f"{name}/{entry.name}"] = commit
    return found


def says_bare(git_dir: Path) -> bool:
    """Whether the repository's ``config`` says ``bare = true`` and nothing else about
    it (a work tree would hold edits the lean path cannot see)."""
    text = _read(git_dir / "config")
    if text is None:
        return False
    said = [
        value.strip().lower()
        for key, _, value in (line.partition("=") for line in text.splitlines())
        if key.strip().lower() == "bare"
    ]
    return bool(said) and all(value == "true" for value in said)


def work_tree_of(git_dir: Path) -> Path | None:
    """The work tree of the repository whose git directory is ``git_dir``, when it is
    the folder holding ``.git`` and the ``config`` says ``bare = false`` and names no
    other work tree; None on any doubt."""
    text = _read(git_dir / "config")
    if text is None or git_dir.name != ".git":
        return None
    said = [
        (key.strip().lower(), value.strip().lower())
        for key, _, value in (line.partition("=") for line in text.splitlines())
    ]
    bare = [value for key, value in said if key == "bare"]
    if bare != ["false"] or any(key == "worktree" for key, _ in said):
        return None
    return git_dir.parent


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
