"""The forks ``store/forkhalves`` makes while a test runs (each still forks)."""

from __future__ import annotations

import os

import pytest

from dreamgit.store import forkhalves


def counted_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each fork ``forkhalves`` makes from now on."""
    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(forkhalves.os, "fork", counted_fork)
    return forks
