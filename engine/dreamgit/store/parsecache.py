"""Parsed front matter cached by blob id, so an unchanged file is never parsed twice.

The cache is one JSON file in the repository's git directory. It is only a
cache: a missing or damaged file is rebuilt, and two processes saving at once
simply leave one of their versions.

A cache given a ``recent`` file saves a few new entries there, not by rewriting the
whole map: a nightly dream over 100,000 memories adds ~100 entries, and rewriting the
100,000 cost it a quarter of a second. The recent file holds the entries added since
the whole map was last written, read after it on load; once it holds more than a
thirty-second of the map (:data:`_RECENT_SHARE`), the next save writes the whole map
again and removes it. Every entry is keyed by the blob it was parsed from, so any entry of
either file is right for its blob whichever process wrote it, and a pair of files
from two different saves reads as a cache that misses a few entries at worst.
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
#: The share of the map the recent file may hold before a save writes the whole map.
_RECENT_SHARE = 32
#: More entries added than this (a first fill) are not tracked one by one: the whole
#: map is written.
_RECENT_MAX = 4096


class ParseCache:
    """A blob id → record map loaded once and saved when it grew."""

    def __init__(self, path: Path, *, recent: Path | None = None) -> None:
        self._path = path
        #: Where the entries added since the map was last written whole are saved.
        self._recent_path = recent
        self._entries: dict[str, Any] | None = None
        self._added = 0
        #: The blobs of the recent file and those added since (None: too many to save
        #: there, or no recent file: the next save writes the whole map).
        self._recent: set[str] | None = None

    def _load(self) -> dict[str, Any]:
        if self._entries is None:
            self._entries = _read_map(self._path)
            if self._recent_path is not None:
                recent = _read_map(self._recent_path)
                self._entries.update(recent)
                self._recent = set(recent)
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
        recent = self._recent
        if recent is not None:
            recent.add(blob)
            if len(recent) > _RECENT_MAX:  # a first fill: not worth tracking one by one
                self._recent = None

    def save(self, keep: set[str] | None = None, *, at_least: int = 1) -> None:
        """Write the cache if ``at_least`` entries were added; ``keep`` drops unused blobs."""
        if self._added < at_least or self._entries is None:
            return
        if self._saved_recent(keep):
            return
        if keep is not None:
            # the few entries dropped deleted, not a copy of the whole map made
            for blob in self._entries.keys() - keep:
                del self._entries[blob]
        _write(self._path, self._entries)
        self._forget_recent()
        self._added = 0

    def _saved_recent(self, keep: set[str] | None) -> bool:
        """Whether the entries added since the map was written whole were saved to the
        recent file: only while they are few beside a map whose file exists."""
        recent, entries = self._recent, self._entries
        if recent is None or entries is None or self._recent_path is None:
            return False
        if len(recent) * _RECENT_SHARE > len(entries) or not self._path.exists():
            return False
        _write(
            self._recent_path,
            {
                blob: entries[blob]
                for blob in recent
                if blob in entries and (keep is None or blob in keep)
            },
        )
        self._added = 0
        return True

    def _forget_recent(self) -> None:
        """The whole map was written: the recent file's entries are in it."""
        if self._recent_path is not None:
            self._recent_path.unlink(missing_ok=True)
            self._recent = set()

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
        self._forget_recent()
        self._entries, self._added = None, 0


def _read_map(path: Path) -> dict[str, Any]:
    """The map a cache file holds; empty when it is missing or damaged."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _write(path: Path, entries: dict[str, Any]) -> None:
    """Write a map to a cache file at once: a reader sees the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(entries, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, path)
