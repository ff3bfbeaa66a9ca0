"""git trees read, compared and written through git's own files, as libgit2 does for the store.

The lean store (``store/leanstore.py``) answers ``GitStore``'s tree questions with these:
the entry at a path, the files under a folder, the files that differ between two trees
(descending only into folders whose ids differ, as ``GitStore.tree_changes`` does), and
a tree with files written or removed (as ``GitStore.build_tree``: only the folders on
the changed paths are rewritten; a written file is a plain file, mode 100644, unless it
replaces an executable, whose mode it keeps). Trees are
written as git sorts them (a folder's name compared as if it ended with ``/``). An
entry of a mode git would not write, a name libgit2 would refuse and any object that
cannot be read here (``leanobjects``) are doubts (``leandoubt.Doubt``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from dreamgit.gitstore.treefolder import EXECUTABLE, FILE, written_mode
from dreamgit.gitstore.values import EMPTY_TREE, Change
from dreamgit.store.leandoubt import Doubt
from dreamgit.store.leanobjects import read_kind, write_object

__all__ = ["Entry", "build_tree", "entry_at", "files_under", "parse_tree", "tree_changes"]

TREE = b"40000"
#: The modes git writes; anything else in a tree to be rewritten is a doubt.
_MODES = frozenset((TREE, FILE, EXECUTABLE, b"120000", b"160000"))
_BLOB_MODES = frozenset((FILE, EXECUTABLE, b"120000"))
_BAD_NAMES = frozenset(("", ".", "..", ".git"))


class Entry(NamedTuple):
    """One entry of a tree: its mode (``b"100644"``), name and object id."""

    mode: bytes
    name: str
    id: str


def parse_tree(body: bytes) -> dict[str, Entry]:
    """A tree's entries by name; a Doubt for a truncated tree or an odd mode or name."""
    found: dict[str, Entry] = {}
    at = 0
    while at < len(body):
        space = body.find(b" ", at)
        end = body.find(b"\0", space)
        if space < 0 or end < 0 or end + 21 > len(body):
            raise Doubt("a truncated tree")
        mode = body[at:space]
        try:
            name = body[space + 1 : end].decode("utf-8")
        except UnicodeDecodeError:
            raise Doubt("a name that is not UTF-8") from None
        if mode not in _MODES or name in found:
            raise Doubt("an odd tree entry")
        found[name] = Entry(mode, name, body[end + 1 : end + 21].hex())
        at = end + 21
    return found


def read_tree(git_dir: Path, tree_id: str) -> dict[str, Entry]:
    """The entries of the loose tree ``tree_id`` (the empty tree needs no object): a
    copy of the ones kept for the process, the caller's to change."""
    return dict(_entries(git_dir, tree_id))


@functools.lru_cache(maxsize=64)
def _entries(git_dir: Path, tree_id: str) -> dict[str, Entry]:
    if tree_id == EMPTY_TREE:
        return {}
    return parse_tree(read_kind(git_dir, tree_id, b"tree"))


def entry_at(git_dir: Path, tree_id: str, path: str) -> Entry | None:
    """The entry at ``path`` (``a/b.md``) in a tree, or None when nothing is there."""
    *folders, name = path.split("/")
    entries = _entries(git_dir, tree_id)
    for folder in folders:
        inner = entries.get(folder)
        if inner is None or inner.mode != TREE:
            return None
        entries = _entries(git_dir, inner.id)
    return entries.get(name)


def files_under(git_dir: Path, tree_id: str, prefix: str) -> dict[str, str]:
    """Every file (blob) under ``prefix`` in a tree: path → blob id, as ``GitStore.files``."""
    folder = prefix.rpartition("/")[0]
    if folder:
        entry = entry_at(git_dir, tree_id, folder)
        if entry is None or entry.mode != TREE:
            return {}
        tree_id = entry.id
    found: dict[str, str] = {}
    _walk(git_dir, tree_id, f"{folder}/" if folder else "", found)
    return {path: blob for path, blob in found.items() if path.startswith(prefix)}


