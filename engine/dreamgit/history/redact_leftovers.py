"""After a redaction: the copies dreamgit keeps beside history, and the refs it must not move.

History is rewritten by ``history.redact``; the same text also sat in what dreamgit
derived from it in the git directory (the parse cache, the model-answer cache, the
spool of recall queries). Caches are dropped (deleting them changes no answer) and
the spool is redacted in place. Refs dreamgit does not manage — tags, other
branches, the stash, notes, remote-tracking refs — are never moved by it: those that
still reach the old history are named with the command that removes them.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from dreamgit.store.repo import MemoryRepo

__all__ = ["Unmanaged", "drop_derived_copies", "unmanaged_refs"]


@dataclass(frozen=True)
class Unmanaged:
    """A ref dreamgit does not move that still reaches history the redaction rewrote."""

    ref: str
    command: str


def unmanaged_refs(
    repo: MemoryRepo, managed: Iterable[str], old_history: set[str], rewritten: set[str]
) -> list[Unmanaged]:
    """Refs outside ``managed`` whose commit is one the redaction replaced or never saw.

    A commit in ``old_history`` that was not rewritten held no trace of the text; any
    other (a rewritten one, or one outside the managed history) may hold it.
    """
    skip = set(managed)
    found: list[Unmanaged] = []
    for ref, commit in repo.store.refs("refs/").items():
        if ref in skip or any(ref.startswith(p) for p in _MANAGED_PREFIXES):
            continue
        if commit in old_history and commit not in rewritten:
            continue
        found.append(Unmanaged(ref, _command(ref)))
    return found


_MANAGED_PREFIXES = ("refs/heads/dream/", "refs/heads/dreamgit-revert/", "refs/dreamgit/")


def _command(ref: str) -> str:
    if ref.startswith("refs/tags/"):
        return f"git tag -d {ref.removeprefix('refs/tags/')}"
    if ref.startswith("refs/heads/"):
        return f"git branch -D {ref.removeprefix('refs/heads/')}"
    if ref == "refs/stash":
        return "git stash clear"
    if ref.startswith("refs/remotes/"):
        return f"git update-ref -d {ref}  (and force-push the remote, or delete the branch there)"
    return f"git update-ref -d {ref}"


def drop_derived_copies(repo: MemoryRepo, redact: Callable[[str], str]) -> None:
    """Drop the caches in the git directory and redact the recall spool with ``redact``."""
    base = repo.store.git_dir / "dreamgit"
    for cache in ("cache", "llm-cache"):
        shutil.rmtree(base / cache, ignore_errors=True)
    spool = base / "recalls"
    if spool.is_dir():
        for path in spool.iterdir():
            _redact_file(path, redact)


def _redact_file(path: Path, redact: Callable[[str], str]) -> None:
    try:
        text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    except OSError:  # taken by a concurrent flush
        return
    new = redact(text)
    if new == text:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.redact")
    tmp.write_bytes(new.encode("utf-8", errors="surrogateescape"))
    os.replace(tmp, path)


#: Paths in text (index links, record fields): redacted to a name a path may hold.
PATH_LIKE = re.compile(r"(?:memories|sessions|notes|memory)/[^\s)\]\"'`<>]+")
