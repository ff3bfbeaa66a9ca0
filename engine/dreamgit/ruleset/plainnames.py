"""The names a memory rule reads straight from a memory's fields, made into functions.

Each such name is one short Python expression of the memory ``m``, the time ``now`` and
whether recalls are ``recorded``, written once in :data:`SOURCES`. From that table come
the function computing one name when a rule first reads it (:func:`one_name`) and the
function computing several at once as a dict (:func:`names_at_once`): a dict display
of the names a dream's rules read, which costs a third of calling a function per name
(vetting fills one for every memory). The sources are this module's constants only;
nothing from a rule's text enters them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any

from dreamgit.dsl import Priority
from dreamgit.model import Memory

__all__ = ["SOURCES", "names_at_once", "one_name"]

#: Each name read straight from a memory's fields, as Python over ``m``, ``now`` and
#: ``recorded`` (in :data:`~dreamgit.ruleset.context.MEMORY_FIELDS`' order).
SOURCES: dict[str, str] = {
    "id": "m.id",
    "topic": "m.topic",
    "priority": "_PRIORITIES.get(m.priority, _NORMAL)",
    "key": 'm.key or ""',
    "tags": "m.tags",
    "type": "m.type",
    "text": "m.text",
    "name": "m.name",
    "description": "m.description",
    "chars": "len(m.text)",
    "age": "now - m.created",
    "idle": "now - m.updated",
    "recalls": "m.recalls",
    "confidence": "m.confidence",
    "sources": "m.sources",
    "supersedes": "m.supersedes",
    # How long what it says has held (like ``age``: a duration up to ``now``).
    "valid_from": "now - m.valid_since",
    "superseded": "m.valid_to is not None or bool(m.superseded_by)",
    "recalls_recorded": "recorded",
}

#: What the sources read besides the memory: ``Priority.__members__`` read once (the
#: enum builds a new view of it on every read) and the priority of an unknown name.
_NAMESPACE: dict[str, Any] = {
    "__builtins__": {},
    "len": len,
    "bool": bool,
    "_PRIORITIES": dict(Priority.__members__),
    "_NORMAL": Priority.normal,
}


def one_name(name: str) -> Callable[[Memory, datetime, bool], object]:
    """The function computing the name ``name`` of :data:`SOURCES`."""
    made: Callable[[Memory, datetime, bool], object] = _made(
        f"return {SOURCES[name]}", f"<memory name {name}>"
    )
    return made


@lru_cache(maxsize=64)
def names_at_once(names: tuple[str, ...]) -> Callable[[Memory, datetime, bool], dict[str, object]]:
    """The function computing ``names`` (of :data:`SOURCES`) as one dict."""
    items = ", ".join(f"{name!r}: {SOURCES[name]}" for name in names)
    made: Callable[[Memory, datetime, bool], dict[str, object]] = _made(
        f"return {{{items}}}", "<memory names>"
    )
    return made


def _made(body: str, filename: str) -> Any:
    namespace = dict(_NAMESPACE)
    code = compile(f"def _names(m, now, recorded):\n {body}\n", filename, "exec")
    exec(code, namespace)
    return namespace["_names"]
