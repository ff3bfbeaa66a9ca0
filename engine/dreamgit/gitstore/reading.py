"""Reading a repository: branch tips, refs, HEAD, trees, blobs, commits and diffs.

Trees are walked once, never looked up path by path; diffs are libgit2's tree diff.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygit2
from pygit2.enums import SortMode

from dreamgit.errors import InternalSignal
from dreamgit.gitstore.base import StoreBase
from dreamgit.gitstore.looseobject import read_loose_blob
from dreamgit.gitstore.plainobjects import objects_folder
from dreamgit.gitstore.values import EMPTY_TREE, Change, CommitInfo, Identity

__all__ = ["Reader"]


#: Files per folder by the folder's tree id: a tree id names its content, so a folder
#: no run changed is counted once however many runs a report looks at.
_FOLDER_SIZES: dict[tuple[str, str], int] = {}
_KEEP_FOLDER_SIZES = 100_000


def _walk(tree: pygit2.Tree, prefix: str, found: dict[str, str]) -> None:
    for entry in tree:
        if entry.type_str == "tree":
            _walk(entry.peel(pygit2.Tree), f"{prefix}{entry.name}/", found)
        elif entry.type_str == "blob":
            found[f"{prefix}{entry.name}"] = str(entry.id)


def _tree_changes(old: pygit2.Tree | None, new: pygit2.Tree | None) -> list[Change]:
    """Files that differ between two trees (None: the empty tree), by libgit2's tree diff."""
    if new is not None:
        diff = old.diff_to_tree(new) if old is not None else new.diff_to_tree(swap=True)
    elif old is not None:
        diff = old.diff_to_tree()
    else:
        return []
    changes = []
    for delta in diff.deltas:
        old_id = None if delta.old_file.id.raw == b"\0" * 20 else str(delta.old_file.id)
        new_id = None if delta.new_file.id.raw == b"\0" * 20 else str(delta.new_file.id)
        changes.append(Change(delta.new_file.path or delta.old_file.path, old_id, new_id))
    return changes


class _Submodule(InternalSignal):
    """A submodule changed: only libgit2's diff says how (see :meth:`Reader.diff`)."""

    def __init__(self) -> None:
        super().__init__("a submodule changed")


def _pruned_diff(
    old: pygit2.Tree | None,
    new: pygit2.Tree | None,
    prefix: str,
    out: list[Change],
    *,
    modes: bool = False,
) -> None:
    """The files that differ between two trees, into ``out``, descending only into the
    folders whose ids differ: one changed file of 10,000 costs the entries of its folders,
    where libgit2's diff reads every entry of both trees. Submodules are left out. With
    ``modes``, the changes are libgit2's: a file whose mode alone changed is one (its id
    on both sides), a file that became a link is a removal and an addition, and a changed
    submodule raises _Submodule."""
    before = {e.name: e for e in old} if old is not None else {}
    after = {e.name: e for e in new} if new is not None else {}
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        if (
            a is not None
            and b is not None
            and a.id == b.id
            and (not modes or a.filemode == b.filemode)
        ):
            continue
        if modes and "commit" in (getattr(a, "type_str", None), getattr(b, "type_str", None)):
            raise _Submodule
        a_tree = a.peel(pygit2.Tree) if a is not None and a.type_str == "tree" else None
        b_tree = b.peel(pygit2.Tree) if b is not None and b.type_str == "tree" else None
        if a_tree is not None or b_tree is not None:
            _pruned_diff(a_tree, b_tree, f"{prefix}{name}/", out, modes=modes)
        a_blob = str(a.id) if a is not None and a.type_str == "blob" else None
        b_blob = str(b.id) if b is not None and b.type_str == "blob" else None
        if modes and a is not None and b is not None and a_blob and b_blob and _type_changed(a, b):
            # A file become a link (or back): libgit2 says it was removed, then added.
            out.extend(
                (Change(f"{prefix}{name}", a_blob, None), Change(f"{prefix}{name}", None, b_blob))
            )
        elif a_blob is not None or b_blob is not None:
            out.append(Change(f"{prefix}{name}", a_blob, b_blob))


def _type_changed(a: pygit2.Object, b: pygit2.Object) -> bool:
    """Whether two tree entries differ in file type (a file, a symbolic link), their
    executable bits aside."""
    return (int(a.filemode) ^ int(b.filemode)) & 0o170000 != 0


