"""A branch read and moved by compare-and-swap through git's own files, as git moves it.

A branch is a file ``refs/heads/NAME`` holding its commit, or a line of ``packed-refs``
(the file wins). To move it, git creates ``refs/heads/NAME.lock`` exclusively, reads the
branch under that lock, writes the new id into the lock file and renames it over the
branch: a writer that moved the branch first makes the move fail (``StaleTipError``),
and a reader never sees half a ref. Anything git or libgit2 would do more, or that this
cannot judge, is a doubt (``leandoubt.Doubt``) and the caller takes libgit2's path: a
lock file already there (a writer at work, or one that died: libgit2's path waits for it
and breaks it when it is stale), a reflog to be written, a symbolic or odd ref, a
reftable.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from dreamgit.errors import StaleTipError
from dreamgit.store.leandoubt import Doubt

__all__ = ["branch_tip", "move_branch"]

_OBJECT_ID = re.compile(r"[0-9a-f]{40}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")


def branch_tip(git_dir: Path, branch: str) -> str | None:
    """The commit ``branch`` is at, None when there is no such branch; a Doubt else."""
    ref = _ref_file(git_dir, branch)
    try:
        with open(ref, "rb") as file:
            text = file.read().decode("ascii")
    except FileNotFoundError:
        return _packed(git_dir, f"refs/heads/{branch}")
    except (OSError, UnicodeDecodeError):
        raise Doubt(branch) from None
    found = text.rstrip("\n")
    if not _OBJECT_ID.fullmatch(found):
        raise Doubt(branch)  # a symbolic ref, or not a ref
    return found


def move_branch(git_dir: Path, branch: str, *, expected: str, new: str) -> None:
    """Point ``branch`` at ``new`` if it is at ``expected`` under its lock (else
    StaleTipError); a Doubt, with nothing changed, where git would do more."""
    if (git_dir / "logs").exists():
        raise Doubt("reflogs are kept here")
    ref = _ref_file(git_dir, branch)
    lock = ref.with_name(ref.name + ".lock")
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        raise Doubt(f"{lock.name} cannot be created") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            if branch_tip(git_dir, branch) != expected:
                raise StaleTipError(branch)
            file.write(f"{new}\n")
        os.replace(lock, ref)
    except BaseException:
        lock.unlink(missing_ok=True)
        raise


def _ref_file(git_dir: Path, branch: str) -> Path:
    if (
        not _NAME.fullmatch(branch)
        or ".." in branch
        or "//" in branch
        or branch.endswith((".lock", "/", "."))
        or (git_dir / "reftable").exists()
    ):
        raise Doubt(branch)
    return git_dir / "refs" / "heads" / branch


def _packed(git_dir: Path, ref: str) -> str | None:
    try:
        text = (git_dir / "packed-refs").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        raise Doubt("packed-refs") from None
    for line in text.splitlines():
        if line.startswith(("#", "^")):
            continue
        object_id, _, name = line.partition(" ")
        if name == ref:
            if not _OBJECT_ID.fullmatch(object_id):
                raise Doubt(ref)
            return object_id
    return None
