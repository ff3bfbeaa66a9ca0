"""``GitStore`` for a bare repository, answered from git's own files where that is exact.

``dreamgit add`` at 10,000 memories spent more CPU importing pygit2 (~100 ms, its
certificate bundle included) than on everything else it does. An add reads a few refs,
commits and trees and the blobs on its path, writes one blob, the trees above it and a
commit or two, and moves one branch: loose objects, packs and plain ref files that the
standard library reads and writes (``leanobjects``, ``leanpacks``, ``leantrees``,
``leancommits``, ``leanrefmove``). :class:`LeanStore` answers each ``GitStore``
question it knows that way, byte for byte what libgit2 gives, and hands every doubt to
a real ``GitStore`` opened on the spot (``Doubt``: an object held by an alternate, a
lock file in the way, a reflog to write, an identity libgit2 would trim…), as well as
every question it does not know. Objects written before a doubt are harmless: loose
objects no ref names, which git's gc removes in time. Branch moves are compare-and-swap
under git's lock file, inside the writers' turn the committer holds, so the crash and
concurrency guarantees are libgit2's.

Only a bare repository whose HEAD names a branch, in a plain configuration (no SHA-256
ids, reftable, shared permissions or includes), gets one: a work tree's index and files
follow every commit, which is libgit2's job.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from dreamgit import faults
from dreamgit.gitstore.values import EMPTY_TREE, Change, CommitInfo, Identity, StaleTipError
from dreamgit.store import leantrees
from dreamgit.store.headref import read_head
from dreamgit.store.leancommits import read_commit, write_commit
from dreamgit.store.leandoubt import Doubt
from dreamgit.store.leanobjects import read_kind
from dreamgit.store.leanrefmove import branch_tip, move_branch
from dreamgit.store.leanrefs import branches_under, says_bare

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["LeanStore", "lean_store"]

_T = TypeVar("_T", bound=Callable[..., Any])

#: Settings in a repository's configuration that change how objects or refs are stored.
_REPOSITORY_DOUBTS = ("objectformat", "refstorage", "sharedrepository", "include", "worktree")
#: Environment that moves objects elsewhere.
_ENVIRONMENT_DOUBTS = ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES")


#: Where git is told to find the user's and the system's configuration instead.
_CONFIG_FILES = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")


def lean_store(path: Path) -> GitStore | None:
    """A LeanStore for the repository at ``path`` (typed as the ``GitStore`` it stands
    for), or None when it is not a plain bare repository with HEAD on a branch."""
    head = read_head(path)
    if head is None or not says_bare(head.git_dir) or len(head.commit) != 40:
        return None
    if any(name in os.environ for name in _ENVIRONMENT_DOUBTS):
        return None
    store = LeanStore(head.git_dir)
    if store.config_mentions(_REPOSITORY_DOUBTS, everywhere=False):
        return None
    return cast("GitStore", store)


def _read_config_texts(git_dir: Path) -> list[str | None]:
    """The repository's configuration ("" when it has none), then the user's and the
    system's that exist (which libgit2 also reads), lower-cased; None: unreadable."""
    home = Path(os.environ.get("HOME", "/nonexistent"))
    xdg = os.environ.get("XDG_CONFIG_HOME")
    files = [
        git_dir / "config",
        home / ".gitconfig",
        (Path(xdg) if xdg else home / ".config") / "git" / "config",
        Path("/etc/gitconfig"),
        *(Path(os.environ[name]) for name in _CONFIG_FILES if os.environ.get(name)),
    ]
    texts: list[str | None] = []
    for k, file in enumerate(files):
        try:
            texts.append(file.read_text(encoding="utf-8").lower())
        except FileNotFoundError:
            if k == 0:
                texts.append("")
        except (OSError, UnicodeDecodeError):
            texts.append(None)
    return texts


