"""A tree written again and again, a few files changed each time (a dream's commits).

Each write rewrites only the folders on the changed paths, each held as its entries in
git's order (``treefolder``). The folders are kept between writes, so the next write on
top of this one starts from what is in memory instead of reading those folders back from
the object database: a dream writes one commit per operation, and a topic folder of
thousands of memories is read once per run, not once per commit, and never sorted again
(a tree builder sorts all its entries on every write). The trees are the ones a fresh
build gives. A big folder's tree is stored without compression (``plainobjects``).

"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from dreamgit import faults
from dreamgit.gitstore.plainobjects import PLAIN_TREE_BYTES, objects_folder, write_plain_tree
from dreamgit.gitstore.treefolder import FOLDER, TreeFolder, written_mode
from dreamgit.gitstore.values import EMPTY_TREE

__all__ = ["GrowingTree"]


class GrowingTree:
    """A tree that each :meth:`write` changes and writes; starts as ``tree`` (None: empty).

    ``keep`` False keeps no folder between writes (for one write: nothing to forget).
    """

    def __init__(
        self, repo: pygit2.Repository, tree: pygit2.Tree | None, *, keep: bool = True
    ) -> None:
        self._repo = repo
        self._odb = repo.odb
        self._objects = objects_folder(repo)
        self._keep = keep
        root = TreeFolder() if tree is None else TreeFolder(tree.read_raw())
        #: The folders written so far, by path ("" is the top); each holds the folder as
        #: the last write left it.
        self._folders: dict[str, TreeFolder] = {"": root}

    def write(
        self, changes: Mapping[str, bytes | None], modes: Mapping[str, bytes] | None = None
    ) -> str:
        """The tree with ``changes`` applied (bytes written, None removed): its id.
        ``modes``: the mode of a written path whose file gives one (``written_mode``)."""
        faults.checkpoint("object-write", path=Path(self._repo.path) / "objects")
        return str(self._write("", self._folders[""], changes, modes or {}) or EMPTY_TREE)

    def _write(
        self,
        folder: str,
        entries: TreeFolder,
        changes: Mapping[str, bytes | None],
        modes: Mapping[str, bytes],
    ) -> pygit2.Oid | None:
        """``folder`` with ``changes`` (paths relative to it); None when it ends up empty."""
        nested: dict[str, dict[str, bytes | None]] = {}
        files: list[tuple[str, bytes | None]] = []
        for path, data in changes.items():
            name, slash, rest = path.partition("/")
            if slash:
                nested.setdefault(name, {})[rest] = data
            else:
                files.append((name, data))
        # Each sub-folder as it was before this write, even where this write puts a file
        # of the same name (a fresh build reads the folder from the tree it starts on).
        inner = {name: self._folder(folder, entries, name) for name in nested}
        for name, data in files:
            path = _join(folder, name)
            self._forget(path)
            if data is None:
                entries.remove(name)
            else:
                found = entries.get(name)
                mode = written_mode(None if found is None else found[0], modes.get(path))
                entries.set(name, mode, self._repo.create_blob(data).raw)
        for name, sub in inner.items():
            path = _join(folder, name)
            if self._keep:
                self._folders[path] = sub
            oid = self._write(path, sub, nested[name], modes)
            if oid is not None:
                entries.set(name, FOLDER, oid.raw)
            else:
                entries.remove(name)
        if not len(entries):
            return None
        raw = entries.raw()
        if self._objects is not None and len(raw) >= PLAIN_TREE_BYTES:
            return write_plain_tree(self._objects, raw)
        return self._odb.write(ObjectType.TREE, raw)

    def _folder(self, parent: str, entries: TreeFolder, name: str) -> TreeFolder:
        """``parent/name``: kept from a write before, else read from its tree."""
        kept = self._folders.get(_join(parent, name))
        if kept is not None:
            return kept
        entry = entries.get(name)
        if entry is not None and entry[0] == FOLDER:
            _kind, raw = self._odb.read(pygit2.Oid(raw=entry[1]))
            return TreeFolder(raw)
        return TreeFolder()

    def _forget(self, path: str) -> None:
        """Drop the kept folders of ``path`` and below: a file takes its place (or nothing)."""
        if not self._keep:
            return
        below = path + "/"
        for kept in [p for p in self._folders if p == path or p.startswith(below)]:
            del self._folders[kept]


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name
