"""A tree written again and again, a few files changed each time (a dream's commits).

Each write rewrites only the folders on the changed paths, as a tree builder per folder.
The builders are kept between writes, so the next write on top of this one starts from
what is in memory instead of reading those folders back from the object database: a
dream writes one commit per operation, and a topic folder of thousands of memories is
read once per run, not once per commit. The trees are the ones a fresh build gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from dreamgit import faults
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
        self._keep = keep
        root = repo.TreeBuilder() if tree is None else repo.TreeBuilder(tree)
        #: Builders of the folders written so far, by path ("" is the top); each holds
        #: the folder as the last write left it.
        self._folders: dict[str, pygit2.TreeBuilder] = {"": root}

    def write(self, changes: Mapping[str, bytes | None]) -> str:
        """The tree with ``changes`` applied (bytes written, None removed): its id."""
        faults.checkpoint("object-write", path=Path(self._repo.path) / "objects")
        return str(self._write("", self._folders[""], changes) or EMPTY_TREE)

    def _write(
        self, folder: str, builder: pygit2.TreeBuilder, changes: Mapping[str, bytes | None]
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
        inner = {name: self._folder(folder, builder, name) for name in nested}
        for name, data in files:
            self._forget(_join(folder, name))
            if data is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, self._repo.create_blob(data), FileMode.BLOB)
        for name, sub in inner.items():
            path = _join(folder, name)
            if self._keep:
                self._folders[path] = sub
            oid = self._write(path, sub, nested[name])
            if oid is not None:
                builder.insert(name, oid, FileMode.TREE)
            elif builder.get(name) is not None:
                builder.remove(name)
        return builder.write() if len(builder) else None

    def _folder(self, parent: str, builder: pygit2.TreeBuilder, name: str) -> pygit2.TreeBuilder:
        """The builder of ``parent/name``: kept from a write before, else read from its tree."""
        kept = self._folders.get(_join(parent, name))
        if kept is not None:
            return kept
        entry = builder.get(name)
        if entry is not None and entry.type_str == "tree":
            return self._repo.TreeBuilder(entry.peel(pygit2.Tree))
        return self._repo.TreeBuilder()

    def _forget(self, path: str) -> None:
        """Drop the kept builders of ``path`` and below: a file takes its place (or nothing)."""
        if not self._keep:
            return
        below = path + "/"
        for kept in [p for p in self._folders if p == path or p.startswith(below)]:
            del self._folders[kept]


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name