def _or_full(method: _T) -> _T:
    """``method``, or the same method of the full ``GitStore`` when it doubts."""
    name = method.__name__

    @functools.wraps(method)
    def answer(self: LeanStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Doubt:
            return getattr(self.full(), name)(*args, **kwargs)

    return cast(_T, answer)


class LeanStore:
    """The ``GitStore`` questions an add asks of a bare repository, without libgit2."""

    def __init__(self, git_dir: Path) -> None:
        self.git_dir = git_dir
        self.workdir: Path | None = None
        self._full: GitStore | None = None

    @functools.cached_property
    def _config_texts(self) -> list[str | None]:
        # Read once a process: an add asks three times.
        return _read_config_texts(self.git_dir)

    def config_mentions(self, words: tuple[str, ...], *, everywhere: bool) -> bool:
        """Whether the repository's configuration (``everywhere``: the user's and the
        system's too) names any of ``words`` or an include; unreadable: yes."""
        texts = self._config_texts if everywhere else self._config_texts[:1]
        return any(
            text is None or "include" in text or any(word in text for word in words)
            for text in texts
        )

    def full(self) -> GitStore:
        """The real ``GitStore`` of this repository, opened (and pygit2 imported) once."""
        if self._full is None:
            from dreamgit.gitstore import GitStore

            self._full = GitStore.open(self.git_dir)
        return self._full

    def __getattr__(self, name: str) -> Any:
        # Every question not answered here is the full store's.
        if name.startswith("__") or name == "_full":
            raise AttributeError(name)
        return getattr(self.full(), name)

    # -- refs ----------------------------------------------------------------------------

    @_or_full
    def head_branch(self) -> str | None:
        try:
            text = (self.git_dir / "HEAD").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raise Doubt("HEAD") from None
        if not text.startswith("ref: refs/heads/"):
            raise Doubt("HEAD")
        return text.removeprefix("ref: refs/heads/").rstrip("\n")

    def checked_out_branch(self) -> str | None:
        return None  # bare: nothing is checked out

    @_or_full
    def tip(self, branch: str) -> str | None:
        return branch_tip(self.git_dir, branch)

    @_or_full
    def branches(self, prefix: str = "") -> dict[str, str]:
        found = branches_under(self.git_dir, prefix) if prefix.endswith("/") else None
        if found is None:
            raise Doubt(prefix)
        return found

    @_or_full
    def commit_hooks(self) -> list[str]:
        if self.config_mentions(("hookspath",), everywhere=True):
            raise Doubt("core.hooksPath")
        folder = self.git_dir / "hooks"
        return [
            name
            for name in ("pre-commit", "commit-msg")
            if (folder / name).is_file() and os.access(folder / name, os.X_OK)
        ]

    # -- reading -------------------------------------------------------------------------

    @_or_full
    def commit_info(self, commit: str) -> CommitInfo:
        return read_commit(self.git_dir, commit).info

    @_or_full
    def tree_id(self, commit: str | None) -> str:
        return EMPTY_TREE if commit is None else read_commit(self.git_dir, commit).tree

    @_or_full
    def entry_id(self, commit: str | None, path: str) -> str | None:
        entry = self._entry(commit, path)
        return None if entry is None else entry.id

    @_or_full
    def read_path(self, commit: str | None, path: str) -> bytes | None:
        entry = self._entry(commit, path)
        if entry is None or entry.mode == leantrees.TREE:
            return None
        return read_kind(self.git_dir, entry.id, b"blob")

    @_or_full
    def files(self, commit: str | None, prefix: str = "") -> dict[str, str]:
        if commit is None:
            return {}
        return leantrees.files_under(self.git_dir, self.tree_id(commit), prefix)

    @_or_full
    def read(self, blob_id: str) -> bytes:
        return read_kind(self.git_dir, blob_id, b"blob")

    @_or_full
    def tree_changes(self, old: str | None, new: str | None, prefix: str) -> list[Change] | None:
        return leantrees.tree_changes(self.git_dir, old, new, prefix)

    def _entry(self, commit: str | None, path: str) -> leantrees.Entry | None:
        if commit is None:
            return None
        return leantrees.entry_at(self.git_dir, read_commit(self.git_dir, commit).tree, path)

    # -- writing -------------------------------------------------------------------------

    @_or_full
    def build_tree(
        self,
        base: str | None,
        changes: Mapping[str, bytes | None],
        modes: Mapping[str, bytes] | None = None,
    ) -> str:
        faults.checkpoint("object-write", path=self.git_dir / "objects")
        tree = None if base is None else read_commit(self.git_dir, base).tree
        return leantrees.build_tree(self.git_dir, tree, changes, modes)

    @_or_full
    def commit_unreferenced(
        self, *, parents: list[str], tree: str, message: str, who: Identity, when: datetime
    ) -> str:
        return write_commit(
            self.git_dir,
            tree=tree,
            parents=parents,
            message=message,
            committer=who,
            author=who,
            when=when,
        )

    @_or_full
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
        """As ``GitStore.commit``: on ``branch`` only if it is still at ``parents[0]``."""
        current = branch_tip(self.git_dir, branch)
        expected = parents[0] if parents else None
        if current != expected and not (current is None and parents):
            raise StaleTipError(branch)
        if current is None or expected is None:
            raise Doubt("a new branch")  # created as libgit2 creates it
        if self.config_mentions(("logallrefupdates",), everywhere=True):
            raise Doubt("a reflog may be kept")
        new = write_commit(
            self.git_dir,
            tree=tree,
            parents=parents,
            message=message,
            committer=who,
            author=author or who,
            when=when,
        )
        move_branch(self.git_dir, branch, expected=expected, new=new)
        return new
