"""dreamgit: offline memory consolidation ("dreaming") for AI agents, on top of git.

An agent's memory lives as plain files in a git repository; dream cycles gather
facts from sessions, merge duplicates, supersede old facts, prune stale ones and
rewrite a compact ``MEMORY.md``, each change a commit on a dream branch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dreamgit.errors import DreamgitError

if TYPE_CHECKING:
    from dreamgit.engine import DreamEngine
    from dreamgit.repo import MemoryRepo

__version__ = "0.1.0"

__all__ = ["DreamEngine", "DreamgitError", "MemoryRepo", "__version__"]

_LAZY = {"DreamEngine": "dreamgit.engine", "MemoryRepo": "dreamgit.repo"}


def __getattr__(name: str) -> Any:
    # Imported on first use, so `import dreamgit` (and so every command's start) stays cheap.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dreamgit' has no attribute {name!r}")
