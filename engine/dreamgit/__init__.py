"""dreamgit: offline memory consolidation ("dreaming") for AI agents, on top of git.

An agent's memory lives as plain files in a git repository; dream cycles gather
facts from sessions, merge duplicates, supersede old facts, prune stale ones and
rewrite a compact ``MEMORY.md``, each change a commit on a dream branch.

The package map (each folder a layer; imports go down only, checked by ``lint-imports``):
the kernel (``errors``, ``clock``, ``ids``, ``jsontext``, ``leanhash``, ``lazyre``, ``model``,
``records``, ``faults``, ``trailers``, ``usercache``, ``packagefiles``, ``version``) under
``templating``/``textsim``,
under ``dsl``, ``store``, ``ruleset``, then ``history``, ``llm`` and ``recall``, then
``extract``, then ``dream``, then the API (``api``, ``demo``) and ``integrations``, and ``cli``
on top.

May import: ``errors`` and ``version`` at import time; the API lazily, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dreamgit.errors import DreamgitError, UserError
from dreamgit.version import __version__

if TYPE_CHECKING:
    from dreamgit.api import DreamEngine, DreamResult
    from dreamgit.store.repo import MemoryRepo

__all__ = [
    "DreamEngine",
    "DreamResult",
    "DreamgitError",
    "MemoryRepo",
    "UserError",
    "__version__",
]

_LAZY = {
    "DreamEngine": "dreamgit.api",
    "DreamResult": "dreamgit.api",
    "MemoryRepo": "dreamgit.store.repo",
}


def __getattr__(name: str) -> Any:
    # Imported on first use, so `import dreamgit` (and so every command's start) stays cheap.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dreamgit' has no attribute {name!r}")
