"""Adopting a folder: take in what is there, byte for byte, and say what was found.

``dreamgit init`` in a folder that already holds files (not a git repository
yet, or a repository on ``master`` or any branch, with uncommitted or untracked
files) first commits every file as it is onto that repository's own branch, then
writes the config naming the format it detected (or the one asked for).
Nothing is rewritten and nothing is deleted; files git ignores stay untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dreamgit import trailers as tr
from dreamgit.errors import UserError
from dreamgit.store import layout
from dreamgit.store.config import DEFAULT_CONFIG, read_config
from dreamgit.store.formats import FORMAT_NAMES, MemoryFormat, detect, get_format

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = [
    "Adopted",
    "check_format",
    "config_text",
    "configured_branch",
    "describe",
    "redacted_paths",
    "uncommitted_files",
]


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
    """Every file in the work tree that the branch does not hold as it is (none when bare),
    except an agent's lock files (Hermes' ``MEMORY.md.lock``)."""
    return {
        p: d
        for p, d in store.worktree_edits(("",)).items()
        if d is not None and not p.endswith(".md.lock")
    }


def redacted_paths(message: str) -> dict[str, list[str]]:
    """Files a commit's ``Dream-Redacted: path:line (kind)`` trailers name, with the
    kinds of credential each held."""
    found: dict[str, list[str]] = {}
    for line in message.splitlines():
        if line.startswith(f"{tr.REDACTED}: "):
            where, _, kind = line.removeprefix(f"{tr.REDACTED}: ").rpartition(" (")
            kinds = found.setdefault(where.rsplit(":", 1)[0], [])
            if kind.rstrip(")") not in kinds:
                kinds.append(kind.rstrip(")"))
    return found


def describe(
    store: GitStore,
    tip: str | None,
    branch: str,
    wanted: str | None,
    *,
    redacted: Mapping[str, list[str]] | None = None,
) -> Adopted:
    """Detect the format of the files at ``tip`` and check it against the one asked for."""
    check_format(wanted)
    files = store.files(tip)
    readers = {p: (lambda b=blob: store.read(b)) for p, blob in files.items()}
    detected, found = detect(readers, store.workdir)
    chosen = wanted or detected
    title = get_format({"format": chosen}).title
    if wanted is not None and wanted != detected and detected != "dreamgit":
        found += f"; --format {wanted} asked for {title} instead"
    redacted = redacted or {}
    kept = f"; {len(files) - len(redacted)} file(s) kept byte for byte" if files else ""
    if redacted:
        listing = ", ".join(
            f"{path}: " + ", ".join(f"[REDACTED:{kind}]" for kind in kinds)
            for path, kinds in sorted(redacted.items())
        )
        kept += (
            f", {len(redacted)} committed with its credential replaced ({listing}); the "
            "file on disk keeps it until dreamgit's next write redacts it there too"
        )
    using = "using that format" if chosen == detected and files else f"using {title}"
    message = f"{found}: {using} on branch {branch}{kept}"
    roles = _roles(get_format({"format": chosen}), sorted(files))
    return Adopted(chosen, detected, branch, "\n".join([message, *roles]), len(files))


def _roles(fmt: MemoryFormat, paths: list[str]) -> list[str]:
    """One line per thing dreamgit will do, naming the files it does it to (a few, then a count)."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        if not path.startswith(".dreamgit/"):
            groups.setdefault(fmt.role(path), []).append(path)
    lines = []
    for role, named in groups.items():
        shown = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
        lines.append(f"  {shown}: {role}")
    return lines


def check_format(wanted: str | None) -> None:
    """A UserError unless ``wanted`` is None or a format dreamgit knows."""
    if wanted is not None and wanted not in FORMAT_NAMES:
        raise UserError(
            f"format {wanted!r} is not one dreamgit knows",
            hint="use one of " + ", ".join(FORMAT_NAMES),
        )


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


def configured_branch(store: GitStore) -> str:
    """HEAD's branch, main or master, whichever holds ``.dreamgit/config.yaml`` first.

    An adopted repository keeps working on its own branch (``branch:`` in the config).
    """
    head = store.head_branch()
    for name in dict.fromkeys(b for b in (head, layout.MAIN, "master") if b):
        data = store.read_path(store.tip(name), layout.CONFIG)
        if data is not None:
            branch = read_config(data.decode("utf-8", errors="replace")).get("branch")
            return str(branch) if isinstance(branch, str) and branch else name
    return head or layout.MAIN
