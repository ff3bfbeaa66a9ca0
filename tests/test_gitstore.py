"""GitStore: in-memory trees, compare-and-swap commits and ref moves, and the work tree."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import ANY

import pytest

from dreamgit.errors import NotARepositoryError
from dreamgit.gitstore import EMPTY_TREE, Change, GitStore, Identity, StaleTipError
from gitcheck import NOW, fsck, git, subjects

WHO = Identity("Agent Smith", "agent@example.com")


def _commit(store: GitStore, changes: dict[str, bytes | None], message: str) -> str:
    tip = store.tip("main")
    tree = store.build_tree(tip, changes)
    return store.commit(
        "main", parents=[tip] if tip else [], tree=tree, message=message, who=WHO, when=NOW
    )


@pytest.mark.parametrize("bare", [True, False])
def test_init_makes_main_the_first_branch(tmp_path: Path, bare: bool) -> None:
    """A new repository's HEAD names main, bare or not."""
    store = GitStore.init(tmp_path / "r", bare=bare)
    assert git(tmp_path / "r", "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert store.tip("main") is None
    assert (store.workdir is None) == bare


def test_open_a_missing_directory_says_how_to_create_one(tmp_path: Path) -> None:
    """Opening a path that does not exist names it and suggests init."""
    with pytest.raises(NotARepositoryError) as caught:
        GitStore.open(tmp_path / "nope")
    assert caught.value.render() == (
        f"{tmp_path / 'nope'}: no such directory\n"
        f"hint: create one with `dreamgit init {tmp_path / 'nope'}`"
    )


def test_open_a_plain_directory_is_not_a_repository(tmp_path: Path) -> None:
    """A directory that is no git repository is refused (no search upwards)."""
    inner = tmp_path / "r"
    GitStore.init(tmp_path, bare=False)
    inner.mkdir()
    with pytest.raises(NotARepositoryError) as caught:
        GitStore.open(inner)
    assert caught.value.render() == (
        f"{inner} is not a git repository\n"
        f"hint: create a memory repository with `dreamgit init {inner}`, "
        "or pass --repo with the right path"
    )


def test_commit_writes_tree_author_time_and_message(tmp_path: Path) -> None:
    """A commit carries the given identity, time and message, and git reads it."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a/b.md": b"one\n", "c.md": b"two\n"}, "first\n\nDream-Op: x")
    assert store.tip("main") == first
    assert store.files(first) == {
        "a/b.md": git(tmp_path / "r", "rev-parse", "main:a/b.md").strip(),
        "c.md": git(tmp_path / "r", "rev-parse", "main:c.md").strip(),
    }
    assert store.files(first, "a/") == {"a/b.md": store.files(first)["a/b.md"]}
    assert store.files(first, "a/c") == {} and store.files(first, "c") == {"c.md": ANY}
    log = git(tmp_path / "r", "log", "-1", "--format=%an <%ae>|%at|%s|%(trailers:only,unfold)")
    assert (
        log.strip() == f"Agent Smith <agent@example.com>|{int(NOW.timestamp())}|first|Dream-Op: x"
    )
    info = store.commit_info(first)
    assert (info.subject, info.parents, info.author) == (
        "first",
        (),
        "Agent Smith <agent@example.com>",
    )
    fsck(tmp_path / "r")


def test_build_tree_removes_and_replaces_files(tmp_path: Path) -> None:
    """None removes a path, bytes replace it; unknown removals are ignored."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1", "b.md": b"2"}, "first")
    second = _commit(store, {"a.md": None, "b.md": b"3", "zz.md": None}, "second")
    assert store.read_path(second, "b.md") == b"3"
    assert store.read_path(second, "a.md") is None
    assert store.read_path(None, "a.md") is None
    assert store.diff(first, second) == [
        Change("a.md", store.files(first)["a.md"], None),
        Change("b.md", store.files(first)["b.md"], store.files(second)["b.md"]),
    ]
    assert store.changed_paths(second) == store.diff(first, second)
    assert [c.path for c in store.changed_paths(first)] == ["a.md", "b.md"]
    assert store.tree_id(None) == EMPTY_TREE


