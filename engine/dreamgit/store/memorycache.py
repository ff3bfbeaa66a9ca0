"""Memory files read through caches keyed by blob id: parsed records, and stated ids.

A blob's content never changes, so what it parses to is cached by its id in the
git directory (``dreamgit/cache/memories.json``) and later reads of 10,000 files
take a tenth of a second. A second, smaller cache holds only each file's id, so
``add`` in a fresh process learns which ids are taken without parsing every file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dreamgit.errors import MemoryFileError
from dreamgit.ids import memory_id
from dreamgit.model import Memory
from dreamgit.store.memoryfile import decode_text, memory_from_record, parse_memory_record
from dreamgit.store.parsecache import ParseCache

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["MemoryFiles", "same_id_error"]

#: Files parsed without the record cache when fewer are new than this (saving it
#: rewrites it whole, which costs more than parsing a few files).
_FEW = 32


#: A record cache of more entries than this is let go after a full read: held, 100,000
#: records cost 170 MB for the rest of the process (a dream's peak), read again 1.4 s.
_HELD = 20_000

#: Records cached before ids and trailer values were checked on read are parsed again.
_RECORD_VERSION = 2


def same_id_error(path: str, ident: str, first: str) -> MemoryFileError:
    """Why a memory file that states the id of an earlier file (``first``) is not read."""
    return MemoryFileError(
        path, f"has the same id {ident} as {first}", hint="give one of them a new id, or merge them"
    )


class MemoryFiles:
    """Reads memory files (path → blob id) of a repository's git store."""

    def __init__(self, store: GitStore) -> None:
        self._store = store
        self._records_path = store.git_dir / "dreamgit" / "cache" / "memories.json"
        self._records = ParseCache(self._records_path)
        self._ids = ParseCache(store.git_dir / "dreamgit" / "cache" / "ids.json")
        #: Records ``record`` parses directly before loading a map let go (``_HELD``).
        self._direct = 0

    def record(self, path: str, blob: str, *, cached: bool = True) -> dict[str, Any]:
        """The parsed record of one file; a broken file raises MemoryFileError (cached too).

        ``cached=False`` parses without the record cache (which loading whole costs more
        than parsing a few files) and keeps nothing.
        """
        if self._direct > 0:  # the map was let go: loading it costs more than a few parses
            self._direct -= 1
            cached = False
        if not cached:
            return parse_memory_record(decode_text(self._store.read(blob), path=path), path=path)
        return self._cached_record(path, blob)

    def few_records(self) -> Callable[[str, str], dict[str, Any]]:
        """A ``record`` for a caller that may parse few files or many and keeps what it
        parsed itself (the derived store): the first ``_FEW`` are parsed directly, the
        rest read from the record cache where it holds them and parsed directly where it
        does not, adding nothing to it (after a clone, filling and saving a cache of
        100,000 records cost a fifth of the derived store's first build;
        :meth:`keep_built` writes it whole instead)."""
        count = 0

        def record(path: str, blob: str) -> dict[str, Any]:
            nonlocal count
            count += 1
            if count > _FEW:
                cached = self._records.get(blob)
                if cached is not None and cached.get("v") == _RECORD_VERSION:
                    return self._cached_record(path, blob)
            return self.record(path, blob, cached=False)

        return record

    def keep_built(self, parsed: list[tuple[str, str]]) -> None:
        """Where there is no record cache yet (after a clone), write it from what a build
        of the derived store read: (blob, record as JSON text) of every readable file, so
        the first reader of every memory after the first recall parses nothing. Written
        from the JSON the store holds, it costs a tenth of filling and saving the cache
        one record at a time; an existing cache is left to the readers that fill it."""
        if len(parsed) < _FEW or self._records.exists():
            return
        self._records.write_encoded(
            (blob, f'{{"ok":{record},"v":{_RECORD_VERSION}}}') for blob, record in parsed
        )

    def _cached_record(self, path: str, blob: str) -> dict[str, Any]:
        """A copy of the cached record of one file (the caller may change it)."""
        return dict(self._held_record(path, blob))

    def _held_record(self, path: str, blob: str) -> dict[str, Any]:
        """The cached record of one file itself, parsed and cached when missing: for
        callers that only read it (no copy of 100,000 records in a snapshot)."""
        cached = self._records.get(blob)
        if cached is None or cached.get("v") != _RECORD_VERSION:
            cached = self._parsed(path, blob)
            self._records.put(blob, cached)
        return _record_of(path, cached)

    def _parsed(self, path: str, blob: str) -> dict[str, Any]:
        """One file's cache entry, parsed: its record, or why it cannot be read."""
        try:
            text = decode_text(self._store.read(blob), path=path)
            return {"ok": parse_memory_record(text, path=path), "v": _RECORD_VERSION}
        except MemoryFileError as exc:
            return {"error": exc.reason, "line": exc.line, "hint": exc.hint, "v": _RECORD_VERSION}

    def read(
        self, files: Mapping[str, str], *, now: datetime
    ) -> tuple[list[Memory], list[MemoryFileError]]:
        """(memories, broken files) of ``files``; a second file with a known id is broken."""
        for path, blob in files.items():  # the files not cached yet are parsed and cached
            with contextlib.suppress(MemoryFileError):
                self._held_record(path, blob)
        # Rewriting the whole cache for one new file (each add) costs more than parsing
        # the few files a later process finds unsaved: a big cache waits for a few.
        few = min(_FEW, max(1, len(self._records) // _FEW))
        self._records.save(keep=set(files.values()), at_least=few)
        if len(self._records) <= _HELD:
            return self._memories(files, now, self._held_record)
        # A big cache is let go after the read: each record is taken out of it as its
        # memory is made, so the records and the memories are not all held at once
        # once the map is loaded (at 100,000 the read's peak fell from 542 to 509 MB,
        # one run each; loading the map is the rest of it). The few records
        # not saved are parsed again when next asked, and the next few records asked
        # one by one are parsed, not loaded with the whole file.
        records, self._records = self._records, ParseCache(self._records_path)
        self._direct = _FEW

        def taken(path: str, blob: str) -> dict[str, Any]:
            cached = records.take(blob)  # None: a second file of the same blob
            return _record_of(path, self._parsed(path, blob) if cached is None else cached)

        return self._memories(files, now, taken)

    def _memories(
        self,
        files: Mapping[str, str],
        now: datetime,
        record_of: Callable[[str, str], dict[str, Any]],
    ) -> tuple[list[Memory], list[MemoryFileError]]:
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        seen: dict[str, str] = {}
        times: dict[str, datetime] = {}
        for path, blob in files.items():
            try:
                record = record_of(path, blob)
                memory = memory_from_record(record, path=path, now=now, times=times)
            except MemoryFileError as exc:
                broken.append(exc)
                continue
            if memory.id in seen:
                broken.append(same_id_error(path, memory.id, seen[memory.id]))
                continue
            seen[memory.id] = path
            memories.append(memory)
        return memories, broken

    def ids(self, files: Mapping[str, str]) -> set[str]:
        """Ids of the readable files of ``files``, from the id cache where it knows them."""
        missing = [(path, blob) for path, blob in files.items() if self._ids.get(blob) is None]
        for path, blob in missing:
            self._ids.put(blob, self._file_id(path, blob, cached=len(missing) > _FEW))
        self._ids.save(keep=set(files.values()))
        self.save()
        ids = set()
        for path, blob in files.items():
            known = self._ids.get(blob)
            if known is not False:
                ids.add(known or memory_id("path", path))
        return ids

    def save(self) -> None:
        """Keep what was parsed, when it grew enough to be worth rewriting the cache."""
        self._records.save(at_least=256)

    def _file_id(self, path: str, blob: str, *, cached: bool) -> str | bool:
        """The id a memory file states ("" when none), or False when it cannot be read."""
        try:
            if cached:
                return str(self.record(path, blob)["id"] or "")
            text = decode_text(self._store.read(blob), path=path)
            return str(parse_memory_record(text, path=path)["id"] or "")
        except MemoryFileError:
            return False


def _record_of(path: str, cached: dict[str, Any]) -> dict[str, Any]:
    """The record of a cache entry, or the MemoryFileError it holds."""
    if "ok" not in cached:
        raise MemoryFileError(path, cached["error"], line=cached["line"], hint=cached["hint"])
    record: dict[str, Any] = cached["ok"]
    return record
