"""The ``recall:`` section compiled: how recall weighs, groups and cuts its candidates.

A recall reads only this section of the merged rules (``recall/settings.py`` merges and
compiles the others, promotion's and health's, for the dream). The cached path
(``recall/cached.py``) compiles it alone: one expression instead of every promotion
signal and gate, and without the modules that describe them. The helpers that word a
section's mistakes (a ConfigError naming ``.dreamgit/config.yaml`` and the key path)
live here too, so both modules word them alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from dreamgit.dsl import Expression, ExpressionError, Schema, compile_expression
from dreamgit.dsl.types import NUMBER
from dreamgit.errors import ConfigError
from dreamgit.ruleset.context import MEMORY_FIELDS
from dreamgit.store import layout

__all__ = [
    "WEIGHT_SCHEMA",
    "RecallSettings",
    "compiled_once",
    "compiled_recall",
    "expression_at",
    "number_at",
    "recall_settings",
    "section_error",
]

#: What the recall weighting sees: a memory's names plus the query's relevance.
WEIGHT_SCHEMA = Schema(
    "the recall weight",
    {**MEMORY_FIELDS, "relevance": NUMBER, "bm25": NUMBER},
)


@dataclass(frozen=True)
class RecallSettings:
    """How recall ranks and cuts."""

    weight: Expression
    group_similarity: float
    top_k: int
    record: bool


def recall_settings(section: dict[str, Any]) -> RecallSettings:
    """The ``recall:`` section (merged) compiled; a mistake is a ConfigError."""
    return RecallSettings(
        weight=expression_at(
            section.get("weight", "relevance"), "recall.weight", WEIGHT_SCHEMA, NUMBER
        ),
        group_similarity=number_at(section.get("group_similarity", 0.8), "recall.group_similarity"),
        top_k=int(number_at(section.get("top_k", 8), "recall.top_k")),
        record=bool(section.get("record", True)),
    )


_COMPILED: dict[str, RecallSettings] = {}
#: Distinct documents (configs, merged sections, ``recall:`` sections) a process keeps
#: compiled in each cache.
KEEP = 16
_Built = TypeVar("_Built")


def compiled_once(
    cache: dict[str, _Built], doc: dict[str, Any], build: Callable[[dict[str, Any]], _Built]
) -> _Built:
    """``build(doc)``, kept in ``cache`` by the document's content; the oldest of more than
    :data:`KEEP` is forgotten."""
    key = json.dumps(doc, sort_keys=True, default=str)
    found = cache.get(key)
    if found is None:
        found = cache[key] = build(doc)
        if len(cache) > KEEP:
            cache.pop(next(iter(cache)))
    return found


def compiled_recall(sections: dict[str, Any]) -> RecallSettings:
    """The recall settings of merged sections (``merged_sections``' output), compiled
    once per distinct ``recall:`` section in a process."""
    return compiled_once(_COMPILED, sections.get("recall", {}), recall_settings)


def section_error(message: str) -> ConfigError:
    """A mistake in the config's recall, promotion or health section."""
    return ConfigError(
        f"{layout.CONFIG}: {message}",
        hint="the defaults are the recall:, promotion: and health: sections of the bundled "
        "rules/default.yaml",
    )


def number_at(value: object, where: str) -> float:
    """``value`` as a number, or a ConfigError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise section_error(f"{where}: must be a number, not {value!r}")
    return float(value)


def expression_at(text: object, where: str, schema: Schema, want: Any) -> Expression:
    """``text`` compiled for ``schema``, or a ConfigError naming ``where`` with a caret."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise section_error(f"{where}: must be an expression in quotes, not {text!r}")
    try:
        return compile_expression(text, schema, want=want)
    except ExpressionError as exc:
        caret = " " * (exc.offset) + "^" * exc.width
        raise section_error(f"{where}: {exc.reason}\n    {text}\n    {caret}") from None
