"""The rule set a memory repository runs with: its config, extending a bundled set."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from dreamgit.ruleset.load import load_bundled, load_ruleset
from dreamgit.ruleset.model import RuleSet
from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["repo_ruleset", "ruleset_option_value"]


def repo_ruleset(repo: MemoryRepo) -> RuleSet:
    """Load and check the rules of ``.dreamgit/config.yaml`` at the main tip."""
    return load_ruleset(repo.read_text(layout.CONFIG), filename=layout.CONFIG)


def ruleset_option_value(repo: MemoryRepo, value: str | None) -> RuleSet | None:
    """The rule set a ``--rules NAME|FILE`` option names (None: the repository's own)."""
    if value is None:
        return None
    path = Path(value)
    if path.is_file():
        return load_ruleset(
            path.read_text(encoding="utf-8"), filename=str(path), base_dir=path.parent
        )
    return load_bundled(value)
