"""The ``recall:`` section compiled: how recall weighs, groups and cuts its candidates.

A recall reads only this section of the merged rules (``recall/settings.py`` merges and
compiles the others, promotion's and health's, for the dream). The cached path
(``recall/cached.py``) compiles it alone: one expression instead of every promotion
signal and gate, and without the modules that describe them. The helpers that word a
section's mistakes (a ConfigError naming ``.dreamgit/config.yaml`` and the key path)
live here too, so both modules word them alike.

The bundled weight is not compiled at all: ``recall/plainweight.py`` computes it, and the
expression compiler is imported only for another weight (or should that function fail
on a memory), so a recall with the bundled rules never loads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from dreamgit.errors import ConfigError
from dreamgit.model import Memory
from dreamgit.recall.plainweight import plain_weight
from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.dsl import Expression, Schema

__all__ = [
    "RecallSettings",
    "Weight",
    "compiled_once",
    "compiled_recall",
    "expression_at",
    "number_at",
    "recall_settings",
    "section_error",
    "weight_schema",
]


def weight_schema() -> Schema:
    """What the recall weighting sees: a memory's names plus the query's relevance."""
    from dreamgit.dsl import Schema
    from dreamgit.dsl.types import NUMBER
    from dreamgit.ruleset.context import MEMORY_FIELDS

    return Schema("the recall weight", {**MEMORY_FIELDS, "relevance": NUMBER, "bm25": NUMBER})


class Weight:
    """``recall.weight``: a candidate's score, from its memory, the time, its relevance and
    BM25 score. The bundled text is computed by its plain function; any other is
    compiled (when the rules are read, so a mistake in it is reported then), and so is
    the bundled one when its function fails on a memory, to give the compiler's answer."""

    __slots__ = ("_compiled", "_plain", "text")

    def __init__(self, text: str, where: str) -> None:
        self.text = text
        self._plain = plain_weight(text)
        self._compiled: Expression | None = None
        if self._plain is None:
            self._compiled = _compiled_weight(text, where)

    def __call__(self, memory: Memory, now: datetime, relevance: float, bm25: float) -> float:
        """The weighted score of one candidate."""
        if self._plain is not None:
            try:
                return self._plain(memory, now, relevance, bm25)
            except (ArithmeticError, ValueError):
                pass  # the compiled expression raises its own error, or answers
        if self._compiled is None:
            self._compiled = _compiled_weight(self.text, "recall.weight")
        from dreamgit.recall.weightenv import WeightEnv

        return float(self._compiled.evaluate(WeightEnv(memory, now, relevance, bm25)))


def _compiled_weight(text: str, where: str) -> Expression:
    from dreamgit.dsl.types import NUMBER

    return expression_at(text, where, weight_schema(), NUMBER)


class RecallSettings(NamedTuple):
    """How recall ranks and cuts."""

    weight: Weight
    group_similarity: float
    top_k: int
    record: bool


def recall_settings(section: dict[str, Any]) -> RecallSettings:
    """The ``recall:`` section (merged) compiled; a mistake is a ConfigError."""
    return RecallSettings(
        weight=_weight_at(section.get("weight", "relevance"), "recall.weight"),
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


def _weight_at(text: object, where: str) -> Weight:
    """The weight ``text``, or a ConfigError naming ``where`` as :func:`expression_at`'s."""
    return Weight(_expression_text(text, where), where)


def _expression_text(text: object, where: str) -> str:
    """``text`` as an expression's text (a number is one), or a ConfigError naming ``where``."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise section_error(f"{where}: must be an expression in quotes, not {text!r}")
    return text


def expression_at(text: object, where: str, schema: Schema, want: Any) -> Expression:
    """``text`` compiled for ``schema``, or a ConfigError naming ``where`` with a caret."""
    from dreamgit.dsl import ExpressionError, compile_expression

    text = _expression_text(text, where)
    try:
        return compile_expression(text, schema, want=want)
    except ExpressionError as exc:
        caret = " " * (exc.offset) + "^" * exc.width
        raise section_error(f"{where}: {exc.reason}\n    {text}\n    {caret}") from None
