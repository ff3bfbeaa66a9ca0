"""Reading the memory files a move of the derived store adds: what each row will hold.

``store/derivedmove.py`` writes the rows; this module reads the files: each one's parsed
record (as JSON text), stated id, index terms and what it says, or why it cannot be read.
Nothing here depends on another file, so many files (the first build after a clone) are
read in two processes (``store/forkhalves.py``); the results are plain tuples, the
same whichever process read them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from dreamgit.errors import MemoryFileError
from dreamgit.ids import memory_id
from dreamgit.store.derivedpostings import memory_terms, term_counts
from dreamgit.store.derivedschema import said_key
from dreamgit.store.forkhalves import in_two
from dreamgit.store.memoryfile import split_memory_path

__all__ = ["ReadFile", "read_files"]

#: ``json.dumps`` without the check for cycles (a parsed record has none): ~25 % less.
_encode = json.JSONEncoder(check_circular=False).encode

#: One file read: (path, blob, stated id, record as JSON, said key, how often each index
#: term occurs, how many index terms); a file that cannot be read has no id, its record
#: says why (error, line, hint), and it has no said key and no terms. The terms are
#: counted here, in the process that read the file, not by the one that writes the rows.
ReadFile = tuple[str, str, str | None, str, str, dict[str, int], int]


def read_files(
    files: Sequence[tuple[str, str]], record: Callable[[str, str], dict[str, Any]]
) -> list[ReadFile]:
    """What each of ``files`` (path, blob) reads as, in their order; ``record(path, blob)``
    parses one (MemoryFileError when broken). Many files are read in two processes."""

    def work(some: Sequence[tuple[str, str]]) -> list[ReadFile]:
        return [_read_one(path, blob, record) for path, blob in some]

    return in_two(files, work)


def _read_one(path: str, blob: str, record: Callable[[str, str], dict[str, Any]]) -> ReadFile:
    try:
        parsed = record(path, blob)
        split_memory_path(path)  # what Memory would refuse (its times: parsed already)
    except MemoryFileError as exc:
        why = json.dumps({"error": exc.reason, "line": exc.line, "hint": exc.hint})
        return (path, blob, None, why, "", {}, 0)
    ident = parsed["id"] or memory_id("path", path)  # as memory_from_record reads it
    terms = memory_terms(parsed["text"], parsed["tags"])
    # The record kept as its JSON text: 100,000 parsed dicts held to the end of a build
    # cost ~200 MB more at its peak.
    said = said_key(parsed["text"])
    return (path, blob, ident, _encode(parsed), said, term_counts(terms), len(terms))
