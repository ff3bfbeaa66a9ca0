"""The effective rule set as the dream cycle uses it: frozen values, compiled expressions.

Built by ``ruleset_merge`` from a repository's config and the sets it extends;
nothing here parses YAML. ``RuleSet.to_yaml`` prints the merged result for
``dreamgit rules show``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from dreamgit.dsl import Expression
from dreamgit.model import Memory
from dreamgit.ruleset_source import Location

__all__ = ["Budgets", "Limits", "OrderKey", "Proposals", "Protected", "Rule", "RuleSet"]


@dataclass(frozen=True)
class Rule:
    """One named rule of a phase; ``action`` is merge or supersede for consolidate rules."""

    name: str
    section: str
    when: Expression
    location: Location
    score: Expression | None = None
    action: str | None = None
    description: str = ""


@dataclass(frozen=True)
class Limits:
    """Caps on what one run may change."""

    max_changes_per_run: int
    max_adds_per_run: int
    max_new_chars_per_run: int


@dataclass(frozen=True)
class Budgets:
    """Caps on the memory store and its index."""

    max_memories: int
    max_per_topic: int
    index_chars: int
    index_line_chars: int


@dataclass(frozen=True)
class Protected:
    """Topics and priorities a dream never removes or merges away."""

    topics: tuple[str, ...]
    priorities: tuple[str, ...]

    def describe(self) -> str:
        """The protection as a condition, for ``rules explain``."""
        return f"topic in {list(self.topics)} or priority in {list(self.priorities)}"


@dataclass(frozen=True)
class Proposals:
    """Minimum confidences an LLM proposal needs, and the highest priority it may set."""

    add_min: float
    merge_min: float
    replace_min: float
    supersession_min: float
    remove_min: float
    max_priority: str
    #: Characters a run may send to and receive from an LLM in all (about 4 per token).
    max_chars_per_run: int

    def as_dict(self) -> dict[str, Any]:
        """The thresholds as a mapping (``Thresholds.from_mapping`` takes it)."""
        return asdict(self)


@dataclass(frozen=True)
class OrderKey:
    """One key of the index order: a memory field (or ``rank``) and its direction."""

    field: str
    descending: bool


@dataclass(frozen=True)
class RuleSet:
    """The effective rules: what every phase of a dream is allowed to do."""

    gate: Expression | None
    limits: Limits
    budgets: Budgets
    protected: Protected
    gather: tuple[Rule, ...]
    consolidate: tuple[Rule, ...]
    prune: tuple[Rule, ...]
    rank: Expression
    index_order: tuple[OrderKey, ...]
    proposals: Proposals
    version: int = 1
    #: Files merged into this set, the root first (``default.yaml``, then ...).
    sources: tuple[str, ...] = ()
    #: Rule names switched off with ``disable:``.
    disabled: tuple[str, ...] = ()

    @property
    def gate_text(self) -> str | None:
        """The gate's expression as written, or None when there is no gate."""
        return None if self.gate is None else self.gate.text

    def is_protected(self, memory: Memory) -> bool:
        """Whether ``memory`` is exempt from pruning and merging."""
        return memory.topic in self.protected.topics or memory.priority in self.protected.priorities

    def rules(self) -> Iterator[Rule]:
        """Every rule, phase by phase."""
        yield from self.gather
        yield from self.consolidate
        yield from self.prune

    def rule(self, name: str) -> Rule | None:
        """The rule called ``name``, or None."""
        return next((r for r in self.rules() if r.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        """The effective set as plain data (expressions as their text)."""
        from dreamgit.ruleset_dump import ruleset_to_dict

        return ruleset_to_dict(self)

    def to_yaml(self) -> str:
        """The effective set as YAML, each rule commented with the file it came from."""
        from dreamgit.ruleset_dump import ruleset_to_yaml

        return ruleset_to_yaml(self)
