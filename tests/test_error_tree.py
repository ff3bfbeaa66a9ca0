"""The one exception tree: every error dreamgit defines derives from DreamgitError, and a
git lock in the way of a ref move is recognised by its type, not by words in a message."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pygit2
import pytest

import dreamgit
from dreamgit.errors import (
    DreamgitError,
    InternalSignal,
    LockedError,
    PatternError,
    ProposalFormatError,
    RuleFileError,
    StaleTipError,
    UserError,
)
from dreamgit.gitstore import GitStore, Identity
from dreamgit.gitstore.refs import _typed_git_errors
from gitcheck import NOW

WHO = Identity("Agent Smith", "agent@example.com")


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(dreamgit.__path__, "dreamgit."):
        module = importlib.import_module(info.name)
        for _name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
            ):
                found.append(value)
    return found


def test_every_exception_dreamgit_defines_is_in_the_one_tree() -> None:
    """No module of the package defines an exception outside DreamgitError's tree."""
    classes = _exception_classes()
    assert len(classes) > 20
    outside = sorted(
        f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, DreamgitError)
    )
    assert outside == []


def test_errors_that_joined_the_tree_keep_what_callers_catch() -> None:
    """ValueError stays a base where callers caught one; internal signals are marked."""
    assert issubclass(ProposalFormatError, ValueError)
    assert issubclass(PatternError, ValueError)
    assert issubclass(RuleFileError, UserError)
    assert issubclass(StaleTipError, InternalSignal)
    assert issubclass(LockedError, InternalSignal)


def _store_with_a_commit(tmp_path: Path) -> tuple[GitStore, str]:
    store = GitStore.init(tmp_path / "r", bare=True)
    tree = store.build_tree(None, {"a.md": b"a\n"})
    tip = store.commit("main", parents=[], tree=tree, message="first", who=WHO, when=NOW)
    return store, tip


def test_a_held_ref_lock_is_a_locked_error_naming_the_lock_file(tmp_path: Path) -> None:
    """libgit2 refusing a ref move because of a lock file becomes LockedError with its path."""
    store, tip = _store_with_a_commit(tmp_path)
    lock = store.git_dir / "refs" / "heads" / "main.lock"
    lock.write_text("held\n")
    repo = pygit2.Repository(str(store.git_dir))
    with pytest.raises(LockedError) as caught, _typed_git_errors():
        repo.references.create("refs/heads/main", pygit2.Oid(hex=tip), force=True)
    assert caught.value.lock is not None
    assert Path(caught.value.lock) == lock


def test_a_held_lock_in_a_ref_transaction_is_a_locked_error(tmp_path: Path) -> None:
    """pygit2's transactions report the lock as a GitError of libgit2's OS class: LockedError."""
    store, _tip = _store_with_a_commit(tmp_path)
    lock = store.git_dir / "refs" / "heads" / "main.lock"
    lock.write_text("held\n")
    repo = pygit2.Repository(str(store.git_dir))
    with pytest.raises(LockedError) as caught, _typed_git_errors(), repo.transaction() as txn:
        txn.lock_ref("refs/heads/main")
    assert isinstance(caught.value.__cause__, pygit2.GitError)
    assert caught.value.lock is not None and Path(caught.value.lock) == lock


def test_an_error_that_speaks_of_a_lock_but_is_none_passes_through(tmp_path: Path) -> None:
    """libgit2's "cannot lock ref 'x', there are refs beneath that folder" is a name clash, not a
    held lock: it keeps its type instead of being waited on as contention."""
    store, tip = _store_with_a_commit(tmp_path)
    repo = pygit2.Repository(str(store.git_dir))
    repo.references.create("refs/heads/topic/one", pygit2.Oid(hex=tip))
    with pytest.raises(pygit2.GitError, match="cannot lock ref") as caught, _typed_git_errors():
        repo.references.create("refs/heads/topic", pygit2.Oid(hex=tip), force=True)
    assert not isinstance(caught.value, LockedError)


def test_other_git_errors_pass_through_unchanged(tmp_path: Path) -> None:
    """A git error that is not about a lock keeps its own type."""
    store, tip = _store_with_a_commit(tmp_path)
    repo = pygit2.Repository(str(store.git_dir))
    with pytest.raises(pygit2.AlreadyExistsError), _typed_git_errors():
        repo.references.create("refs/heads/main", pygit2.Oid(hex=tip), force=False)


def test_a_moved_branch_is_a_stale_tip_when_asked(tmp_path: Path) -> None:
    """With ``moved``, libgit2 saying the branch moved becomes StaleTipError naming it."""
    store, tip = _store_with_a_commit(tmp_path)
    repo = pygit2.Repository(str(store.git_dir))
    with pytest.raises(StaleTipError, match=r"^main$"), _typed_git_errors(moved="main"):
        repo.references.create("refs/heads/main", pygit2.Oid(hex=tip), force=False)
