"""Parsed front matter cached by blob id, so an unchanged file is never parsed twice.

The cache is one JSON file in the repository's git directory. It is only a
cache: a missing or damaged file is rebuilt, and two processes saving at once
simply leave one of their versions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["ParseCache"]

#: Entries written to the file per call when it is written from encoded records.
_BATCH = 1024
#: A string as JSON text, quotes included, as ``json.dumps`` writes it.
_quoted = json.encoder.encode_basestring_ascii


class ParseCache:
    """A blob id → record map loaded once and saved when it grew."""

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
        """The record cached for a blob, or None."""
        return self._load().get(blob)

    def take(self, blob: str) -> Any:
        """The record cached for a blob, or None, let go by the map (not by its file)."""
        return self._load().pop(blob, None)

    def put(self, blob: str, record: Any) -> None:
        """Remember a blob's record until :meth:`save`."""
        self._load()[blob] = record
        self._added += 1

    def save(self, keep: set[str] | None = None, *, at_least: int = 1) -> None:
        """Write the cache if ``at_least`` entries were added; ``keep`` drops unused blobs."""
        if self._added < at_least or self._entries is None:
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

    def exists(self) -> bool:
        """Whether the cache has a file, or entries not saved yet."""
        return self._path.exists() or bool(self._entries)

    def write_encoded(self, entries: Iterable[tuple[str, str]]) -> None:
        """Replace the cache's file by ``entries``: (blob id, its record already encoded
        as JSON text), written as they are, without building the map; the map this
        object holds is read again from the file when next needed."""
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_name(f"{self._path.name}.{os.getpid()}.tmp")
        with tmp.open("w", encoding="utf-8") as out:  # a batch at a time: no copy of it all
            separator = "{"
            batch: list[str] = []
            for blob, encoded in entries:
                # The key as json.dumps writes a string, without its call per entry.
                batch.append(f"{separator}{_quoted(blob)}:{encoded}")
                separator = ","
                if len(batch) == _BATCH:
                    out.write("".join(batch))
                    batch.clear()
            batch.append("}" if separator == "," else "{}")
            out.write("".join(batch))
        os.replace(tmp, self._path)
        self._entries, self._added = None, 0
