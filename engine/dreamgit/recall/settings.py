"""The ``recall:``, ``promotion:`` and ``health:`` sections of a rule set, merged and compiled.

They sit in the bundled ``rules/default.yaml`` (and ``rules/promotion.yaml``)
beside the other rules, and a repository's ``.dreamgit/config.yaml`` changes any
single key of them: the sections are merged key by key along the ``extends``
chain, config last. Every expression is compiled against its schema when read;
a mistake is a ConfigError naming the file and the key path. The ``recall:``
section alone is compiled by :mod:`dreamgit.recall.weighting`, which a cached recall
imports without this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dreamgit.dsl import Expression, Schema
from dreamgit.dsl.types import BOOL, NUMBER
from dreamgit.model import PRIORITIES
from dreamgit.packagefiles import package_files
from dreamgit.recall.weighting import (
    RecallSettings,
    compiled_once,
    expression_at,
    number_at,
    recall_settings,
    section_error,
)
from dreamgit.ruleset.context import MEMORY_FIELDS

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = [
    "PromotionSettings",
    "RecallSettings",
    "Settings",
    "compiled_sections",
    "load_settings",
    "merged_sections",
    "settings_from",
]

#: What a promotion signal sees: a memory's names (``recall.*`` among them).
SIGNAL_SCHEMA = Schema("a promotion signal", dict(MEMORY_FIELDS))
#: What a promotion gate sees: the memory's names and the weighted ``score``.
GATE_SCHEMA = Schema("a promotion gate", {**MEMORY_FIELDS, "score": NUMBER})


@dataclass(frozen=True)
class Signal:
    """One weighted promotion signal."""

    name: str
    weight: float
    value: Expression


@dataclass(frozen=True)
class Gate:
    """One promotion gate: a condition every promoted memory must meet."""

    name: str
    when: Expression


@dataclass(frozen=True)
class PromotionSettings:
    """OpenClaw's deep phase as rules: candidates, weighted signals, gates, the result."""

    candidates: Expression
    signals: tuple[Signal, ...]
    gates: tuple[Gate, ...]
    promote_to: str
    limit: int
    #: Whether MEMORY.md lists candidates before they are promoted.
    index_staged: bool = False
    #: A higher priority for candidates carrying a tag (``promote_tagged``: a lesson the
    #: reflect phase proposed becomes ``high``), as (tag, priority) pairs.
    tagged: tuple[tuple[str, str], ...] = ()

    def target(self, tags: tuple[str, ...]) -> str:
        """The priority a candidate with ``tags`` is promoted to: the highest that applies."""
        found = [p for tag, p in self.tagged if tag in tags] + [self.promote_to]
        return max(found, key=PRIORITIES.index)


@dataclass(frozen=True)
class Settings:
    """The recall and promotion settings of one repository."""

    recall: RecallSettings
    promotion: PromotionSettings
    #: Whether prune rules may read recall signals (recalls are recorded here, or the
    #: config says so with ``recall: {tracked: true}``).
    tracked_setting: bool | None
    #: Below this health a dream re-reads older sessions (``health.recover_below``) …
    recover_below: float = 0.5
    #: … at most this many per run (``health.recover_sessions``).
    recover_sessions: int = 3
    #: The merged ``reflect:`` section as written; :mod:`dreamgit.dream.reflect.settings`
    #: compiles it.
    reflect: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def _bundled(name: str) -> dict[str, Any] | None:
    resource = package_files("dreamgit.rules") / f"{name}.yaml"
    if not resource.is_file():
        return None
    from dreamgit.store.config import read_config  # ruamel: not for a cached recall

    return read_config(resource.read_text(encoding="utf-8"))


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load_settings(repo: MemoryRepo) -> Settings:
    """The merged recall and promotion settings of ``repo``."""
    return settings_from(repo.config())


_MERGED: dict[str, dict[str, Any]] = {}
_COMPILED: dict[str, Settings] = {}


