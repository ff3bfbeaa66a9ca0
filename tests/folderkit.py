"""New folders under one parent, numbered by a counter instead of by listing the parent."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

#: The longest a folder's name is kept (pytest's own ``tmp_path`` keeps 30 characters).
_NAME_CHARS = 30


class FolderMaker:
    """Makes ``parent/NAME-N``: a new empty folder each call, N counting up in this process.

    pytest numbers the folders it makes (``tmp_path``, ``TempPathFactory.mktemp``) by listing
    every entry of their parent to find the highest number, so each folder costs more than
    the one before; a worker that runs 2,000 tests made 4,000 of them. One process owns
    ``parent`` (a worker's own temporary folder), so a counter gives the same unique names.
    """

    def __init__(self, parent: Path) -> None:
        self._parent = parent
        self._count = itertools.count()

    def new(self, name: str) -> Path:
        """A new empty folder whose name starts with ``name`` (made safe for a path)."""
        safe = re.sub(r"[\W]", "_", name)[:_NAME_CHARS]
        folder = self._parent / f"{safe}-{next(self._count)}"
        folder.mkdir()
        return folder
