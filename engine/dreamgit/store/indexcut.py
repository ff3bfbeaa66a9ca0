"""Where the last MEMORY.md render cut the order, kept so the next write can place one line.

Rendering the index ranks every memory, but only the best few fit its budget. What a
later ``add`` needs to place one new memory without ranking them all again is small:
the entries the index lists (their lines, topics and sort keys, best first), the sort
key of the first memory left out, how many there are in all, and the order and
budgets they were cut by. That is kept as one JSON file in the git directory
(``dreamgit/cache/index-cut.json``) under a key naming what the render read (the
memories tree, the config blob, the bundled rules), so it answers only for the very
same input. It is only a cache: a missing, damaged or foreign file is ignored and
the index is rendered in full.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CutEntry", "IndexCut", "load_cut", "save_cut"]

#: Bumped when the file's meaning changes: an older file is then ignored.
_VERSION = 1


@dataclass(frozen=True)
class CutEntry:
    """One memory at the cut: where it is, its index line and its sort key."""

    path: str
    id: str
    topic: str
    line: str
    #: The order's values for it (descending ones negated); its id breaks ties.
    sort: tuple[float, ...]

    def rank(self) -> tuple[tuple[float, ...], str]:
        """Its place in the order: smaller comes first."""
        return (self.sort, self.id)


@dataclass(frozen=True)
class IndexCut:
    """What one render of MEMORY.md left to know."""

    #: What the render read (memories tree, config blob, bundled rules).
    key: tuple[str, ...]
    #: The order's fields, each with whether it is descending.
    order: tuple[tuple[str, bool], ...]
    index_chars: int
    index_line_chars: int
    max_lines: int
    #: The memories the index lists, best first.
    listed: tuple[CutEntry, ...]
    #: The first memory left out, None when none is.
    next: CutEntry | None
    #: How many memories the order holds in all.
    total: int


def _path(git_dir: Path) -> Path:
    return git_dir / "dreamgit" / "cache" / "index-cut.json"


def load_cut(git_dir: Path, key: tuple[str, ...]) -> IndexCut | None:
    """The cut kept for ``key``, or None (none kept, another key, or a damaged file)."""
    try:
        data = json.loads(_path(git_dir).read_text(encoding="utf-8"))
        if data.get("v") != _VERSION or tuple(data["key"]) != key:
            return None
        return IndexCut(
            key=key,
            order=tuple((str(f), bool(d)) for f, d in data["order"]),
            index_chars=int(data["index_chars"]),
            index_line_chars=int(data["index_line_chars"]),
            max_lines=int(data["max_lines"]),
            listed=tuple(_entry(e) for e in data["listed"]),
            next=None if data["next"] is None else _entry(data["next"]),
            total=int(data["total"]),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _entry(data: Any) -> CutEntry:
    sort = tuple(float(v) for v in data["sort"])
    return CutEntry(str(data["path"]), str(data["id"]), str(data["topic"]), str(data["line"]), sort)


def _plain(cut: IndexCut) -> dict[str, Any]:
    """``{"v": version, **dataclasses.asdict(cut)}`` without asdict's deep copy of every
    entry (the fields as they are: JSON writes their tuples as lists)."""
    entries = {
        "listed": [vars(e) for e in cut.listed],
        "next": None if cut.next is None else vars(cut.next),
    }
    return {"v": _VERSION, **vars(cut), **entries}


def save_cut(git_dir: Path, cut: IndexCut) -> None:
    """Keep ``cut`` in place of the one kept before (written whole, then renamed into
    place, so a reader sees the old file or the new one); a failure to write is ignored."""
    path = _path(git_dir)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(_plain(cut)), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