def test_commit_on_a_moved_branch_is_refused(tmp_path: Path) -> None:
    """The compare-and-swap: a commit whose parent is not the tip raises and moves nothing."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1"}, "first")
    second = _commit(store, {"a.md": b"2"}, "second")
    tree = store.build_tree(first, {"b.md": b"x"})
    with pytest.raises(StaleTipError):
        store.commit("main", parents=[first], tree=tree, message="late", who=WHO, when=NOW)
    with pytest.raises(StaleTipError):
        store.commit("main", parents=[], tree=tree, message="root", who=WHO, when=NOW)
    assert store.tip("main") == second
    assert subjects(tmp_path / "r") == ["second", "first"]


def test_commit_creates_a_new_branch_from_a_parent(tmp_path: Path) -> None:
    """A missing branch is created at a commit whose parent is given."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1"}, "first")
    tree = store.build_tree(first, {"b.md": b"x"})
    new = store.commit("dream/x", parents=[first], tree=tree, message="dream", who=WHO, when=NOW)
    assert store.branches("dream/") == {"dream/x": new}
    assert store.tip("main") == first
    assert store.is_ancestor(first, new) and not store.is_ancestor(new, first)
    assert store.merge_base(first, new) == first


def test_move_branch_is_compare_and_swap(tmp_path: Path) -> None:
    """move_branch moves only from the expected commit; delete_branch likewise."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1"}, "first")
    second = _commit(store, {"a.md": b"2"}, "second")
    store.move_branch("side", new=first, expected=None, message="create")
    with pytest.raises(StaleTipError):
        store.move_branch("side", new=second, expected=second, message="wrong")
    with pytest.raises(StaleTipError):
        store.move_branch("side", new=second, expected=None, message="exists")
    store.move_branch("side", new=second, expected=first, message="ok")
    assert store.tip("side") == second
    assert not store.delete_branch("side", expected=first)
    assert store.delete_branch("side", expected=second)
    assert store.tip("side") is None


def test_merge_and_revert_in_memory(tmp_path: Path) -> None:
    """Merges and reverts give a tree, or the conflicting paths."""
    store = GitStore.init(tmp_path / "r", bare=True)
    base = _commit(store, {"a.md": b"1\n", "b.md": b"1\n"}, "base")
    ours = _commit(store, {"a.md": b"ours\n"}, "ours")
    store.move_branch("side", new=base, expected=None, message="side")
    theirs_tree = store.build_tree(base, {"b.md": b"theirs\n"})
    theirs = store.commit("side", parents=[base], tree=theirs_tree, message="t", who=WHO, when=NOW)
    tree, conflicts = store.merge(ours, theirs)
    assert conflicts == [] and tree is not None
    clash_tree = store.build_tree(base, {"a.md": b"clash\n"})
    clash = store.commit("side", parents=[theirs], tree=clash_tree, message="c", who=WHO, when=NOW)
    assert store.merge(ours, clash) == (None, ["a.md"])
    reverted, none = store.revert(ours, ours)
    assert none == [] and reverted == store.tree_id(base)


def test_worktree_edits_finds_new_changed_and_deleted_files(tmp_path: Path) -> None:
    """Hand edits under the given prefixes are found; other paths and clean files are not."""
    store = GitStore.init(tmp_path / "r")
    _commit(store, {"memories/t/a.md": b"a\n", "memories/t/b.md": b"b\n", "README.md": b"r\n"}, "c")
    git(tmp_path / "r", "reset", "--hard", "-q")
    (tmp_path / "r/memories/t/a.md").write_bytes(b"edited\n")
    (tmp_path / "r/memories/t/b.md").unlink()
    (tmp_path / "r/memories/t/new.md").write_bytes(b"new\n")
    (tmp_path / "r/README.md").write_bytes(b"mine\n")
    assert store.worktree_edits(("memories/",)) == {
        "memories/t/a.md": b"edited\n",
        "memories/t/b.md": None,
        "memories/t/new.md": b"new\n",
    }
    assert store.checked_out_branch() == "main"


def test_worktree_edits_of_a_clean_work_tree_never_walk_the_tip_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clean work tree (every write's usual case) reads no tree; an edit still does."""
    store = GitStore.init(tmp_path / "r")
    _commit(store, {"memories/t/a.md": b"a\n", "memories/t/b.md": b"b\n"}, "c")
    git(tmp_path / "r", "reset", "--hard", "-q")
    walked: list[str | None] = []
    files = store.files
    monkeypatch.setattr(store, "files", lambda commit: walked.append(commit) or files(commit))
    (tmp_path / "r/notes.md").write_bytes(b"outside the prefixes\n")
    assert store.worktree_edits(("memories/",)) == {}
    assert walked == []
    (tmp_path / "r/memories/t/a.md").write_bytes(b"edited\n")
    assert store.worktree_edits(("memories/",)) == {"memories/t/a.md": b"edited\n"}
    assert walked == [store.tip("main")]