def _walk(git_dir: Path, tree_id: str, prefix: str, found: dict[str, str]) -> None:
    for entry in _entries(git_dir, tree_id).values():
        if entry.mode == TREE:
            _walk(git_dir, entry.id, f"{prefix}{entry.name}/", found)
        elif entry.mode in _BLOB_MODES:
            found[f"{prefix}{entry.name}"] = entry.id


def tree_changes(git_dir: Path, old: str | None, new: str | None, prefix: str) -> list[Change]:
    """Files that differ between two trees (None: the empty tree), ``prefix`` before their
    paths; submodules left out, as ``GitStore.tree_changes``."""
    out: list[Change] = []
    _diff(git_dir, old, new, prefix, out)
    return out


def _diff(git_dir: Path, old: str | None, new: str | None, prefix: str, out: list[Change]) -> None:
    before = {} if old is None else _entries(git_dir, old)
    after = {} if new is None else _entries(git_dir, new)
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        if a is not None and b is not None and a.id == b.id:
            continue
        a_tree = a.id if a is not None and a.mode == TREE else None
        b_tree = b.id if b is not None and b.mode == TREE else None
        if a_tree is not None or b_tree is not None:
            _diff(git_dir, a_tree, b_tree, f"{prefix}{name}/", out)
        a_blob = a.id if a is not None and a.mode in _BLOB_MODES else None
        b_blob = b.id if b is not None and b.mode in _BLOB_MODES else None
        if a_blob is not None or b_blob is not None:
            out.append(Change(f"{prefix}{name}", a_blob, b_blob))


def build_tree(
    git_dir: Path,
    base: str | None,
    changes: Mapping[str, bytes | None],
    modes: Mapping[str, bytes] | None = None,
) -> str:
    """``base`` (a tree id; None: empty) with files written (bytes) or removed (None):
    the new tree's id, every object written loose. ``modes``: the mode of a written path
    whose file gives one (``written_mode``)."""
    entries = {} if base is None else read_tree(git_dir, base)
    return _write(git_dir, entries, changes, modes or {}, "") or EMPTY_TREE


def _write(
    git_dir: Path,
    entries: dict[str, Entry],
    changes: Mapping[str, bytes | None],
    modes: Mapping[str, bytes],
    prefix: str,
) -> str | None:
    """A folder's ``entries`` with ``changes`` (paths relative to it, the folder being
    ``prefix``), written; None when it ends up empty. The same steps as
    ``gitstore.growing``: files first, then folders."""
    nested: dict[str, dict[str, bytes | None]] = {}
    files: list[tuple[str, bytes | None]] = []
    for path, data in changes.items():
        name, slash, rest = path.partition("/")
        if name in _BAD_NAMES or "\0" in name:
            raise Doubt(f"a name libgit2 refuses: {path!r}")
        if slash:
            nested.setdefault(name, {})[rest] = data
        else:
            files.append((name, data))
    inner = {name: _inner(git_dir, entries.get(name)) for name in nested}
    for name, data in files:
        if data is None:
            entries.pop(name, None)
        else:
            kept = entries.get(name)
            mode = written_mode(None if kept is None else kept.mode, modes.get(prefix + name))
            entries[name] = Entry(mode, name, write_object(git_dir, b"blob", data))
    for name, sub in inner.items():
        written = _write(git_dir, sub, nested[name], modes, f"{prefix}{name}/")
        if written is None:
            entries.pop(name, None)
        else:
            entries[name] = Entry(TREE, name, written)
    if not entries:
        return None
    return write_object(git_dir, b"tree", tree_body(entries.values()))


def _inner(git_dir: Path, entry: Entry | None) -> dict[str, Entry]:
    """A sub-folder's entries as the tree it starts from has them (none for a file)."""
    return read_tree(git_dir, entry.id) if entry is not None and entry.mode == TREE else {}


def tree_body(entries: Iterable[Entry]) -> bytes:
    """A tree's bytes: its entries in git's order (folders sorted as ``name/``)."""
    listed = sorted(
        entries, key=lambda e: e.name.encode("utf-8") + (b"/" if e.mode == TREE else b"")
    )
    return b"".join(
        e.mode + b" " + e.name.encode("utf-8") + b"\0" + bytes.fromhex(e.id) for e in listed
    )
