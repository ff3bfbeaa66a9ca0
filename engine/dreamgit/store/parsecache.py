"""Each memory file's stated id cached by blob id, so ``add`` never parses a file twice.

The cache is one small JSON file in the repository's git directory (``ids.json``). It is
only a cache: a missing or damaged file is rebuilt, and two processes saving at once
simply leave one of their versions. (The records themselves are in the record cache,
``store/recordcache.py``.)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["ParseCache"]


class ParseCache:
    """A blob id → value map loaded once and saved when it grew."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._entries: dict[str, Any] | None = None
        self._added = 0

    def _load(self) -> dict[str, Any]:
        if self._entries is None:
            try:
                loaded = json.loads(self._path.read_text(encoding="utf-8"))
                self._entries = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                self._entries = {}
        return self._entries

    def __len__(self) -> int:
        return len(self._load())

    def get(self, blob: str) -> Any:
        """The value cached for a blob, or None."""
        return self._load().get(blob)

    def put(self, blob: str, value: Any) -> None:
        """Remember a blob's value until :meth:`save`."""
        self._load()[blob] = value
        self._added += 1

    def save(self, keep: set[str] | None = None) -> None:
        """Write the cache if entries were added; ``keep`` drops unused blobs."""
        if not self._added or self._entries is None:
            return
        if keep is not None:
            # the few entries dropped deleted, not a copy of the whole map made
            for blob in self._entries.keys() - keep:
                del self._entries[blob]
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_name(f"{self._path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self._entries, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, self._path)
        self._added = 0
