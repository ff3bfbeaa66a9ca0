"""The effective rule set as the dream cycle uses it: frozen values, compiled expressions.

Built by ``ruleset.merge`` from a repository's config and the sets it extends;
nothing here parses YAML. ``ruleset_to_yaml`` (``RuleSet.to_yaml``) prints the merged
result, each rule commented with its file, for ``dreamgit rules show``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from dreamgit.dsl import Expression
from dreamgit.model import Memory
from dreamgit.ruleset.source import Location

__all__ = [
    "Budgets",
    "Limits",
    "OrderKey",
    "Proposals",
    "Protected",
    "Rule",
    "RuleSet",
    "ruleset_to_dict",
    "ruleset_to_yaml",
]


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
    #: Memories an LLM's proposals (remove, supersede) may take out of the active set.
    max_removals_per_run: int


@dataclass(frozen=True)
class Budgets:
    """Caps on the memory store and its index."""

    max_memories: int
    max_per_topic: int
    index_chars: int
    index_line_chars: int
    #: New memory text one session may give, as a share of its characters.
    gather_chars_ratio: float = 0.14
    #: ... but at least this many characters, so a short session can say what it says.
    gather_min_chars: int = 300
    #: Share of new content words a statement needs to take a place in that budget.
    gather_min_novelty: float = 0.32


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
    #: Where the ``rank`` in force was written (for messages about evaluating it).
    rank_location: Location | None = None
    #: Where the ``gate`` in force was written.
    gate_location: Location | None = None

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
        return ruleset_to_dict(self)

    def to_yaml(self) -> str:
        """The effective set as YAML, each rule commented with the file it came from."""
        return ruleset_to_yaml(self)


def _rule(rule: Rule) -> dict[str, Any]:
    out: dict[str, Any] = {"name": rule.name}
    if rule.action is not None:
        out["action"] = rule.action
    out["when"] = rule.when.text
    if rule.score is not None:
        out["score"] = rule.score.text
    if rule.description:
        out["description"] = rule.description
    return out


def ruleset_to_dict(ruleset: RuleSet) -> dict[str, Any]:
    """The effective set as plain data: the keys of a rule file, expressions as text."""
    plain: dict[str, Any] = {"version": ruleset.version}
    if ruleset.disabled:
        plain["disable"] = list(ruleset.disabled)
    return plain | {
        "gate": ruleset.gate_text,
        "limits": vars(ruleset.limits).copy(),
        "budgets": vars(ruleset.budgets).copy(),
        "protected": {
            "topics": list(ruleset.protected.topics),
            "priorities": list(ruleset.protected.priorities),
        },
        "gather": [_rule(r) for r in ruleset.gather],
        "consolidate": [_rule(r) for r in ruleset.consolidate],
        "prune": [_rule(r) for r in ruleset.prune],
        "rank": ruleset.rank.text,
        "index": {
            "order": ", ".join(
                f"{k.field} {'desc' if k.descending else 'asc'}" for k in ruleset.index_order
            )
        },
        "proposals": ruleset.proposals.as_dict(),
    }


def ruleset_to_yaml(ruleset: RuleSet) -> str:
    """The effective set as YAML, with the files it was merged from and rule origins."""
    plain = ruleset_to_dict(ruleset)
    doc = CommentedMap()
    for key, value in plain.items():
        if key in ("gather", "consolidate", "prune"):
            seq = CommentedSeq()
            for rule, item in zip(getattr(ruleset, key), value, strict=True):
                entry = CommentedMap(
                    (k, DoubleQuotedScalarString(v) if k in ("when", "score") else v)
                    for k, v in item.items()
                )
                entry.yaml_add_eol_comment(f"from {rule.location}", "name")
                seq.append(entry)
            doc[key] = seq
        elif key in ("gate", "rank") and value is not None:
            doc[key] = DoubleQuotedScalarString(value)
        else:
            doc[key] = value
    header = "# Effective rules, merged from: " + " <- ".join(ruleset.sources)
    yaml = YAML(typ="rt")
    yaml.width = 4096  # an expression stays on one line
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(doc, out)
    return f"{header}\n{out.getvalue()}"
