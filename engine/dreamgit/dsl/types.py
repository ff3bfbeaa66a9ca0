"""The static types of the expression language and the schemas names are checked against.

Types are checked when rules load, so a rule that compares a duration with a
string never reaches a dream. Values at run time are plain Python: ``float``/``int``
for numbers, ``str``, ``bool``, ``timedelta`` for durations, :class:`Priority`
(an ``IntEnum``, so ``ephemeral < low < normal < high < core`` holds), tuples or
lists, and mappings for records (a memory in a pair rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

__all__ = [
    "ANY",
    "BOOL",
    "DURATION",
    "NUMBER",
    "PRIORITY",
    "STRING",
    "Priority",
    "Schema",
    "Type",
    "list_of",
    "record",
]


class Priority(IntEnum):
    """A memory's priority as an ordered constant; prints as its name."""

    ephemeral = 0
    low = 1
    normal = 2
    high = 3
    core = 4

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Type:
    """A static type: its kind, the element type of a list, the fields of a record."""

    kind: str
    elem: Type | None = None
    fields: tuple[tuple[str, Type], ...] = ()

    def describe(self) -> str:
        """How a message names the type: ``a number``, ``a list of strings``."""
        if self.kind == "list":
            if self.elem is None or self.elem.kind == "any":
                return "a list"
            return f"a list of {_PLURAL.get(self.elem.kind, self.elem.kind)}"
        return _ARTICLE.get(self.kind, self.kind)

    def field(self, name: str) -> Type | None:
        """The type of field ``name`` of a record, or None."""
        return dict(self.fields).get(name)


_ARTICLE = {
    "number": "a number",
    "string": "a string",
    "bool": "true/false",
    "duration": "a duration",
    "priority": "a priority",
    "record": "a memory",
    "any": "a value",
}
_PLURAL = {
    "number": "numbers",
    "string": "strings",
    "bool": "true/false values",
    "duration": "durations",
    "priority": "priorities",
    "record": "memories",
    "list": "lists",
}

NUMBER = Type("number")
STRING = Type("string")
BOOL = Type("bool")
DURATION = Type("duration")
PRIORITY = Type("priority")
#: The element type of an empty list: compatible with everything.
ANY = Type("any")


def list_of(elem: Type) -> Type:
    """The type of a list whose elements have type ``elem``."""
    return Type("list", elem=elem)


def record(fields: Mapping[str, Type]) -> Type:
    """The type of a mapping with these fields (a memory in a pair rule)."""
    return Type("record", fields=tuple(fields.items()))


@dataclass(frozen=True)
class Schema:
    """The names one kind of expression may use, with their types.

    ``label`` names the place in messages ("a prune rule"); ``hints`` explains a
    name that is wrong *here* but right elsewhere (``a.topic`` outside pair rules).
    """

    label: str
    names: Mapping[str, Type]
    hints: Mapping[str, str] = field(default_factory=dict)
