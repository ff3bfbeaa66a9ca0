"""Everything dreamgit asks of git, and the only module that imports pygit2.

Commits are built in memory (tree builders, never the work tree's index) and
written with an expected parent: libgit2 refuses the ref update when the
branch moved, which is the compare-and-swap every writer relies on. Other ref
moves go through a reference transaction that re-reads the ref under its lock.
Work-tree helpers find uncommitted agent edits and bring a checked-out branch's
files up to date without overwriting anything that was changed by hand.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pygit2
from pygit2.enums import FileMode, FileStatus, MergeFlag, SortMode

from dreamgit.errors import NotARepositoryError
from dreamgit.store.locks import (
    LockSeen,
    break_stale_lock,
    create_lock_file,
    is_abandoned,
    is_lock_error,
    retry_on_lock,
)

__all__ = [
    "Change",
    "CommitInfo",
    "GitStore",
    "Identity",
    "StaleTipError",
]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

#: Refs only dreamgit writes, each under a dreamgit lock (a dream's, or the writers'
#: turn): a lock file on them that stays unchanged was left by a dead dreamgit.
PRIVATE_REFS = ("refs/heads/dream/", "refs/heads/dreamgit-revert/")


def _private(ref: str) -> bool:
    return ref.startswith(PRIVATE_REFS)


class StaleTipError(Exception):
    """The branch moved since its tip was read: re-read, rebuild, retry."""


@dataclass(frozen=True)
class Identity:
    """Who commits: a name and an e-mail address."""

    name: str
    email: str


@dataclass(frozen=True)
class CommitInfo:
    """What the history commands need of one commit."""

    id: str
    parents: tuple[str, ...]
    message: str
    time: int
    author: str

    @property
    def subject(self) -> str:
        """The first line of the message."""
        return self.message.split("\n", 1)[0]


@dataclass(frozen=True)
class Change:
    """One path that differs between two commits (a blob id is None where absent)."""

    path: str
    old: str | None
    new: str | None


def _through_symlink(workdir: Path, path: str) -> bool:
    """Whether any component of ``path`` under ``workdir`` is a symbolic link."""
    here = workdir
    for part in path.split("/"):
        here = here / part
        if here.is_symlink():
            return True
    return False


def _is_moved_error(exc: Exception) -> bool:
    # libgit2 says the branch moved in two ways: before it reads the tip ("current
    # tip is not the first parent"), or between that read and taking the ref's lock
    # ("old reference value does not match"), which is the race concurrent writers hit.
    text = str(exc)
    return (
        isinstance(exc, pygit2.AlreadyExistsError)
        or "not the first parent" in text
        or "old reference value does not match" in text
    )


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


class GitStore:
    """A git repository, bare or with a work tree, seen as branches of trees of blobs."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self._repo = repo
        self._index_lock_depth = 0
        #: The commit the index shows while we hold index.lock (None: as it was).
        self._staged: str | None = None

    @classmethod
    def init(cls, path: Path, *, bare: bool = False, branch: str = "main") -> GitStore:
        """Create a repository whose first branch is ``branch``."""
        path.mkdir(parents=True, exist_ok=True)
        return cls(pygit2.init_repository(str(path), bare=bare, initial_head=branch))

    @classmethod
    def open(cls, path: Path) -> GitStore:
        """Open the repository at ``path`` (its work tree or its git directory)."""
        if not path.exists():
            raise NotARepositoryError(
                f"{path}: no such directory", hint=f"create one with `dreamgit init {path}`"
            )
        try:
            repo = pygit2.Repository(str(path), pygit2.enums.RepositoryOpenFlag.NO_SEARCH)
        except pygit2.GitError:
            raise NotARepositoryError(
                f"{path} is not a git repository",
                hint=f"create a memory repository with `dreamgit init {path}`, "
                "or pass --repo with the right path",
            ) from None
        return cls(repo)

    @property
    def git_dir(self) -> Path:
        """The ``.git`` directory (the repository itself when bare)."""
        return Path(self._repo.path)

    @property
    def workdir(self) -> Path | None:
        """The work tree, or None for a bare repository."""
        return None if self._repo.is_bare else Path(self._repo.workdir)

    # -- reading -------------------------------------------------------------------------

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
        return {path: blob for path, blob in found.items() if path.startswith(prefix)}

    def read(self, blob_id: str) -> bytes:
        """The bytes of a blob."""
        return bytes(self._repo[blob_id].peel(pygit2.Blob).data)

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
        changes = _tree_changes(a, b)
        return sorted((c for c in changes if c.path.startswith(prefix)), key=lambda c: c.path)

    def changed_paths(self, commit: str) -> list[Change]:
        """What one commit changed against its first parent."""
        info = self.commit_info(commit)
        parent = info.parents[0] if info.parents else None
        old = self._repo[parent].peel(pygit2.Commit).tree if parent else None
        return _tree_changes(old, self._repo[commit].peel(pygit2.Commit).tree)

    # -- writing -------------------------------------------------------------------------

    def write_blob(self, data: bytes) -> str:
        """Store bytes as a blob and return its id."""
        return str(self._repo.create_blob(data))

    def build_tree(self, base: str | None, changes: Mapping[str, bytes | None]) -> str:
        """A new tree: ``base``'s tree with files written (bytes) or removed (None)."""
        # Only the folders on the changed paths are rewritten (tree builders), so the
        # cost follows the change, not the size of the repository.
        tree = None if base is None else self._repo[base].peel(pygit2.Commit).tree
        return str(self._write_tree(tree, changes) or EMPTY_TREE)

    def _write_tree(
        self, tree: pygit2.Tree | None, changes: Mapping[str, bytes | None]
    ) -> pygit2.Oid | None:
        """``tree`` with ``changes`` (paths relative to it); None when it ends up empty."""
        builder = self._repo.TreeBuilder() if tree is None else self._repo.TreeBuilder(tree)
        nested: dict[str, dict[str, bytes | None]] = {}
        for path, data in changes.items():
            name, slash, rest = path.partition("/")
            if slash:
                nested.setdefault(name, {})[rest] = data
            elif data is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, self._repo.create_blob(data), FileMode.BLOB)
        for name, inner in nested.items():
            old = tree / name if tree is not None and name in tree else None
            sub = old.peel(pygit2.Tree) if old is not None and old.type_str == "tree" else None
            oid = self._write_tree(sub, inner)
            if oid is not None:
                builder.insert(name, oid, FileMode.TREE)
            elif builder.get(name) is not None:
                builder.remove(name)
        return builder.write() if len(builder) else None

    def commit(
        self,
        branch: str,
        *,
        parents: list[str],
        tree: str,
        message: str,
        who: Identity,
        when: datetime,
    ) -> str:
        """Commit ``tree`` on ``branch`` if its tip is still ``parents[0]`` (else StaleTipError).

        A branch that does not exist yet is created when ``parents`` is empty or
        names the commit it should start from.
        """
        sig = pygit2.Signature(who.name, who.email, int(when.timestamp()), 0)
        ref = f"refs/heads/{branch}"
        seen: LockSeen = {}
        for _ in retry_on_lock(f"commit on {branch}"):
            current = self.tip(branch)
            expected = parents[0] if parents else None
            if current != expected and not (current is None and parents):
                raise StaleTipError(branch)
            try:
                if current is None and parents:
                    oid = self._repo.create_commit(
                        None, sig, sig, message, pygit2.Oid(hex=tree), parents
                    )
                    self._create_ref(ref, str(oid))
                    return str(oid)
                if self._index_lock_depth and branch == self.checked_out_branch():
                    oid = self._repo.create_commit(
                        None, sig, sig, message, pygit2.Oid(hex=tree), parents
                    )
                    self.move_branch(branch, new=str(oid), expected=current, message=message)
                    return str(oid)
                oid = self._repo.create_commit(
                    ref, sig, sig, message, pygit2.Oid(hex=tree), parents
                )
                return str(oid)
            except (pygit2.GitError, pygit2.AlreadyExistsError, OSError) as exc:
                if _is_moved_error(exc):
                    raise StaleTipError(branch) from None
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen, private=_private(ref))
        raise AssertionError("unreachable")  # pragma: no cover

    def commit_unreferenced(
        self, *, parents: list[str], tree: str, message: str, who: Identity, when: datetime
    ) -> str:
        """A commit that no branch points at (a preview; git's gc removes it in time)."""
        sig = pygit2.Signature(who.name, who.email, int(when.timestamp()), 0)
        oid = self._repo.create_commit(None, sig, sig, message, pygit2.Oid(hex=tree), parents)
        return str(oid)

    def _create_ref(self, ref: str, target: str) -> None:
        try:
            self._repo.references.create(ref, pygit2.Oid(hex=target), force=False)
        except pygit2.AlreadyExistsError:
            raise StaleTipError(ref) from None

    def move_branch(self, branch: str, *, new: str, expected: str | None, message: str) -> None:
        """Point ``branch`` at ``new`` if it still points at ``expected`` (else StaleTipError)."""
        ref = f"refs/heads/{branch}"
        self._stage(branch, expected, new)
        if expected is None:
            self._create_ref(ref, new)
            return
        seen: LockSeen = {}
        for _ in retry_on_lock(f"update of {branch}"):
            try:
                with self._repo.transaction() as txn:
                    txn.lock_ref(ref)
                    current = self._repo.references.get(ref)
                    if current is None or str(current.target) != expected:
                        raise StaleTipError(branch)
                    txn.set_target(ref, pygit2.Oid(hex=new), message=message)
                return
            except pygit2.GitError as exc:
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen, private=_private(ref))

    def delete_branch(self, branch: str, *, expected: str) -> bool:
        """Delete ``branch`` if it still points at ``expected``; True when deleted."""
        name = f"refs/heads/{branch}"
        seen: LockSeen = {}
        for _ in retry_on_lock(f"deletion of {branch}"):
            ref = self._repo.references.get(name)
            if ref is None or str(ref.target) != expected:
                return False
            try:
                ref.delete()
                return True
            except (pygit2.GitError, OSError) as exc:
                # A writer killed while it held the ref's lock left the lock file behind.
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen, private=_private(name))
        raise AssertionError("unreachable")  # pragma: no cover

    def clear_stale_ref_locks(self, prefix: str) -> list[str]:
        """Remove lock files under a private ref folder (``refs/heads/dream/``) left by the dead.

        Call it holding the dreamgit lock that guards those refs; a lock file that
        was not there a moment ago, or that names a live process, stays.
        """
        folder = self.git_dir / prefix
        removed = []
        for lock in sorted(folder.rglob("*.lock")) if folder.is_dir() else []:
            if is_abandoned(lock, private=True):
                lock.unlink(missing_ok=True)
                removed.append(str(lock.relative_to(self.git_dir)))
        return removed

    def refs(self, prefix: str) -> dict[str, str]:
        """Full ref names under ``prefix`` (``refs/heads/dream/``) and the commits they name."""
        found = {}
        for name in self._repo.references:
            if name.startswith(prefix):
                found[name] = str(self._repo.references[name].peel(pygit2.Commit).id)
        return dict(sorted(found.items()))

    def tree_files(self, tree: str, seen: set[str], prefix: str = "") -> Iterator[tuple[str, str]]:
        """(path, blob id) of every file under ``tree`` whose folder is not in ``seen`` yet.

        ``seen`` grows with every folder listed, so walking many commits lists each
        distinct folder once: the cost follows what changed, not the history's length.
        """
        if tree in seen:
            return
        seen.add(tree)
        for entry in self._repo[tree].peel(pygit2.Tree):
            if entry.type_str == "tree":
                yield from self.tree_files(str(entry.id), seen, f"{prefix}{entry.name}/")
            elif entry.type_str == "blob":
                yield f"{prefix}{entry.name}", str(entry.id)

    def rewrite_tree(
        self, tree: str, swap: Mapping[str, str | None], memo: dict[str, tuple[str | None, bool]]
    ) -> str | None:
        """``tree`` with each blob named in ``swap`` replaced (by a blob id) or removed (None).

        Folders are rewritten once each (``memo``: old tree → new tree); a folder that
        holds none of the blobs keeps its id. None when the tree ends up empty.
        """
        if tree in memo:
            return memo[tree][0]
        old = self._repo[tree].peel(pygit2.Tree)
        builder = None
        for entry in old:
            oid = str(entry.id)
            if entry.type_str == "tree":
                new = self.rewrite_tree(oid, swap, memo)
            elif oid in swap:
                new = swap[oid]
            else:
                continue
            if new == oid:
                continue
            builder = builder or self._repo.TreeBuilder(old)
            name = str(entry.name)
            if new is None:
                builder.remove(name)
            else:
                builder.insert(name, pygit2.Oid(hex=new), entry.filemode)
        result = tree if builder is None else (str(builder.write()) if len(builder) else None)
        memo[tree] = (result, builder is not None)
        return result

    def tree_holds(self, tree: str, blobs: Mapping[str, object], memo: dict[str, bool]) -> bool:
        """Whether ``tree`` holds any of ``blobs`` at any depth (folders checked once each)."""
        if tree not in memo:
            memo[tree] = any(
                self.tree_holds(str(e.id), blobs, memo)
                if e.type_str == "tree"
                else str(e.id) in blobs
                for e in self._repo[tree].peel(pygit2.Tree)
            )
        return memo[tree]

    def recommit(self, original: str, *, parents: list[str], tree: str, message: str) -> str:
        """A copy of ``original`` with other parents, tree and message; its people and times kept.

        No ref moves: the copy is reachable only once a ref is pointed at it.
        """
        old = self._repo[original].peel(pygit2.Commit)
        oid = self._repo.create_commit(
            None,
            old.author,
            old.committer,
            message,
            pygit2.Oid(hex=tree),
            [pygit2.Oid(hex=p) for p in parents],
        )
        return str(oid)

    def move_refs(self, moves: Mapping[str, tuple[str, str]], *, message: str) -> None:
        """Move every ref ``name: (expected, new)`` in one transaction, or none (StaleTipError).

        All refs are locked first and checked against what was read, so a writer
        that moved one of them meanwhile makes the whole move fail and change nothing.
        """
        seen: LockSeen = {}
        for _ in retry_on_lock("update of several refs"):
            try:
                with self._repo.transaction() as txn:
                    for name in sorted(moves):
                        txn.lock_ref(name)
                    for name, (expected, _new) in moves.items():
                        current = self._repo.references.get(name)
                        if current is None or str(current.target) != expected:
                            raise StaleTipError(name)
                    for name, (_expected, new) in sorted(moves.items()):
                        txn.set_target(name, pygit2.Oid(hex=new), message=message)
                return
            except pygit2.GitError as exc:
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen)

    # Rename detection is off in merges and reverts: memory files share most of their
    # front matter, so git would take two different memories for one renamed file and
    # apply a change meant for one to the other.

    def merge(
        self, ours: str, theirs: str, *, ours_wins: tuple[str, ...] = ()
    ) -> tuple[str | None, list[str]]:
        """Three-way merge of two commits in memory: (tree id, []) or (None, conflicting paths).

        A conflict only in paths listed in ``ours_wins`` (generated files the caller
        rewrites anyway) takes ours for them; any other conflict is reported.
        """
        index = self._repo.merge_commits(ours, theirs, flags=MergeFlag(0))
        if ours_wins and index.conflicts is not None:
            conflicts = list(index.conflicts)
            paths = {e.path for entries in conflicts for e in entries if e is not None}
            if paths <= set(ours_wins):
                for _ancestor, mine, _theirs in conflicts:
                    path = next(e.path for e in (_ancestor, mine, _theirs) if e is not None)
                    del index.conflicts[path]
                    if mine is not None:
                        index.add(pygit2.IndexEntry(mine.path, mine.id, mine.mode))
                    elif path in index:
                        index.remove(path)
        return self._tree_or_conflicts(index)

    def revert(self, commit: str, onto: str) -> tuple[str | None, list[str]]:
        """The tree of ``onto`` with ``commit`` undone, or (None, conflicting paths)."""
        bad = self._repo[commit].peel(pygit2.Commit)
        parent: pygit2.Tree | str = (
            self._repo[bad.parent_ids[0]].peel(pygit2.Commit).tree if bad.parent_ids else EMPTY_TREE
        )
        index = self._repo.merge_trees(
            bad.tree, self._repo[onto].peel(pygit2.Commit).tree, parent, flags=MergeFlag(0)
        )
        return self._tree_or_conflicts(index)

    def _tree_or_conflicts(self, index: pygit2.Index) -> tuple[str | None, list[str]]:
        if index.conflicts is not None:
            paths: set[str] = set()
            for entries in index.conflicts:
                paths.update(e.path for e in entries if e is not None)
            return None, sorted(paths)
        return str(index.write_tree(self._repo)), []

    # -- work tree -----------------------------------------------------------------------

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

    def worktree_edits(self, prefixes: tuple[str, ...]) -> dict[str, bytes | None]:
        """Uncommitted changes under ``prefixes``: new or changed files, and deleted tracked ones.

        A file that matches the branch tip is not an edit, even if the index
        lags behind (an interrupted sync leaves exactly that).
        """
        workdir = self.workdir
        if workdir is None:
            return {}
        head = self.tip(self.checked_out_branch() or "")
        committed = self.files(head)
        edits: dict[str, bytes | None] = {}
        for path, flags in sorted(self._repo.status(untracked_files="all").items()):
            if not path.startswith(prefixes) or flags & FileStatus.IGNORED:
                continue
            if _through_symlink(workdir, path.rstrip("/")):
                continue  # not the repository's file: what lies outside is not an edit
            file = workdir / path
            if file.is_file() and not file.is_symlink():
                clean = self._clean_hash(workdir, path)
                if committed.get(path) != clean:
                    edits[path] = self._clean_bytes(path, file.read_bytes(), clean)
            elif not file.exists() and path in committed and path in self._repo.index:
                edits[path] = None
        return edits

    def _clean_hash(self, workdir: Path, path: str) -> str:
        """The blob id git would store for a work-tree file, its filters applied.

        ``core.autocrlf`` and ``.gitattributes`` turn CRLF into LF on the way in:
        a file that differs from the commit only by that is no edit.
        """
        try:
            return str(self._repo.hashfile(str(workdir / path), as_path=path))
        except (pygit2.GitError, OSError):
            return str(pygit2.hash((workdir / path).read_bytes()))

    def _clean_bytes(self, path: str, data: bytes, clean: str) -> bytes:
        """What git would commit for a work-tree file (``data`` when no filter changes it)."""
        if str(pygit2.hash(data)) == clean:
            return data
        return bytes(self._repo[self._repo.create_blob_fromworkdir(path)].peel(pygit2.Blob).data)

    def _replace_file(self, file: Path, data: bytes) -> None:
        # Written aside and renamed in, so a writer killed here leaves the old file or
        # the new one, never a torn file that would be taken for a hand edit.
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.git_dir / f"dreamgit-write-{os.getpid()}.tmp"
        tmp.write_bytes(data)
        try:
            os.replace(tmp, file)
        except OSError:  # the git directory lives on another file system
            tmp.unlink(missing_ok=True)
            file.write_bytes(data)

    @contextmanager
    def index_locked(self) -> Iterator[None]:
        """Hold git's own ``index.lock`` (re-entrant), as ``git add`` and ``git commit`` do.

        While it is held, every move of the checked-out branch stages the new
        commit in the index *before* the ref moves (see :meth:`_stage`). ``git
        commit`` reads HEAD, then the index (before it locks it), then moves HEAD
        by compare-and-swap: whichever moment it reads, it either sees the new
        index, or fails on the lock or on its own compare-and-swap. It never
        commits the old index on top of the new tip.
        """
        if self._index_lock_depth or self.workdir is None:
            self._index_lock_depth += 1
            try:
                yield
            finally:
                self._index_lock_depth -= 1
            return
        lock = self.git_dir / "index.lock"
        fd = create_lock_file(lock, "update of the work tree's index")
        self._index_lock_depth, self._staged = 1, None
        try:
            try:  # a holder killed after staging left the index showing its commit
                self._staged = self._staged_marker().read_text(encoding="ascii").strip()
                self.tree_id(self._staged)
            except (OSError, KeyError, ValueError):
                self._staged = None
            yield
        finally:
            try:
                # A move that failed after staging (or an error) leaves the index showing
                # a commit main does not hold: bring it back to main.
                tip = self.tip(self.checked_out_branch() or "")
                if self._staged is not None and tip is not None and self._staged != tip:
                    self._stage_index(self._staged, tip)
            finally:
                self._index_lock_depth, self._staged = 0, None
                self._staged_marker().unlink(missing_ok=True)
                os.close(fd)
                lock.unlink(missing_ok=True)

    def _stage(self, branch: str, old: str | None, new: str) -> None:
        """Before ``branch`` moves from ``old`` to ``new``: show ``new`` in the index (if held)."""
        if not self._index_lock_depth or branch != self.checked_out_branch():
            return
        self._stage_index(self._staged or old, new)

    def _staged_marker(self) -> Path:
        return self.git_dir / "dreamgit" / "index-staged"

    def _stage_index(self, old: str | None, new: str) -> None:
        edit = {c.path: c.new for c in self.diff(old, new)}
        self._staged = new
        if not edit:
            return
        marker = self._staged_marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(new + "\n", encoding="ascii")
        index_file = self.git_dir / "index"
        aside = self.git_dir / f"dreamgit-index-{os.getpid()}.tmp"
        aside.unlink(missing_ok=True)
        try:
            if index_file.exists():  # else libgit2 starts an empty one
                aside.write_bytes(index_file.read_bytes())
            index = pygit2.Index(str(aside))
            for path, blob in edit.items():
                if blob is None:
                    if path in index:
                        index.remove(path)
                else:
                    index.add(pygit2.IndexEntry(path, pygit2.Oid(hex=blob), FileMode.BLOB))
            index.write()
            # Our index.lock stays in place: only this process writes the index meanwhile.
            os.replace(aside, index_file)
        finally:
            aside.unlink(missing_ok=True)

    def sync_worktree(self, old: str | None, new: str) -> list[str]:
        """Bring the checked-out files from ``old`` to ``new``; returns paths left alone.

        A file is rewritten only where it still holds ``old``'s content, so
        nothing changed by hand is overwritten; the index follows each file
        (git's ``index.lock`` is held meanwhile, see :meth:`index_locked`).
        """
        workdir = self.workdir
        if workdir is None:
            return []
        with self.index_locked():
            return self._sync_locked(workdir, old, new)

    def _sync_locked(self, workdir: Path, old: str | None, new: str) -> list[str]:
        skipped = []
        for change in self.diff(old, new):
            file = workdir / change.path
            if _through_symlink(workdir, change.path):
                # A symlinked folder (or file) leads out of the work tree: never write there.
                skipped.append(change.path)
                continue
            current = self._clean_hash(workdir, change.path) if file.is_file() else None
            if current not in (change.old, change.new):
                # The hand edit stays; the index shows the new commit's version, so the
                # edit is a change against the branch and `git commit` cannot undo it.
                skipped.append(change.path)
            elif change.new is None:
                file.unlink(missing_ok=True)
            elif current != change.new:
                self._replace_file(file, self.read(change.new))
        if self._staged != new:
            self._stage_index(self._staged or old, new)
        return skipped