class Reader(StoreBase):
    """Everything the store reads and never writes."""

    def tip(self, branch: str) -> str | None:
        """The commit a branch points at, or None when it does not exist."""
        ref = self._repo.references.get(f"refs/heads/{branch}")
        return None if ref is None else str(ref.target)

    def resolve(self, revision: str) -> str:
        """The commit id a revision (id, branch, ``main~2``…) names; KeyError if none."""
        obj = self._repo.revparse_single(revision)
        commit = obj.peel(pygit2.Commit)
        return str(commit.id)

    def remote_tips(self, remote: str) -> tuple[str, ...]:
        """The commits the remote-tracking refs of ``remote`` point at (what it already has)."""
        prefix = f"refs/remotes/{remote}/"
        refs = self._repo.references
        return tuple(
            sorted(
                {str(refs[name].peel(pygit2.Commit).id) for name in refs if name.startswith(prefix)}
            )
        )

    def branches(self, prefix: str = "") -> dict[str, str]:
        """Local branches whose name starts with ``prefix``, with their tips."""
        found = {}
        for name in self._repo.branches.local:
            if name.startswith(prefix):
                found[name] = str(self._repo.branches.local[name].target)
        return dict(sorted(found.items()))

    def refs(self, prefix: str) -> dict[str, str]:
        """Full ref names under ``prefix`` (``refs/heads/dream/``) and the commits they name."""
        found = {}
        for name in self._repo.references:
            if name.startswith(prefix):
                found[name] = str(self._repo.references[name].peel(pygit2.Commit).id)
        return dict(sorted(found.items()))

    def commit_hooks(self) -> list[str]:
        """The hooks ``git commit`` would run here that dreamgit does not (``pre-commit``,
        ``commit-msg``): executable files in ``core.hooksPath`` or the git directory's hooks."""
        try:
            folder = Path(str(self._repo.config["core.hooksPath"])).expanduser()
        except KeyError:
            folder = self.git_dir / "hooks"
        else:
            if not folder.is_absolute():
                folder = (self.workdir or self.git_dir) / folder
        return [
            name
            for name in ("pre-commit", "commit-msg")
            if (folder / name).is_file() and os.access(folder / name, os.X_OK)
        ]

    def git_identity(self) -> Identity | None:
        """``user.name`` and ``user.email`` of git's configuration, when both are set."""
        config = self._repo.config
        try:
            name, email = config["user.name"], config["user.email"]
        except KeyError:
            return None
        return Identity(str(name), str(email)) if name and email else None

    def head_branch(self) -> str | None:
        """The branch HEAD names (born or not, bare or not), or None when HEAD is detached."""
        head = self._repo.references.get("HEAD")
        if head is None or not isinstance(head.target, str):
            return None
        return head.target.removeprefix("refs/heads/")

    def checked_out_branch(self) -> str | None:
        """The branch HEAD names in a non-bare repository, else None."""
        if self._repo.is_bare:
            return None
        head = self._repo.references.get("HEAD")
        if head is None or not isinstance(head.target, str):
            return None
        return head.target.removeprefix("refs/heads/")

    def tree_id(self, commit: str | None) -> str:
        """The tree of a commit (the empty tree for None)."""
        if commit is None:
            return EMPTY_TREE
        return str(self._repo[commit].peel(pygit2.Commit).tree_id)

    def entry_id(self, commit: str | None, path: str) -> str | None:
        """The id of the tree or blob at ``path`` in a commit, or None when absent."""
        if commit is None:
            return None
        tree = self._repo[commit].peel(pygit2.Commit).tree
        try:
            return str(tree[path].id)
        except KeyError:
            return None

    def files(self, commit: str | None, prefix: str = "") -> dict[str, str]:
        """Every file under ``prefix`` at ``commit``: path → blob id, walked once."""
        if commit is None:
            return {}
        # Walk only the folder the prefix names: iterating trees is ~7x faster than a
        # pygit2.Index, and a topic's folder is a small part of a large repository.
        folder = prefix.rpartition("/")[0]
        tree = self._repo[commit].peel(pygit2.Commit).tree
        if folder:
            if folder not in tree or (tree / folder).type_str != "tree":
                return {}
            tree = (tree / folder).peel(pygit2.Tree)
        found: dict[str, str] = {}
        _walk(tree, f"{folder}/" if folder else "", found)
        if prefix == (f"{folder}/" if folder else ""):
            return found  # a folder's every path starts with it: 100,000 not filtered
        return {path: blob for path, blob in found.items() if path.startswith(prefix)}

    def folder_sizes(self, commit: str | None, folder: str, suffix: str = "") -> dict[str, int]:
        """Each sub-folder of ``folder`` at ``commit`` → how many files directly in it end
        with ``suffix``; reads only those folders (a report's memories per topic per run)."""
        if commit is None:
            return {}
        tree = self._repo[commit].peel(pygit2.Commit).tree
        if folder not in tree or (tree / folder).type_str != "tree":
            return {}
        sizes: dict[str, int] = {}
        for entry in (tree / folder).peel(pygit2.Tree):
            if entry.type_str == "tree" and entry.name:
                key = (str(entry.id), suffix)
                if key not in _FOLDER_SIZES:
                    sub = entry.peel(pygit2.Tree)
                    if len(_FOLDER_SIZES) > _KEEP_FOLDER_SIZES:
                        _FOLDER_SIZES.clear()
                    _FOLDER_SIZES[key] = sum(
                        e.type_str == "blob" and (e.name or "").endswith(suffix) for e in sub
                    )
                sizes[entry.name] = _FOLDER_SIZES[key]
        return sizes

    def read(self, blob_id: str) -> bytes:
        """The bytes of a blob (KeyError when the repository does not hold it)."""
        # A loose blob from its file (``looseobject``: 0.7x the CPU of libgit2's read,
        # the same bytes, checked by its hash); any other through the object database,
        # whose raw read makes no object to peel: half the cost of ``repo[id].data``.
        if self._loose_objects is None:
            folder = objects_folder(self._repo)
            self._loose_objects = "" if folder is None else str(folder)
        if self._loose_objects:
            found = read_loose_blob(self._loose_objects, blob_id)
            if found is not None:
                return found
        kind, data = self._repo.odb.read(blob_id)
        if kind != pygit2.enums.ObjectType.BLOB:
            return bytes(self._repo[blob_id].peel(pygit2.Blob).data)  # its own error
        return data

    def read_path(self, commit: str | None, path: str) -> bytes | None:
        """The bytes of one file at a commit, or None when it is not there."""
        if commit is None:
            return None
        tree = self._repo[commit].peel(pygit2.Commit).tree
        try:
            entry = tree[path]
        except KeyError:
            return None
        obj = self._repo[entry.id]
        return bytes(obj.data) if isinstance(obj, pygit2.Blob) else None

    def commit_info(self, commit: str) -> CommitInfo:
        """Message, parents and time of one commit."""
        c = self._repo[commit].peel(pygit2.Commit)
        return CommitInfo(
            id=str(c.id),
            parents=tuple(str(p) for p in c.parent_ids),
            message=c.message,
            time=c.commit_time,
            author=f"{c.author.name} <{c.author.email}>",
        )

    def walk(
        self, start: str, *, first_parent: bool = False, hide: tuple[str, ...] = ()
    ) -> Iterator[CommitInfo]:
        """Commits reachable from ``start`` but not from ``hide``, newest first (topological)."""
        walker = self._repo.walk(start, SortMode.TOPOLOGICAL | SortMode.TIME)
        if first_parent:
            walker.simplify_first_parent()
        for hidden in hide:
            walker.hide(hidden)
        for c in walker:
            yield self.commit_info(str(c.id))

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when ``ancestor`` is ``descendant`` or one of its ancestors."""
        return ancestor == descendant or bool(self._repo.descendant_of(descendant, ancestor))

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of two commits."""
        base = self._repo.merge_base(a, b)
        return None if base is None else str(base)

    def diff(self, old: str | None, new: str | None, prefix: str = "") -> list[Change]:
        """Files under ``prefix`` that differ between two commits (None: the empty tree)."""
        a = None if old is None else self._repo[old].peel(pygit2.Commit).tree
        b = None if new is None else self._repo[new].peel(pygit2.Commit).tree
        # Only the folders whose ids differ are read (~0.1 ms for an add's commit at
        # 10,000 memories, where libgit2's diff reads both trees whole: ~10 ms, twice an
        # add in a work tree); the same changes, but where a submodule moved.
        changes: list[Change] = []
        try:
            _pruned_diff(a, b, "", changes, modes=True)
        except _Submodule:
            changes = _tree_changes(a, b)
        return sorted((c for c in changes if c.path.startswith(prefix)), key=lambda c: c.path)

    def tree_changes(self, old: str | None, new: str | None, prefix: str) -> list[Change] | None:
        """Files that differ between two tree ids (None: the empty tree), their paths with
        ``prefix`` (where the trees sit) in front; None when an id is not a tree held here."""
        trees: list[pygit2.Tree | None] = []
        for tree_id in (old, new):
            found = None if tree_id is None else self._repo.get(tree_id)
            if found is None:
                if tree_id is not None:
                    return None
                trees.append(None)
            elif isinstance(found, pygit2.Tree):
                trees.append(found)
            else:
                return None
        changes: list[Change] = []
        _pruned_diff(trees[0], trees[1], prefix, changes)
        return changes

    def changed_paths(self, commit: str) -> list[Change]:
        """What one commit changed against its first parent."""
        info = self.commit_info(commit)
        parent = info.parents[0] if info.parents else None
        old = self._repo[parent].peel(pygit2.Commit).tree if parent else None
        return _tree_changes(old, self._repo[commit].peel(pygit2.Commit).tree)
