"""Moving refs safely: commits with an expected parent, ref transactions, stale lock files.

A commit names its expected parent, so libgit2 refuses the ref update when the branch
moved: the compare-and-swap every writer relies on. Other ref moves go through a
reference transaction that re-reads the ref under its lock. A lock file left by a dead
writer is broken (see ``gitstore.locks``) and the move retried.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pygit2

from dreamgit.errors import LockedError
from dreamgit.gitstore.locks import LockSeen, break_stale_lock, is_abandoned, retry_on_lock
from dreamgit.gitstore.staging import IndexStager
from dreamgit.gitstore.values import Identity, StaleTipError

__all__ = ["RefWriter"]

#: Refs only dreamgit writes, each under a dreamgit lock (a dream's, or the writers'
#: turn): a lock file on them that stays unchanged was left by a dead dreamgit.
PRIVATE_REFS = ("refs/heads/dream/", "refs/heads/dreamgit-revert/")


def _private(ref: str) -> bool:
    return ref.startswith(PRIVATE_REFS)


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


#: The lock file a libgit2 error names ("failed to lock file '/repo/.git/refs/heads/x.lock'").
_LOCK_FILE = re.compile(r"'([^']+\.lock)'")

#: libgit2's class for a failed system call (``GIT_ERROR_OS`` of ``git_error_t``).
_GIT_ERROR_OS = 2


def _lock_in_the_way(exc: Exception) -> str | None:
    """The lock file that kept libgit2 from a ref or the index, or None for any other error.

    libgit2 returns GIT_ELOCKED when it cannot create a lock file, and pygit2 keeps only
    the error's class: an ``OSError`` from its C calls, a ``GitError`` whose
    ``error_class`` is GIT_ERROR_OS from its cffi calls (transactions). That class, with
    the lock file libgit2 names, is the lock; an error of another class that speaks of a
    lock ("cannot lock ref 'x', there are refs beneath that folder") is not one.
    """
    failed_call = isinstance(exc, OSError) or getattr(exc, "error_class", None) == _GIT_ERROR_OS
    named = _LOCK_FILE.search(str(exc)) if failed_call else None
    return named[1] if named else None


@contextmanager
def _typed_git_errors(*, moved: str | None = None) -> Iterator[None]:
    """libgit2 errors as the types callers act on: a held lock is a :class:`LockedError`.

    With ``moved`` (a branch), that branch having moved under the commit is a
    :class:`StaleTipError`. Any other error passes unchanged.
    """
    try:
        yield
    except (pygit2.GitError, pygit2.AlreadyExistsError, OSError) as exc:
        if moved is not None and _is_moved_error(exc):
            raise StaleTipError(moved) from None
        lock = _lock_in_the_way(exc)
        if lock is None:
            raise
        raise LockedError(str(exc), lock=lock) from exc


def _lock_path(exc: LockedError) -> Path | None:
    return Path(exc.lock) if exc.lock else None


class RefWriter(IndexStager):
    """Branches and refs moved by compare-and-swap, or not at all (StaleTipError)."""

    def commit(
        self,
        branch: str,
        *,
        parents: list[str],
        tree: str,
        message: str,
        who: Identity,
        when: datetime,
        author: Identity | None = None,
    ) -> str:
        """Commit ``tree`` on ``branch`` if its tip is still ``parents[0]`` (else StaleTipError).

        A branch that does not exist yet is created when ``parents`` is empty or
        names the commit it should start from. ``who`` commits; ``author`` (default
        ``who``) wrote the change.
        """
        sig = pygit2.Signature(who.name, who.email, int(when.timestamp()), 0)
        wrote = sig
        if author is not None:
            wrote = pygit2.Signature(author.name, author.email, int(when.timestamp()), 0)
        ref = f"refs/heads/{branch}"
        seen: LockSeen = {}
        for _ in retry_on_lock(f"commit on {branch}", candidates=[self.git_dir / f"{ref}.lock"]):
            current = self.tip(branch)
            expected = parents[0] if parents else None
            if current != expected and not (current is None and parents):
                raise StaleTipError(branch)
            try:
                with _typed_git_errors(moved=branch):
                    return self._commit_at(
                        branch, current, parents, tree, message, wrote=wrote, sig=sig
                    )
            except LockedError as exc:
                break_stale_lock(_lock_path(exc), seen, private=_private(ref))
        raise AssertionError("unreachable")  # pragma: no cover

    def _commit_at(
        self,
        branch: str,
        current: str | None,
        parents: list[str],
        tree: str,
        message: str,
        *,
        wrote: pygit2.Signature,
        sig: pygit2.Signature,
    ) -> str:
        ref = f"refs/heads/{branch}"
        if current is None and parents:
            oid = self._repo.create_commit(None, wrote, sig, message, pygit2.Oid(hex=tree), parents)
            self._create_ref(ref, str(oid))
            return str(oid)
        if self._index_lock_depth and branch == self.checked_out_branch():
            oid = self._repo.create_commit(None, wrote, sig, message, pygit2.Oid(hex=tree), parents)
            self.move_branch(branch, new=str(oid), expected=current, message=message)
            return str(oid)
        oid = self._repo.create_commit(ref, wrote, sig, message, pygit2.Oid(hex=tree), parents)
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
        for _ in retry_on_lock(f"update of {branch}", candidates=[self.git_dir / f"{ref}.lock"]):
            try:
                with _typed_git_errors(), self._repo.transaction() as txn:
                    txn.lock_ref(ref)
                    current = self._repo.references.get(ref)
                    if current is None or str(current.target) != expected:
                        raise StaleTipError(branch)
                    txn.set_target(ref, pygit2.Oid(hex=new), message=message)
                return
            except LockedError as exc:
                break_stale_lock(_lock_path(exc), seen, private=_private(ref))

    def delete_branch(self, branch: str, *, expected: str) -> bool:
        """Delete ``branch`` if it still points at ``expected``; True when deleted."""
        name = f"refs/heads/{branch}"
        seen: LockSeen = {}
        for _ in retry_on_lock(f"deletion of {branch}", candidates=[self.git_dir / f"{name}.lock"]):
            ref = self._repo.references.get(name)
            if ref is None or str(ref.target) != expected:
                return False
            try:
                with _typed_git_errors():
                    ref.delete()
                return True
            except LockedError as exc:
                # A writer killed while it held the ref's lock left the lock file behind.
                break_stale_lock(_lock_path(exc), seen, private=_private(name))
        raise AssertionError("unreachable")  # pragma: no cover

    def move_refs(self, moves: Mapping[str, tuple[str, str]], *, message: str) -> None:
        """Move every ref ``name: (expected, new)`` in one transaction, or none (StaleTipError).

        All refs are locked first and checked against what was read, so a writer
        that moved one of them meanwhile makes the whole move fail and change nothing.
        """
        seen: LockSeen = {}
        for _ in retry_on_lock(
            "update of several refs", candidates=[self.git_dir / f"{n}.lock" for n in sorted(moves)]
        ):
            try:
                with _typed_git_errors(), self._repo.transaction() as txn:
                    for name in sorted(moves):
                        txn.lock_ref(name)
                    for name, (expected, _new) in moves.items():
                        current = self._repo.references.get(name)
                        if current is None or str(current.target) != expected:
                            raise StaleTipError(name)
                    for name, (_expected, new) in sorted(moves.items()):
                        txn.set_target(name, pygit2.Oid(hex=new), message=message)
                return
            except LockedError as exc:
                break_stale_lock(_lock_path(exc), seen)

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
