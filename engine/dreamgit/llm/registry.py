"""Finding LLM adapters: the ``dreamgit.llm`` entry-point group, plus in-process ones.

Every adapter, built-in or third-party, is a factory ``(settings) -> LLMAdapter``
(an adapter class whose ``__init__`` takes the settings mapping qualifies)
declared in the ``dreamgit.llm`` entry-point group; dreamgit's own adapters are
declared in its ``pyproject.toml`` the same way. A program or a test may also
:func:`register` a factory in-process, and must :func:`unregister` it after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from dreamgit.errors import ConfigError
from dreamgit.llm.base import LLMAdapter

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["GROUP", "available", "get_adapter", "register", "unregister"]

GROUP = "dreamgit.llm"
Factory = Callable[[Mapping[str, Any]], LLMAdapter]

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_in_process: dict[str, Factory] = {}


def _entry_points() -> dict[str, EntryPoint]:
    from importlib.metadata import entry_points  # about 50 ms: only when an adapter is named

    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


def available() -> list[str]:
    """Names of every adapter that can be asked for, sorted."""
    return sorted(set(_entry_points()) | set(_in_process))


def register(name: str, factory: Factory) -> None:
    """Add an adapter for this process only (tests, embedding programs)."""
    if not _NAME.match(name):
        raise ValueError(f"adapter name {name!r} must match [a-z0-9][a-z0-9_-]*")
    if name in _in_process or name in _entry_points():
        raise ValueError(f"an LLM adapter named {name!r} is already registered")
    _in_process[name] = factory


def unregister(name: str) -> None:
    """Remove an adapter added with :func:`register`; unknown names are ignored."""
    _in_process.pop(name, None)


def get_adapter(name: str, settings: Mapping[str, Any]) -> LLMAdapter:
    """Build the adapter ``name`` from ``settings`` (the ``llm`` section of the config)."""
    factory = _in_process.get(name)
    if factory is None:
        point = _entry_points().get(name)
        if point is None:
            raise ConfigError(
                f"unknown LLM adapter {name!r} (available: {', '.join(available())})",
                hint="set llm.adapter (or run --llm) to one of those, or install the plugin "
                "that provides it",
            )
        try:
            factory = point.load()
        except Exception as exc:  # a broken plugin must not crash dreamgit
            raise ConfigError(
                f"LLM adapter {name!r} ({point.value}) could not be loaded: "
                f"{type(exc).__name__}: {exc}",
                hint="reinstall or remove the plugin that provides it",
            ) from None
    adapter = factory(settings)
    if not isinstance(adapter, LLMAdapter):
        raise ConfigError(
            f"LLM adapter {name!r} gave {type(adapter).__name__}, not an LLMAdapter",
            hint="the entry point must name a class or function that returns an LLMAdapter",
        )
    return adapter
