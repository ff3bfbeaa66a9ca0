"""Memory files read through caches keyed by blob id: parsed records, and stated ids.

A blob's content never changes, so what it parses to is cached by its id in the
git directory (``dreamgit/cache/memories.json``) and later reads of 10,000 files
take a tenth of a second; the few entries a later read adds are saved beside it
(``memories.recent.json``) until they are many (``ParseCache``'s recent file). The
many files a first read parses (no cache yet) are parsed in two processes
(``store/forkhalves.py``): the rows are the same whichever process parsed them. A
second, smaller cache holds only each file's id, so ``add`` in a fresh process learns
which ids are taken without parsing every file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dreamgit.errors import MemoryFileError
from dreamgit.ids import memory_id
from dreamgit.model import Memory
from dreamgit.store.forkhalves import in_two
from dreamgit.store.memoryfile import Shared, decode_text, parse_memory_record
from dreamgit.store.parsecache import ParseCache
from dreamgit.store.recordrow import ROW_VERSION, is_row, memory_from_row, record_of_row, row_of

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["MemoryFiles", "same_id_error"]

#: Files parsed without the record cache when fewer are new than this (saving it
#: rewrites it whole, which costs more than parsing a few files).
_FEW = 32


#: A record cache of more entries than this is let go after a full read: held, 100,000
#: records cost 170 MB for the rest of the process (a dream's peak; as rows, 85 MB).
_HELD = 20_000


def same_id_error(path: str, ident: str, first: str) -> MemoryFileError:
    """Why a memory file that states the id of an earlier file (``first``) is not read."""
    return MemoryFileError(
        path, f"has the same id {ident} as {first}", hint="give one of them a new id, or merge them"
    )


class MemoryFiles:
    """Reads memory files (path → blob id) of a repository's git store."""

    def __init__(self, store: GitStore) -> None:
        self._store = store
        self._cache_dir = store.git_dir / "dreamgit" / "cache"
        self._records = self._record_cache()
        self._ids = ParseCache(self._cache_dir / "ids.json")
        #: Records ``record`` parses directly before loading a map let go (``_HELD``).
        self._direct = 0

    def _record_cache(self) -> ParseCache:
        """The record cache as its files hold it."""
        return ParseCache(
            self._cache_dir / "memories.json", recent=self._cache_dir / "memories.recent.json"
        )

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
            if count > _FEW and _current(self._records.get(blob)):
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
        # Entries of the record's own shape, which the next full read makes rows
        # (:meth:`_fill`): encoding rows here would mean decoding every record first.
        self._records.write_encoded(
            (blob, f'{{"ok":{record},"v":{ROW_VERSION}}}') for blob, record in parsed
        )

    def _cached_record(self, path: str, blob: str) -> dict[str, Any]:
        """The cached record of one file, as a new dict (the caller may change it)."""
        return record_of_row(self._row(path, blob))

    def _row(self, path: str, blob: str) -> list[Any]:
        """The cached row of one file, parsed and cached when missing; a broken file
        raises its MemoryFileError."""
        cached = self._records.get(blob)
        if not _current(cached):
            cached = self._parsed(path, blob)
            self._records.put(blob, cached)
        return _row_of(path, cached)

    def _parsed(self, path: str, blob: str) -> Any:
        """One file's cache entry, parsed: its row, or why it cannot be read."""
        try:
            text = decode_text(self._store.read(blob), path=path)
            return row_of(parse_memory_record(text, path=path))
        except MemoryFileError as exc:
            return {"error": exc.reason, "line": exc.line, "hint": exc.hint, "v": ROW_VERSION}

    def _fill(self, files: Mapping[str, str]) -> None:
        """Cache a row of every file of ``files`` that has none: parsed from the file,
        or made from the record a build of the derived store wrote (:meth:`keep_built`).
        Many files to parse (a first read) are parsed in two processes (``forkhalves``)."""
        records = self._records
        unparsed: dict[str, str] = {}  # blob → its first path (an entry is the blob's alone)
        for path, blob in files.items():
            cached = records.get(blob)
            if is_row(cached):
                continue
            if type(cached) is dict and cached.get("v") == ROW_VERSION and "ok" in cached:
                records.put(blob, row_of(cached["ok"]))
            elif not _current(cached):
                unparsed.setdefault(blob, path)
        if not unparsed:
            return
        some = [(path, blob) for blob, path in unparsed.items()]
        for (_, blob), entry in zip(some, in_two(some, self._entries), strict=True):
            records.put(blob, entry)

    def _entries(self, files: Sequence[tuple[str, str]]) -> list[Any]:
        """The cache entry of each of ``files`` (path, blob), parsed."""
        return [self._parsed(path, blob) for path, blob in files]

    def read(
        self, files: Mapping[str, str], *, now: datetime
    ) -> tuple[list[Memory], list[MemoryFileError]]:
        """(memories, broken files) of ``files``; a second file with a known id is broken."""
        self._fill(files)
        # Rewriting the whole cache for one new file (each add) costs more than parsing
        # the few files a later process finds unsaved: a big cache waits for a few.
        few = min(_FEW, max(1, len(self._records) // _FEW))
        self._records.save(keep=set(files.values()), at_least=few)
        if len(self._records) <= _HELD:
            held = self._records
            return self._memories(files, now, lambda _path, blob: held.get(blob))
        # A big cache is let go after the read: each record is taken out of it as its
        # memory is made, so the records and the memories are not all held at once
        # once the map is loaded (at 100,000 the read's peak fell from 542 to 509 MB,
        # one run each; loading the map is the rest of it). The few records
        # not saved are parsed again when next asked, and the next few records asked
        # one by one are parsed, not loaded with the whole file.
        records, self._records = self._records, self._record_cache()
        self._direct = _FEW

        def taken(path: str, blob: str) -> Any:
            cached = records.take(blob)  # None: a second file of the same blob
            return self._parsed(path, blob) if cached is None else cached

        return self._memories(files, now, taken)

    def _memories(
        self,
        files: Mapping[str, str],
        now: datetime,
        entry_of: Callable[[str, str], Any],
    ) -> tuple[list[Memory], list[MemoryFileError]]:
        """The memories of ``files`` from their cache entries (``entry_of(path, blob)``)."""
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        seen: dict[str, str] = {}
        shared = Shared()
        for path, blob in files.items():
            try:
                row = _row_of(path, entry_of(path, blob))
                memory = memory_from_row(row, path=path, now=now, shared=shared)
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
                return str(self._row(path, blob)[1] or "")
            text = decode_text(self._store.read(blob), path=path)
            return str(parse_memory_record(text, path=path)["id"] or "")
        except MemoryFileError:
            return False


def _current(entry: Any) -> bool:
    """Whether a cache entry was made by this version: a row, a broken file's reason, or
    a record written from the derived store (:meth:`MemoryFiles.keep_built`)."""
    return is_row(entry) or (type(entry) is dict and entry.get("v") == ROW_VERSION)


def _row_of(path: str, cached: Any) -> list[Any]:
    """The row of a current cache entry, or the MemoryFileError it holds."""
    if type(cached) is list:
        return cached
    if "ok" in cached:
        return row_of(cached["ok"])
    raise MemoryFileError(path, cached["error"], line=cached["line"], hint=cached["hint"])
