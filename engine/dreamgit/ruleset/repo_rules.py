"""The rule set a memory repository runs with: its config, extending a bundled set."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from dreamgit.ruleset.files import FolderFiles, TreeFiles
from dreamgit.ruleset.load import load_bundled, load_ruleset
from dreamgit.ruleset.model import RuleSet
from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["EDITED_NOTE", "edited_config", "repo_files", "repo_ruleset", "ruleset_option_value"]

#: What a person needs to know when the config on disk is not the one dreams read.
EDITED_NOTE = (
    f"{layout.CONFIG} in the work tree differs from the committed one; dreams use the "
    f"committed one until you commit it (git commit {layout.CONFIG})"
)


def repo_files(repo: MemoryRepo, at: str | None) -> TreeFiles:
    """The rule files ``extends:`` may name: the repository's own, at the commit ``at``."""
    return TreeFiles(lambda path: repo.read_text(path, at))


def repo_ruleset(repo: MemoryRepo) -> RuleSet:
    """Load and check the rules of ``.dreamgit/config.yaml`` at the main tip.

    Files it extends are read from the same commit, wherever the command runs.
    """
    tip = repo.tip()
    text = repo.read_text(layout.CONFIG, tip)
    return load_ruleset(text, filename=layout.CONFIG, files=repo_files(repo, tip))


def ruleset_option_value(repo: MemoryRepo, value: str | None) -> RuleSet | None:
    """The rule set a ``--rules NAME|FILE`` option names (None: the repository's own)."""
    if value is None:
        return None
    path = Path(value)
    if path.is_file():
        # A file named on the command line may extend files beside it, nothing further.
        return load_ruleset(
            path.read_text(encoding="utf-8"),
            filename=str(path),
            files=FolderFiles(path.parent),
        )
    return load_bundled(value)


def edited_config(repo: MemoryRepo) -> str | None:
    """The work tree's ``.dreamgit/config.yaml`` when it differs from main's; else None.

    Only where main is checked out: elsewhere the file on disk belongs to another
    branch and says nothing about what a dream reads.
    """
    workdir = repo.store.workdir
    if workdir is None or repo.store.checked_out_branch() != repo.branch:
        return None
    try:
        text = (workdir / layout.CONFIG).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return None if text == repo.read_text(layout.CONFIG) else text
