"""Reading one rule file into a checked :class:`Layer`, collecting every error in it.

A layer is what one file says: the keys it sets, its rules (possibly partial, as
overrides of rules it inherits) and its compiled expressions. Every mistake is
recorded in the file's :class:`Source` with its line and column and reading
goes on, so ``rules check`` can list them all at once. What a file may say (its
keys, sections and knobs) is ``ruleset.vocabulary``; merging layers happens in
``ruleset.merge``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from dreamgit.dsl import Expression, ExpressionError, Schema, compile_expression
from dreamgit.dsl.diagnostics import did_you_mean
from dreamgit.dsl.types import BOOL, NUMBER
from dreamgit.errors import MemoryFileError
from dreamgit.model import PRIORITIES
from dreamgit.ruleset.context import CANDIDATE_SCHEMA, GATE_SCHEMA, MEMORY_SCHEMA, PAIR_SCHEMA
from dreamgit.ruleset.positions import key_at, value_at
from dreamgit.ruleset.source import Location, Source
from dreamgit.ruleset.vocabulary import (
    ACTIONS,
    EXTRACT_MODES,
    HOOK_MODES,
    KNOBS,
    LANGUAGE_CODE,
    MAPPING_SECTIONS,
    ORDER_FIELDS,
    RULE_KEYS,
    SECTIONS,
    TEST_GATES,
    TOP_KEYS,
)
from dreamgit.ruleset.yamlcache import load_rules_yaml
from dreamgit.store import frontmatter
from dreamgit.store.config import identity_problem

__all__ = ["Layer", "RuleSpec", "read_layer"]

#: Rule lists, in the order a dream applies them.
_SECTION_SCHEMAS = {"gather": CANDIDATE_SCHEMA, "consolidate": PAIR_SCHEMA, "prune": MEMORY_SCHEMA}
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_TOPIC = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")


@dataclass
class RuleSpec:
    """One rule as a file writes it; fields it does not give are None (an override)."""

    section: str
    name: str
    location: Location
    when: Expression | None = None
    score: Expression | None = None
    action: str | None = None
    description: str | None = None
    given: frozenset[str] = frozenset()
    #: A field was given but wrong; "missing when" would only repeat that error.
    broken: bool = False


@dataclass
class Layer:
    """What one rule file sets."""

    source: Source
    extends: str | None = None
    extends_pos: tuple[int, int] = (0, 0)
    disable: list[tuple[str, tuple[int, int]]] = field(default_factory=list)
    gate: tuple[Expression | None] | None = None  # (None,) is an explicit "no gate"
    rank: Expression | None = None
    rank_pos: tuple[int, int] = (0, 0)
    gate_pos: tuple[int, int] = (0, 0)
    knobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, list[RuleSpec]] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)


def read_layer(filename: str, text: str) -> Layer:
    """Parse and check one rule file; errors are in ``layer.source.errors``."""
    layer = Layer(Source(filename, text))
    doc = _load_yaml(layer.source)
    if doc is None:
        return layer
    if not isinstance(doc, CommentedMap):
        layer.source.report(f"a rule set is a mapping of keys, not {_kind(doc)}", (0, 0))
        return layer
    _Reader(layer).read(doc)
    return layer


def _load_yaml(source: Source) -> Any:
    try:
        source.text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: a string, not text from a file
        before = source.text[: exc.start]
        at = (before.count("\n"), exc.start - (before.rfind("\n") + 1))
        bad = f"U+{ord(source.text[exc.start]):04X}"
        source.report(f"character {bad} is not valid Unicode text", at, hint="delete it")
        return None
    try:
        frontmatter.check_no_aliases(source.text, path=source.filename, line_offset=0)
    except MemoryFileError as exc:
        source.report(exc.reason, (exc.line or 0, 0), hint=exc.hint)
        return None
    try:
        return load_rules_yaml(source.text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if mark is not None and mark.line >= len(source.lines) and exc.context_mark is not None:
            mark = exc.context_mark  # the end of the file: point where the open thing began
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        problem = str(exc.problem or "invalid YAML")
        duplicate = re.match(r'found duplicate key "([^"]*)"', problem)
        if duplicate and exc.context_mark is not None:
            first = exc.context_mark.line + 1
            message = f"duplicate key '{duplicate.group(1)}' (the mapping starts at line {first})"
        elif exc.context:
            message = f"invalid YAML: {exc.context}, {problem}"
        else:
            message = f"invalid YAML: {problem}"
        source.report(message, (line, col))
    except Exception as exc:  # ruamel raises plain errors for some inputs
        source.report(f"invalid YAML: {exc}", (0, 0))
    return None


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "an empty value"
    return "a date" if hasattr(value, "year") else type(value).__name__


class _Reader:
    """Walks one YAML document and fills a :class:`Layer`."""

    def __init__(self, layer: Layer) -> None:
        self.layer = layer
        self.src = layer.source

    def read(self, doc: CommentedMap) -> None:
        for key in doc:
            line, col = key_at(doc, key)
            if not isinstance(key, str) or key not in TOP_KEYS:
                self.src.report(
                    f"unknown key '{key}'{did_you_mean(str(key), TOP_KEYS)}",
                    (line, col),
                    len(str(key)),
                )
                continue
            self.layer.present.add(key)
            value, pos = doc[key], value_at(doc, key)
            if key == "version":
                self._version(value, pos)
            elif key == "extends":
                self._extends(value, pos)
            elif key == "disable":
                self._disable(value, pos)
            elif key == "gate":
                self.layer.gate = (
                    self._expr(value, pos, "gate", GATE_SCHEMA, BOOL, allow_none=True),
                )
                self.layer.gate_pos = pos
            elif key == "rank":
                self.layer.rank = self._expr(value, pos, "rank", MEMORY_SCHEMA, NUMBER)
                self.layer.rank_pos = pos
            elif key in KNOBS:
                self._knobs(key, value, pos)
            elif key in SECTIONS:
                self._rules(key, value, pos)
            elif key == "author":
                self._author(value, pos)
            elif key == "tests":
                self._tests(value, pos)
            elif key == "hooks" and value not in HOOK_MODES:
                shown = ", ".join(HOOK_MODES)
                self.src.report(f"hooks: must be one of {shown}, not {value!r}", pos)
            elif key == "extract" and value not in EXTRACT_MODES:
                shown = ", ".join(EXTRACT_MODES)
                self.src.report(f"extract: must be one of {shown}, not {value!r}", pos)
            elif key == "language" and not (
                isinstance(value, str) and re.fullmatch(LANGUAGE_CODE, value)
            ):
                self.src.report(
                    f"language: must be a language code in lower case such as de or pt,"
                    f" not {value!r}",
                    pos,
                )
            elif key in MAPPING_SECTIONS and not isinstance(value, dict | None):
                # recall:, promotion:, health: and reflect: are read and checked by
                # recall/settings.py (reflect's knobs by dream/reflect/settings.py).
                self.src.report(f"{key}: must be a mapping, not {_kind(value)}", pos)

    def _tests(self, value: object, pos: tuple[int, int]) -> None:
        """``tests: {gate: block | advisory | off}``, read by report/gate.py."""
        if value is None:
            return
        if not isinstance(value, CommentedMap):
            self.src.report(f"tests: must be a mapping, not {_kind(value)}", pos)
            return
        for key in value:
            line, col = key_at(value, key)
            if key != "gate":
                self.src.report(f"tests: unknown key '{key}' (only gate:)", (line, col))
            elif value[key] not in TEST_GATES:
                self.src.report(
                    f"tests.gate: must be one of {', '.join(TEST_GATES)}, not {value[key]!r}",
                    value_at(value, key),
                )

    # -- scalars -------------------------------------------------------------------

    def _version(self, value: object, pos: tuple[int, int]) -> None:
        if value != 1 or isinstance(value, bool):
            self.src.report(
                f"version: this dreamgit reads rule sets of version 1, not {value!r}", pos
            )

    def _extends(self, value: object, pos: tuple[int, int]) -> None:
        if not isinstance(value, str) or not value.strip():
            self.src.report(
                f"extends: must name a bundled rule set or a file, not {_kind(value)}", pos
            )
            return
        self.layer.extends, self.layer.extends_pos = value.strip(), pos

    def _disable(self, value: object, pos: tuple[int, int]) -> None:
        if not isinstance(value, CommentedSeq):
            self.src.report(f"disable: must be a list of rule names, not {_kind(value)}", pos)
            return
        for i, item in enumerate(value):
            item_pos = value.lc.item(i)
            if not isinstance(item, str):
                self.src.report(f"disable: a rule name is a string, not {_kind(item)}", item_pos)
                continue
            self.layer.disable.append((item, item_pos))

    def _author(self, value: object, pos: tuple[int, int]) -> None:
        if not isinstance(value, CommentedMap):
            self.src.report(
                f"author: must be a mapping with name and email, not {_kind(value)}", pos
            )
            return
        for key in value:
            line, col = key_at(value, key)
            if key not in ("name", "email"):
                hint = did_you_mean(str(key), ("name", "email"))
                self.src.report(f"author: unknown key '{key}'{hint}", (line, col), len(str(key)))
            elif not isinstance(value[key], str):
                self.src.report(
                    f"author.{key}: must be a string, not {_kind(value[key])}", value_at(value, key)
                )
            elif (problem := identity_problem(key, value[key])) is not None:
                self.src.report(problem, value_at(value, key))

    def _expr(
        self,
        value: object,
        pos: tuple[int, int],
        where: str,
        schema: Schema,
        want: Any,
        *,
        allow_none: bool = False,
    ) -> Expression | None:
        if value is None and allow_none:
            return None
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int | float):
            value = str(value)
        if not isinstance(value, str):
            self.src.report(f"{where}: must be an expression in quotes, not {_kind(value)}", pos)
            return None
        try:
            return compile_expression(value, schema, want=want)
        except ExpressionError as exc:
            self.src.report_in_value(where, exc, pos)
            return None

    # -- mapping sections ----------------------------------------------------------

    def _knobs(self, section: str, value: object, pos: tuple[int, int]) -> None:
        if not isinstance(value, CommentedMap):
            self.src.report(f"{section}: must be a mapping, not {_kind(value)}", pos)
            return
        spec = KNOBS[section]
        out = self.layer.knobs.setdefault(section, {})
        for key in value:
            line, col = key_at(value, key)
            if key not in spec:
                self.src.report(
                    f"{section}: unknown key '{key}'{did_you_mean(str(key), spec)}",
                    (line, col),
                    len(str(key)),
                )
                continue
            checked = self._knob(f"{section}.{key}", spec[key], value[key], value_at(value, key))
            if checked is not None:
                out[key] = checked

    def _knob(self, where: str, kind: str, value: Any, pos: tuple[int, int]) -> Any:
        if kind in ("count", "positive"):
            low = 0 if kind == "count" else 1
            if isinstance(value, bool) or not isinstance(value, int):
                self.src.report(f"{where}: must be a whole number, not {_kind(value)}", pos)
                return None
            if value < low:
                self.src.report(f"{where}: must be {low} or more, not {value}", pos)
                return None
            return int(value)
        if kind == "fraction":
            if isinstance(value, bool) or not isinstance(value, int | float):
                self.src.report(f"{where}: must be a number from 0 to 1, not {_kind(value)}", pos)
                return None
            if not 0 <= value <= 1:
                self.src.report(f"{where}: must be from 0 to 1, not {value}", pos)
                return None
            return float(value)
        if kind == "priority":
            return self._priority(where, value, pos)
        if kind in ("topics", "priorities"):
            return self._names(where, kind, value, pos)
        return self._order(where, value, pos)

    def _priority(self, where: str, value: Any, pos: tuple[int, int]) -> str | None:
        if value not in PRIORITIES:
            shown = value if isinstance(value, str) else _kind(value)
            self.src.report(
                f"{where}: unknown priority '{shown}'{did_you_mean(str(value), PRIORITIES)}",
                pos,
                len(str(value)),
                hint=f"priorities are {', '.join(PRIORITIES)}",
            )
            return None
        return str(value)

    def _names(
        self, where: str, kind: str, value: Any, pos: tuple[int, int]
    ) -> tuple[str, ...] | None:
        if not isinstance(value, CommentedSeq):
            self.src.report(f"{where}: must be a list, not {_kind(value)}", pos)
            return None
        out: list[str] = []
        for i, item in enumerate(value):
            item_pos = value.lc.item(i)
            if kind == "priorities":
                name = self._priority(where, item, item_pos)
                if name is not None:
                    out.append(name)
            elif not isinstance(item, str) or not _TOPIC.match(item):
                self.src.report(
                    f"{where}: '{item}' is not a topic name (lowercase letters, digits, - and _)",
                    item_pos,
                    len(str(item)),
                )
            else:
                out.append(item)
        return tuple(out)

    def _order(
        self, where: str, value: Any, pos: tuple[int, int]
    ) -> tuple[tuple[str, bool], ...] | None:
        if not isinstance(value, str):
            self.src.report(f"{where}: must be a string like 'priority desc, updated desc'", pos)
            return None
        keys: list[tuple[str, bool]] = []
        offset = 0
        for part in value.split(","):
            words = part.split()
            at = offset + len(part) - len(part.lstrip())
            offset += len(part) + 1
            if (
                not words
                or len(words) > 2
                or words[0] not in ORDER_FIELDS
                or (len(words) == 2 and words[1] not in ("asc", "desc"))
            ):
                bad = words[0] if words else ""
                hint = did_you_mean(bad, ORDER_FIELDS) if bad and bad not in ORDER_FIELDS else ""
                message = (
                    f"'{part.strip()}' is not 'FIELD [asc|desc]'{hint}"
                    f" (fields: {', '.join(ORDER_FIELDS)})"
                )
                exc = ExpressionError(message, value, at, max(1, len(part.strip())))
                self.src.report_in_value(where, exc, pos)
                return None
            keys.append((words[0], len(words) == 2 and words[1] == "desc"))
        return tuple(keys)

    # -- rules ---------------------------------------------------------------------

    def _rules(self, section: str, value: object, pos: tuple[int, int]) -> None:
        specs = self.layer.rules.setdefault(section, [])
        if value is None:
            return
        if not isinstance(value, CommentedSeq):
            self.src.report(f"{section}: must be a list of rules, not {_kind(value)}", pos)
            return
        for i, item in enumerate(value):
            item_pos = value.lc.item(i)
            if not isinstance(item, CommentedMap):
                self.src.report(
                    f"{section}: a rule is a mapping with name and when, not {_kind(item)}",
                    item_pos,
                )
                continue
            spec = self._rule(section, item, item_pos)
            if spec is not None:
                specs.append(spec)

    def _rule(self, section: str, item: CommentedMap, pos: tuple[int, int]) -> RuleSpec | None:
        name = item.get("name")
        label = f"{section}[{name}]" if isinstance(name, str) else f"{section}[{pos[0] + 1}]"
        broken = False
        for key in item:
            if key not in RULE_KEYS or (key == "action" and section != "consolidate"):
                line, col = key_at(item, key)
                extra = " (only consolidate rules have an action)" if key == "action" else ""
                allowed = [k for k in RULE_KEYS if k != "action" or section == "consolidate"]
                self.src.report(
                    f"{label}: unknown key '{key}'{did_you_mean(str(key), allowed)}{extra}",
                    (line, col),
                    len(str(key)),
                )
                broken = True
        if "name" not in item:
            self.src.report(f"{label}: a rule needs a name", pos)
            return None
        if not isinstance(name, str) or not _NAME.match(name):
            self.src.report(
                f"{label}: rule name '{name}' must be lowercase letters, digits, - and _",
                value_at(item, "name"),
                len(str(name)),
            )
            return None
        spec = RuleSpec(section, name, self.src.location(*pos), given=frozenset(item))
        schema = _SECTION_SCHEMAS[section]
        for key, want in (("when", BOOL), ("score", NUMBER)):
            if key in item:
                compiled = self._expr(
                    item[key], value_at(item, key), f"{label}.{key}", schema, want
                )
                broken = broken or compiled is None
                setattr(spec, key, compiled)
        if "action" in item:
            action = item["action"]
            if action not in ACTIONS:
                self.src.report(
                    f"{label}.action: must be merge or supersede, not '{action}'",
                    value_at(item, "action"),
                    len(str(action)),
                )
                broken = True
            else:
                spec.action = str(action)
        if "description" in item:
            if not isinstance(item["description"], str):
                self.src.report(
                    f"{label}.description: must be a string, not {_kind(item['description'])}",
                    value_at(item, "description"),
                )
            else:
                spec.description = item["description"].strip()
        spec.broken = broken
        return spec
