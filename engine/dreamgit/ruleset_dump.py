"""Writing an effective rule set back out: as plain data (``--json``) and as YAML.

``dreamgit rules show`` prints the YAML: the same shape a rule file has, with every
inherited rule and knob filled in and each rule commented with where it was
written, so a user sees exactly what a dream will run.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

if TYPE_CHECKING:
    from dreamgit.ruleset_model import Rule, RuleSet

__all__ = ["ruleset_to_dict", "ruleset_to_yaml"]


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
