"""The rule set a memory repository runs with: its config, extending a bundled set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dreamgit import layout
from dreamgit.ruleset import RuleSet, load_ruleset

if TYPE_CHECKING:
    from dreamgit.repo import MemoryRepo

__all__ = ["repo_ruleset"]


def repo_ruleset(repo: MemoryRepo) -> RuleSet:
    """Load and check the rules of ``.dreamgit/config.yaml`` at the main tip."""
    return load_ruleset(repo.read_text(layout.CONFIG), filename=layout.CONFIG)