def settings_from(config: dict[str, Any]) -> Settings:
    """Settings from a parsed config (its ``extends`` chain of bundled sets first);
    compiled once per distinct config in a process."""
    return compiled_sections(merged_sections(config))


def merged_sections(config: dict[str, Any]) -> dict[str, Any]:
    """The ``recall:``, ``promotion:``, ``health:`` and ``reflect:`` sections of a parsed
    config merged over its bundled sets: plain data, all that :func:`compiled_sections`
    reads (kept per commit by ``recall.views``, so a later process reads no YAML)."""
    return compiled_once(_MERGED, config, _merged)


def compiled_sections(doc: dict[str, Any]) -> Settings:
    """Settings from merged sections; compiled once per distinct sections in a process."""
    return compiled_once(_COMPILED, doc, _compile)


def _merged(config: dict[str, Any]) -> dict[str, Any]:
    chain = [config]
    seen: set[str] = set()
    name = config.get("extends", "default") if config else "default"
    while isinstance(name, str) and name not in seen:
        seen.add(name)
        doc = _bundled(name)
        if doc is None:
            break  # a rule file by path: its recall sections are not read, defaults apply
        chain.append(doc)
        name = doc.get("extends")
    if "default" not in seen and (doc := _bundled("default")) is not None:
        chain.append(doc)
    merged: dict[str, Any] = {}
    for layer in reversed(chain):
        for section in ("recall", "promotion", "health", "reflect"):
            if isinstance(layer.get(section), dict):
                merged[section] = _merge(merged.get(section, {}), layer[section])
    return merged


def _compile(doc: dict[str, Any]) -> Settings:
    rec = doc.get("recall", {})
    pro = doc.get("promotion", {})
    recall = recall_settings(rec)
    signals = []
    for name, spec in (pro.get("signals") or {}).items():
        where = f"promotion.signals.{name}"
        if not isinstance(spec, dict):
            raise section_error(f"{where}: must be a mapping with weight and value")
        weight = max(0.0, number_at(spec.get("weight", 0), f"{where}.weight"))
        value = expression_at(spec.get("value", "0"), f"{where}.value", SIGNAL_SCHEMA, NUMBER)
        signals.append(Signal(str(name), weight, value))
    gates = tuple(
        Gate(str(name), expression_at(text, f"promotion.gates.{name}", GATE_SCHEMA, BOOL))
        for name, text in (pro.get("gates") or {}).items()
    )
    promote_to = str(pro.get("promote_to", "normal"))
    if promote_to not in PRIORITIES:
        raise section_error(
            f"promotion.promote_to: {promote_to!r} is not one of {', '.join(PRIORITIES)}"
        )
    tagged = pro.get("promote_tagged") or {}
    if not isinstance(tagged, dict):
        raise section_error("promotion.promote_tagged: must be a mapping of tag to priority")
    for tag, priority in tagged.items():
        if priority not in PRIORITIES:
            raise section_error(
                f"promotion.promote_tagged.{tag}: {priority!r} is not one of "
                f"{', '.join(PRIORITIES)}"
            )
    promotion = PromotionSettings(
        candidates=expression_at(
            pro.get("candidates", "priority <= low"), "promotion.candidates", SIGNAL_SCHEMA, BOOL
        ),
        signals=tuple(signals),
        gates=gates,
        promote_to=promote_to,
        limit=int(number_at(pro.get("limit", 10), "promotion.limit")),
        index_staged=bool(pro.get("index_staged", False)),
        tagged=tuple((str(t), str(p)) for t, p in tagged.items()),
    )
    tracked = rec.get("tracked")
    health = doc.get("health", {})
    return Settings(
        recall,
        promotion,
        tracked if isinstance(tracked, bool) else None,
        recover_below=number_at(health.get("recover_below", 0.5), "health.recover_below"),
        recover_sessions=int(
            number_at(health.get("recover_sessions", 3), "health.recover_sessions")
        ),
        reflect=doc.get("reflect", {}),
    )
