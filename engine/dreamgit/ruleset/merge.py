"""Following ``extends`` and merging rule files into one effective :class:`RuleSet`.

Every file extends another (``default`` unless it says otherwise) except the
bundled ``default.yaml``, the root. Files are applied root first: a key replaces
the inherited one (inside ``limits``, ``budgets``, ``protected``, ``proposals``
and ``index``, key by key), a rule with an inherited name overrides that rule field
by field and keeps its place, a new name is appended, and ``disable`` removes rules
by name. Errors anywhere in the chain are collected, each in its own file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from dreamgit.dsl import Expression
from dreamgit.dsl.diagnostics import did_you_mean
from dreamgit.errors import RuleError
from dreamgit.ruleset.files import RuleFileError, RuleFiles
from dreamgit.ruleset.layer import Layer, RuleSpec, read_layer
from dreamgit.ruleset.model import (
    Budgets,
    Limits,
    OrderKey,
    Proposals,
    Protected,
    Rule,
    RuleSet,
)
from dreamgit.ruleset.source import Location
from dreamgit.ruleset.vocabulary import KNOBS, SECTIONS

__all__ = ["bundled_names", "bundled_text", "merge"]

ROOT = "default"
_MAX_CHAIN = 16


def bundled_names() -> tuple[str, ...]:
    """Names of the rule sets shipped in ``dreamgit.rules``."""
    folder = resources.files("dreamgit.rules")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml")))


def bundled_text(name: str) -> str:
    """The text of a bundled rule set."""
    return (resources.files("dreamgit.rules") / f"{name}.yaml").read_text(encoding="utf-8")


def _bundled_layer(name: str) -> Layer:
    # One parse serves every load; each load gets its own list of errors to add to.
    layer = _read_bundled(name)
    return replace(layer, source=layer.source.copy())


@functools.cache
def _read_bundled(name: str) -> Layer:
    return read_layer(f"{name}.yaml", bundled_text(name))


@dataclass
class _State:
    gate: Expression | None = None
    rank: Expression | None = None
    rank_location: Location | None = None
    gate_location: Location | None = None
    knobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, dict[str, RuleSpec]] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)  # rule name -> section
    disabled: list[str] = field(default_factory=list)


def merge(
    layer: Layer, files: RuleFiles | None, where: str
) -> tuple[RuleSet | None, list[RuleError]]:
    """Resolve the chain above ``layer`` (at ``where`` among ``files``) and merge it.

    Returns the set, or None and the errors. ``files`` None: only bundled sets can
    be extended (the bundled sets themselves).
    """
    chain = _chain(layer, files, where)
    state = _State()
    for item in chain:
        _apply(state, item)
    root = chain[0]
    if root.source.filename == f"{ROOT}.yaml" and not root.source.errors:
        _check_complete(state, root)
    errors: list[RuleError] = []
    for item in reversed(chain):  # the user's own file first
        errors.extend(sorted(item.source.errors, key=lambda e: (e.line or 0, e.column or 0)))
    if errors:
        return None, errors
    return _build(state, chain), []


def _chain(layer: Layer, files: RuleFiles | None, where: str) -> list[Layer]:
    identity = files.identity(where) if files is not None else f"bundled:{where}"
    chain, seen, shown = [layer], [identity], [layer.source.filename]
    current, current_where = layer, where
    while not (seen[-1] == f"bundled:{ROOT}" and current.extends is None):
        target = current.extends or ROOT
        found = _resolve(current, target, files, current_where)
        if found is None:
            break
        parent_id, parent, parent_where = found
        if parent_id in seen or len(seen) >= _MAX_CHAIN:
            again = shown[seen.index(parent_id)] if parent_id in seen else parent.source.filename
            names = " -> ".join([*shown, again])
            current.source.report(f"extends: cycle: {names}", current.extends_pos, len(target))
            break
        chain.insert(0, parent)
        seen.append(parent_id)
        shown.append(parent.source.filename)
        current, current_where = parent, parent_where
    return chain


def _resolve(
    layer: Layer, target: str, files: RuleFiles | None, where: str
) -> tuple[str, Layer, str] | None:
    pos, width = layer.extends_pos, len(target)
    is_path = "/" in target or "\\" in target or target.endswith((".yaml", ".yml"))
    if not is_path:
        names = bundled_names()
        if target in names:
            return f"bundled:{target}", _bundled_layer(target), target
        layer.source.report(
            f"extends: no bundled rule set named '{target}'{did_you_mean(target, names)}",
            pos,
            width,
            hint=f"bundled sets: {', '.join(names)}; or give a path such as ./team.yaml",
        )
        return None
    if files is None:  # pragma: no cover - the bundled sets extend only bundled sets
        layer.source.report("extends: a bundled rule set extends only bundled sets", pos, width)
        return None
    try:
        found = files.find(target, where)
    except RuleFileError as exc:
        layer.source.report(f"extends: {exc}", pos, width)
        return None
    return found.identity, read_layer(found.name, found.text), found.where


def _apply(state: _State, layer: Layer) -> None:
    if layer.gate is not None:
        state.gate = layer.gate[0]
        state.gate_location = layer.source.location(*layer.gate_pos)
    if layer.rank is not None:
        state.rank = layer.rank
        state.rank_location = layer.source.location(*layer.rank_pos)
    for section, values in layer.knobs.items():
        state.knobs.setdefault(section, {}).update(values)
    seen: dict[str, RuleSpec] = {}
    for section in SECTIONS:
        for spec in layer.rules.get(section, []):
            _apply_rule(state, layer, spec, seen)
    for name, pos in layer.disable:
        if name not in state.owner:
            known = [n for rules in state.rules.values() for n in rules]
            layer.source.report(
                f"disable: no rule named '{name}'{did_you_mean(name, known)}", pos, len(name)
            )
            continue
        del state.rules[state.owner.pop(name)][name]
        state.disabled.append(name)


def _apply_rule(state: _State, layer: Layer, spec: RuleSpec, seen: dict[str, RuleSpec]) -> None:
    at = (spec.location.line - 1, spec.location.column - 1)
    label = f"{spec.section}[{spec.name}]"
    if spec.name in seen:
        first = seen[spec.name].location.line
        layer.source.report(
            f"{label}: duplicate rule name '{spec.name}' (first at line {first})", at
        )
        return
    seen[spec.name] = spec
    owner = state.owner.get(spec.name)
    rules = state.rules.setdefault(spec.section, {})
    if owner is not None and owner != spec.section:
        layer.source.report(
            f"{label}: '{spec.name}' is already a {owner} rule; give this rule another name", at
        )
        return
    if owner is None:
        if spec.when is None and not spec.broken:
            layer.source.report(f"{label}: a rule needs 'when' (its condition)", at)
            return
        if spec.section == "consolidate" and spec.action is None and not spec.broken:
            layer.source.report(
                f"{label}: a consolidate rule needs 'action: merge' or 'action: supersede'", at
            )
            return
        rules[spec.name] = spec
        state.owner[spec.name] = spec.section
        return
    base = rules[spec.name]
    rules[spec.name] = replace(
        base,
        when=spec.when if spec.when is not None else base.when,
        score=spec.score if "score" in spec.given else base.score,
        action=spec.action or base.action,
        description=spec.description if spec.description is not None else base.description,
        location=spec.location,
        broken=base.broken or spec.broken,
    )


def _check_complete(state: _State, root: Layer) -> None:
    for key in ("gate", "rank", *KNOBS):
        if key not in root.present:
            root.source.report(f"the root rule set must set '{key}'", (0, 0))
    for section, spec in KNOBS.items():
        for key in spec:
            if key in root.present and key not in state.knobs.get(section, {}):
                root.source.report(f"{section}: the root rule set must set '{key}'", (0, 0))


def _build(state: _State, chain: list[Layer]) -> RuleSet:
    knobs = state.knobs
    assert state.rank is not None  # the root sets it, _check_complete says so
    protected = knobs["protected"]
    return RuleSet(
        gate=state.gate,
        limits=Limits(**knobs["limits"]),
        budgets=Budgets(**knobs["budgets"]),
        protected=Protected(tuple(protected["topics"]), tuple(protected["priorities"])),
        gather=_rules(state, "gather"),
        consolidate=_rules(state, "consolidate"),
        prune=_rules(state, "prune"),
        rank=state.rank,
        index_order=tuple(OrderKey(f, d) for f, d in knobs["index"]["order"]),
        proposals=Proposals(**knobs["proposals"]),
        sources=tuple(layer.source.filename for layer in chain),
        disabled=tuple(state.disabled),
        rank_location=state.rank_location,
        gate_location=state.gate_location,
    )


def _rules(state: _State, section: str) -> tuple[Rule, ...]:
    out = []
    for spec in state.rules.get(section, {}).values():
        assert spec.when is not None  # an error otherwise, and no set is built
        out.append(
            Rule(
                name=spec.name,
                section=section,
                when=spec.when,
                location=spec.location,
                score=spec.score,
                action=spec.action,
                description=spec.description or "",
            )
        )
    return tuple(out)
