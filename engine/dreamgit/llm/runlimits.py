"""A run's caps on what a model's proposals may change, and what the run has used so far.

Its own module, apart from the proposal contract (``llm/proposals.py``): the dream's
budget (``dream/limits.py``) hands these caps to every run, and a run that asks no model
then loads none of the contract, the asking or the cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["REMOVING_OPS", "RunLimits"]

#: Ops that take a memory (or its wording) away, capped by ``max_removals_per_run``.
REMOVING_OPS = frozenset({"remove", "supersede", "replace"})


@dataclass
class RunLimits:
    """A run's caps and what it has used so far; ``proposals.validate_proposals`` updates it.

    Keep one per run and pass it to every call, so the caps hold across groups.
    Pre-fill ``changes`` and ``touched`` with the run's deterministic operations
    when those count against the same caps.
    """

    max_changes: int = 50
    max_adds: int = 20
    max_new_chars: int = 4000
    max_removals: int = 3
    changes: int = 0
    adds: int = 0
    new_chars: int = 0
    removals: int = 0
    touched: set[str] = field(default_factory=set)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RunLimits:
        """Caps from the rules' ``limits`` section (``max_changes_per_run``, ...)."""
        defaults = cls()
        return cls(
            max_changes=int(values.get("max_changes_per_run", defaults.max_changes)),
            max_adds=int(values.get("max_adds_per_run", defaults.max_adds)),
            max_new_chars=int(values.get("max_new_chars_per_run", defaults.max_new_chars)),
            max_removals=int(values.get("max_removals_per_run", defaults.max_removals)),
        )
