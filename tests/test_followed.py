"""The work tree's files follow dreamgit's commits since the one they show, never git's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.gitstore import GitStore, Identity
from dreamgit.store.followed import Runs, commit_runs
from gitcheck import NOW

WHO = Identity("Someone", "someone@example.com")


@pytest.fixture
def store(tmp_path: Path) -> GitStore:
    return GitStore.init(tmp_path / "repo.git", bare=True)


def _commit(store: GitStore, name: str, *, dreamgit: bool, parent: str | None = None) -> str:
    """A commit on main adding ``name``: dreamgit's (with its trailer) or a plain one."""
    tip = store.tip("main") if parent is None else parent
    message = f"add {name}\n\nDream-Op: add" if dreamgit else f"add {name} with git"
    tree = store.build_tree(tip, {name: name.encode()})
    if parent is not None:
        return store.commit_unreferenced(
            parents=[parent], tree=tree, message=message, who=WHO, when=NOW
        )
    return store.commit(
        "main", parents=[tip] if tip else [], tree=tree, message=message, who=WHO, when=NOW
    )


def test_runs_of_dreamgit_commits_are_followed_and_git_commits_left_out(store: GitStore) -> None:
    shown = _commit(store, "a", dreamgit=True)
    d1 = _commit(store, "b", dreamgit=True)
    g2 = _commit(store, "c", dreamgit=False)
    _commit(store, "d", dreamgit=True)
    tip = _commit(store, "e", dreamgit=True)
    assert commit_runs(store, shown, tip) == Runs(
        followed=[(shown, d1), (g2, tip)], left=[(d1, g2)]
    )


def test_only_git_commits_since_the_shown_one_leave_the_files_alone(store: GitStore) -> None:
    shown = _commit(store, "a", dreamgit=True)
    _commit(store, "b", dreamgit=False)
    tip = _commit(store, "c", dreamgit=False)
    assert commit_runs(store, shown, tip) == Runs(left=[(shown, tip)])


def test_rewritten_history_or_no_shown_commit_follows_the_whole_difference(
    store: GitStore,
) -> None:
    base = _commit(store, "a", dreamgit=True)
    shown = _commit(store, "b", dreamgit=True)
    rewritten = _commit(store, "c", dreamgit=False, parent=base)
    assert commit_runs(store, shown, rewritten) == Runs(followed=[(shown, rewritten)])
    assert commit_runs(store, None, shown) == Runs(followed=[(None, shown)])


def test_a_commit_dreamgit_staged_itself_is_followed_whatever_its_message(
    store: GitStore,
) -> None:
    shown = _commit(store, "a", dreamgit=True)
    staged = _commit(store, "b", dreamgit=False)
    assert commit_runs(store, shown, staged) == Runs(left=[(shown, staged)])
    assert commit_runs(store, shown, staged, ours={staged}) == Runs(followed=[(shown, staged)])