def test_sync_worktree_never_overwrites_hand_edits(tmp_path: Path) -> None:
    """Files still as committed follow the branch; a file changed by hand is left alone."""
    store = GitStore.init(tmp_path / "r")
    old = _commit(store, {"a.md": b"1\n", "b.md": b"1\n", "gone.md": b"g\n"}, "old")
    git(tmp_path / "r", "reset", "--hard", "-q")
    new = _commit(store, {"a.md": b"2\n", "b.md": b"2\n", "gone.md": None, "c.md": b"3\n"}, "new")
    (tmp_path / "r/b.md").write_bytes(b"mine\n")
    assert store.sync_worktree(old, new) == ["b.md"]
    assert (tmp_path / "r/a.md").read_bytes() == b"2\n"
    assert (tmp_path / "r/b.md").read_bytes() == b"mine\n"
    assert (tmp_path / "r/c.md").read_bytes() == b"3\n"
    assert not (tmp_path / "r/gone.md").exists()
    assert git(tmp_path / "r", "status", "--porcelain").splitlines() == [" M b.md"]


def test_bare_repository_has_no_work_tree_edits(tmp_path: Path) -> None:
    """Bare repositories report no edits and sync nothing."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1"}, "first")
    assert store.checked_out_branch() is None
    assert store.worktree_edits(("memories/",)) == {}
    assert store.sync_worktree(None, first) == []


def test_walk_lists_history_newest_first(tmp_path: Path) -> None:
    """walk gives commits newest first; resolve names revisions."""
    store = GitStore.init(tmp_path / "r", bare=True)
    ids = [_commit(store, {"a.md": str(i).encode()}, f"c{i}") for i in range(3)]
    assert [c.id for c in store.walk(ids[-1])] == ids[::-1]
    assert store.resolve("main~2") == ids[0]
    assert store.resolve("main") == ids[-1]


def test_lock_left_by_a_dead_writer_is_broken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ref lock file older than git's stale age is a crashed writer's: removed, commit lands."""
    # main.lock has no owner (git may hold it): only its age counts; pretend a long one passed.
    monkeypatch.setattr("dreamgit.gitstore.locks.GIT_LOCK_STALE_SECONDS", 0.2)
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(store, {"a.md": b"1"}, "first")
    lock = tmp_path / "r/refs/heads/main.lock"
    lock.write_text("")
    second = _commit(store, {"a.md": b"2"}, "second")
    assert not lock.exists()
    assert store.tip("main") == second
    lock.write_text("")
    store.move_branch("main", new=first, expected=second, message="back")
    assert store.tip("main") == first and not lock.exists()
    fsck(tmp_path / "r")


def test_tree_changes_are_the_difference_of_the_two_listings(tmp_path: Path) -> None:
    """Between two ``memories/`` trees: edits deep down, a folder gone, a file become a
    folder, new files; what differs is what the listings of both say, by path."""
    store = GitStore.init(tmp_path / "r", bare=True)
    first = _commit(
        store,
        {
            "memories/a/one.md": b"one",
            "memories/a/deep/two.md": b"two",
            "memories/b/three.md": b"three",
            "memories/c": b"a file",
            "memories/d/same.md": b"same",
        },
        "first",
    )
    second = _commit(
        store,
        {
            "memories/a/deep/two.md": b"two, edited",
            "memories/b/three.md": None,
            "memories/c": None,
            "memories/c/now-a-folder.md": b"four",
            "memories/e/new.md": b"five",
        },
        "second",
    )
    old, new = (store.entry_id(c, "memories") for c in (first, second))
    found = store.tree_changes(old, new, "memories/")
    before, after = store.files(first, "memories/"), store.files(second, "memories/")
    expected = {
        p: after.get(p) for p in before.keys() | after.keys() if before.get(p) != after.get(p)
    }
    assert found is not None and {c.path: c.new for c in found} == expected
    assert {c.path: c.old for c in found} == {p: before.get(p) for p in expected}
    assert store.tree_changes(None, new, "memories/") is not None
    assert store.tree_changes(store.entry_id(first, "memories/a/one.md"), new, "") is None
