"""``rules explain``: every rule of a set applied to one memory, with the names it read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from dreamgit.dsl import Expression, ExpressionError
from dreamgit.model import Memory
from dreamgit.ruleset.context import CANDIDATE_DEFAULTS, memory_env
from dreamgit.ruleset.model import RuleSet

__all__ = ["RuleExplanation", "explain"]


@dataclass(frozen=True)
class RuleExplanation:
    """One rule (or the rank score) applied to one memory, for ``rules explain``."""

    section: str
    rule: str
    expression: str
    result: object
    values: dict[str, object] = field(default_factory=dict)
    note: str = ""


def explain(
    ruleset: RuleSet, memory: Memory, now: datetime, *, others: Sequence[Memory] = ()
) -> list[RuleExplanation]:
    """Every rule of ``ruleset`` applied to ``memory``: the names it read and the result.

    Consolidate rules need a second memory: each is tried with ``memory`` as ``a``
    against ``others`` (in order) and the first match is shown.
    """
    env = memory_env(memory, now)
    protected = ruleset.is_protected(memory)
    out = [
        RuleExplanation(
            "protected",
            "protected",
            ruleset.protected.describe(),
            protected,
            {"topic": memory.topic, "priority": env["priority"]},
        )
    ]
    statement = {**env, **CANDIDATE_DEFAULTS}
    for rule in ruleset.gather:
        out.append(_traced("gather", rule.name, rule.when, statement))
    for rule in ruleset.consolidate:
        out.append(_pair(rule.name, rule.when, env, memory, others, now))
    for rule in ruleset.prune:
        item = _traced("prune", rule.name, rule.when, env)
        if protected and item.result is True:
            item = RuleExplanation(**{**item.__dict__, "note": "protected: never pruned"})
        out.append(item)
    out.append(_traced("rank", "rank", ruleset.rank, env))
    return out


def _traced(section: str, name: str, expr: Expression, env: dict[str, object]) -> RuleExplanation:
    try:
        trace = expr.trace(env)
    except ExpressionError as exc:
        return RuleExplanation(section, name, expr.text, None, note=f"error: {exc.reason}")
    return RuleExplanation(section, name, expr.text, trace.result, trace.values)


def _pair(
    name: str,
    expr: Expression,
    env: dict[str, object],
    memory: Memory,
    others: Sequence[Memory],
    now: datetime,
) -> RuleExplanation:
    compared = [o for o in others if o.id != memory.id]
    if not compared:
        return RuleExplanation(
            "consolidate", name, expr.text, None, note="compares two memories; none to pair with"
        )
    for other in compared:
        item = _traced("consolidate", name, expr, {"a": env, "b": memory_env(other, now)})
        if item.result is True:
            return RuleExplanation(**{**item.__dict__, "note": f"matches b = {other.id}"})
    return RuleExplanation(
        "consolidate",
        name,
        expr.text,
        False,
        note=f"no match among {len(compared)} other memories",
    )
