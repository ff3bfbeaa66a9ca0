"""Adopting a folder: take in what is there, byte for byte, and say what was found.

``dreamgit init`` in a folder that already holds files (not a git repository
yet, or a repository on ``master`` or any branch, with uncommitted or untracked
files) first commits every file as it is onto that repository's own branch, then
writes the config naming the format it detected (or the one asked for).
Nothing is rewritten and nothing is deleted; files git ignores stay untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamgit.errors import UserError
from dreamgit.store.config import DEFAULT_CONFIG
from dreamgit.store.formats import FORMAT_NAMES, detect, get_format
from dreamgit.store.gitstore import GitStore

__all__ = ["Adopted", "config_text", "describe", "uncommitted_files"]


@dataclass(frozen=True)
class Adopted:
    """What ``init`` found and decided: the format, the branch, and a sentence for people."""

    format: str
    detected: str
    branch: str
    message: str
    #: How many files the branch held when the config was written.
    files: int


def uncommitted_files(store: GitStore) -> dict[str, bytes | None]:
    """Every file in the work tree that the branch does not hold as it is (none when bare)."""
    return {p: d for p, d in store.worktree_edits(("",)).items() if d is not None}


def describe(store: GitStore, tip: str | None, branch: str, wanted: str | None) -> Adopted:
    """Detect the format of the files at ``tip`` and check it against the one asked for."""
    files = store.files(tip)
    readers = {p: (lambda b=blob: store.read(b)) for p, blob in files.items()}
    detected, found = detect(readers)
    if wanted is not None and wanted not in FORMAT_NAMES:
        raise UserError(
            f"format {wanted!r} is not one dreamgit knows",
            hint="use one of " + ", ".join(FORMAT_NAMES),
        )
    chosen = wanted or detected
    title = get_format({"format": chosen}).title
    if wanted is not None and wanted != detected and detected != "dreamgit":
        found += f"; --format {wanted} asked for {title} instead"
    kept = f"; {len(files)} file(s) kept byte for byte" if files else ""
    message = f"{found}: using {title} on branch {branch}{kept}"
    return Adopted(chosen, detected, branch, message, len(files))


def config_text(format: str, branch: str) -> str:
    """The config a new repository starts with (dreamgit's own default on main: unchanged)."""
    rules = get_format({"format": format}).rules
    head = ""
    if format != "dreamgit":
        head += (
            f"# Memory format: where memories live and how they are written.\nformat: {format}\n"
        )
    if branch != "main":
        head += f"# The branch dreamgit works on (this repository's own).\nbranch: {branch}\n"
    text = DEFAULT_CONFIG.replace("extends: default\n", f"extends: {rules}\n")
    return f"{head}\n{text}" if head else text
