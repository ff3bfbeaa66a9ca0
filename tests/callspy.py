"""What a function is called with while a test runs, its modules' own references replaced."""

from __future__ import annotations

from typing import Any

import pytest


def first_arguments(monkeypatch: pytest.MonkeyPatch, name: str, *modules: object) -> list[Any]:
    """The first argument of every call of ``name`` from now on, through any of ``modules``
    (each holds its own reference to the one function, which still runs)."""
    seen: list[Any] = []
    real = getattr(modules[0], name)

    def spy(first: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(first)
        return real(first, *args, **kwargs)

    for module in modules:
        monkeypatch.setattr(module, name, spy)
    return seen
