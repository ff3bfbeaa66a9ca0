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
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pygit2
from pygit2.enums import FileMode, FileStatus, MergeFlag, SortMode

from dreamgit.errors import NotARepositoryError
from dreamgit.store.locks import LockSeen, break_stale_lock, is_lock_error, retry_on_lock

__all__ = [
    "Change",
    "CommitInfo",
    "GitStore",
    "Identity",
    "StaleTipError",
]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


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
                oid = self._repo.create_commit(
                    ref, sig, sig, message, pygit2.Oid(hex=tree), parents
                )
                return str(oid)
            except (pygit2.GitError, pygit2.AlreadyExistsError, OSError) as exc:
                if _is_moved_error(exc):
                    raise StaleTipError(branch) from None
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen)
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
                break_stale_lock(exc, seen)

    def delete_branch(self, branch: str, *, expected: str) -> bool:
        """Delete ``branch`` if it still points at ``expected``; True when deleted."""
        ref = self._repo.references.get(f"refs/heads/{branch}")
        if ref is None or str(ref.target) != expected:
            return False
        ref.delete()
        return True

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

    def merge(self, ours: str, theirs: str) -> tuple[str | None, list[str]]:
        """Three-way merge of two commits in memory: (tree id, []) or (None, conflicting paths)."""
        index = self._repo.merge_commits(ours, theirs, flags=MergeFlag(0))
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
            file = workdir / path
            if file.is_file() and not file.is_symlink():
                data = file.read_bytes()
                if committed.get(path) != str(pygit2.hash(data)):
                    edits[path] = data
            elif not file.exists() and path in committed and path in self._repo.index:
                edits[path] = None
        return edits

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

    def sync_worktree(self, old: str | None, new: str) -> list[str]:
        """Bring the checked-out files from ``old`` to ``new``; returns paths left alone.

        A file is rewritten only where it still holds ``old``'s content, so
        nothing changed by hand is overwritten; the index follows each file.
        """
        workdir = self.workdir
        if workdir is None:
            return []
        index = self._repo.index
        index.read()
        skipped = []
        for change in self.diff(old, new):
            file = workdir / change.path
            current = str(pygit2.hash(file.read_bytes())) if file.is_file() else None
            if current not in (change.old, change.new):
                skipped.append(change.path)
                # Stage the new commit's version, so the hand edit shows as a change
                # against the branch and a plain `git commit` cannot undo the commit.
                if change.new is not None:
                    blob = pygit2.Oid(hex=change.new)
                    index.add(pygit2.IndexEntry(change.path, blob, FileMode.BLOB))
                elif change.path in index:
                    index.remove(change.path)
                continue
            if change.new is None:
                file.unlink(missing_ok=True)
                if change.path in index:
                    index.remove(change.path)
                continue
            if current != change.new:
                self._replace_file(file, self.read(change.new))
            index.add(change.path)
        seen: LockSeen = {}
        for _ in retry_on_lock("update of the work tree's index"):
            try:
                index.write()
                break
            except pygit2.GitError as exc:
                # libgit2 does not name the file here; a killed writer leaves index.lock.
                if not is_lock_error(exc):
                    raise
                break_stale_lock(exc, seen, self.git_dir / "index.lock")
        return skipped
