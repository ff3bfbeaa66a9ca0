"""dreamgit: offline memory consolidation ("dreaming") for AI agents, on top of git.

An agent's memory lives as plain files in a git repository; dream cycles gather
facts from sessions, merge duplicates, supersede old facts, prune stale ones and
rewrite a compact ``MEMORY.md``, each change a commit on a dream branch.
"""

from __future__ import annotations

__version__ = "0.1.0"

from dreamgit.engine import DreamEngine
from dreamgit.errors import DreamgitError
from dreamgit.repo import MemoryRepo

__all__ = ["DreamEngine", "DreamgitError", "MemoryRepo", "__version__"]
