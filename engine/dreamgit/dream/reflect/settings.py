"""The ``reflect:`` section of a rule set, checked and compiled.

The section is merged along the ``extends`` chain with the recall and promotion
sections (:mod:`dreamgit.recall.settings`); this module checks each knob and compiles
the gate. A mistake is a ConfigError naming the key path and what it takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamgit.dsl import Expression, ExpressionError, Schema, compile_expression
from dreamgit.dsl.types import BOOL, NUMBER
from dreamgit.errors import ConfigError
from dreamgit.store import layout

__all__ = ["GATE_FIELDS", "ReflectSettings", "reflect_settings"]

#: What the reflect gate sees: figures of the window it reads.
GATE_FIELDS = ("days", "sessions", "memories")
_GATE_SCHEMA = Schema("the reflect gate", dict.fromkeys(GATE_FIELDS, NUMBER))

#: Each knob: its section, name, default and smallest allowed value.
_KNOBS: dict[str, dict[str, tuple[float, float]]] = {
    "": {"window_days": (30, 1)},
    "themes": {
        "min_days": (3, 1),
        "min_sessions": (2, 1),
        "min_memories": (2, 1),
        "max_share": (0.2, 0),
    },
    "lasting_truths": {"min_days": (3, 1), "min_sessions": (2, 1)},
    "lessons": {"min_days": (3, 1), "min_sessions": (2, 1)},
    "budget": {"max_themes": (3, 0), "max_lasting_truths": (5, 0), "max_lessons": (3, 0)},
    "llm": {"max_insights": (0, 0)},
}


@dataclass(frozen=True)
class ReflectSettings:
    """Thresholds, budget and gate of the reflect phase."""

    enabled: bool
    gate: Expression
    window_days: int
    theme_days: int
    theme_sessions: int
    theme_memories: int
    #: A concept in more than this share of the window's memories is background, not a theme.
    theme_max_share: float
    truth_days: int
    truth_sessions: int
    lesson_days: int
    lesson_sessions: int
    max_themes: int
    max_truths: int
    max_lessons: int
    #: With an LLM configured: at most this many of the model's lessons are judged a run
    #: (0, the default: the model is not asked to reflect, which costs nothing).
    max_insights: int = 0


def _error(message: str) -> ConfigError:
    return ConfigError(
        f"{layout.CONFIG}: {message}",
        hint="the defaults are the reflect: section of the bundled rules/default.yaml",
    )


def _section(doc: dict[str, Any], name: str) -> dict[str, Any]:
    if not name:
        return doc
    value = doc.get(name) or {}
    if not isinstance(value, dict):
        raise _error(f"reflect.{name}: must be a mapping, not {value!r}")
    return value


def _numbers(doc: dict[str, Any]) -> dict[str, float]:
    known = {k for k in _KNOBS if k} | set(_KNOBS[""]) | {"enabled", "gate"}
    for key in doc:
        if key not in known:
            raise _error(f"reflect: unknown key '{key}' (known: {', '.join(sorted(known))})")
    out: dict[str, float] = {}
    for section, knobs in _KNOBS.items():
        values = _section(doc, section)
        for key in values:
            if section and key not in knobs:
                raise _error(f"reflect.{section}: unknown key '{key}' (known: {', '.join(knobs)})")
        for key, (default, least) in knobs.items():
            where = f"reflect.{section}.{key}" if section else f"reflect.{key}"
            value = values.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < least:
                raise _error(f"{where}: must be a number of at least {least:g}, not {value!r}")
            out[where] = float(value)
    return out


def reflect_settings(doc: dict[str, Any]) -> ReflectSettings:
    """The reflect settings from the merged ``reflect:`` section (empty: the defaults)."""
    if not isinstance(doc, dict):
        raise _error(f"reflect: must be a mapping, not {doc!r}")
    n = _numbers(doc)
    gate_text = doc.get("gate", "days >= 3")
    if not isinstance(gate_text, str):
        raise _error(f"reflect.gate: must be an expression in quotes, not {gate_text!r}")
    try:
        gate = compile_expression(gate_text, _GATE_SCHEMA, want=BOOL)
    except ExpressionError as exc:
        caret = " " * exc.offset + "^" * exc.width
        raise _error(f"reflect.gate: {exc.reason}\n    {gate_text}\n    {caret}") from None
    return ReflectSettings(
        enabled=bool(doc.get("enabled", True)),
        gate=gate,
        window_days=int(n["reflect.window_days"]),
        theme_days=int(n["reflect.themes.min_days"]),
        theme_sessions=int(n["reflect.themes.min_sessions"]),
        theme_memories=int(n["reflect.themes.min_memories"]),
        theme_max_share=n["reflect.themes.max_share"],
        truth_days=int(n["reflect.lasting_truths.min_days"]),
        truth_sessions=int(n["reflect.lasting_truths.min_sessions"]),
        lesson_days=int(n["reflect.lessons.min_days"]),
        lesson_sessions=int(n["reflect.lessons.min_sessions"]),
        max_themes=int(n["reflect.budget.max_themes"]),
        max_truths=int(n["reflect.budget.max_lasting_truths"]),
        max_lessons=int(n["reflect.budget.max_lessons"]),
        max_insights=int(n["reflect.llm.max_insights"]),
    )
