"""``status`` in a repository with a work tree answers without git when the work tree holds
the committed files, and says what the full path says; an edit, a staged change, a detached
HEAD or a dream on its way takes the full path, which counts or names it."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from dreamgit.cli.statusview import status_output
from dreamgit.clock import parse_time
from dreamgit.dream.leanstatus import lean_status
from dreamgit.dream.status import dream_lock_path
from dreamgit.store.leanrefs import work_tree_of
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW_TEXT, git
from statuskit import assert_lean_prints_as_full, full, make_dream_branch, run, without_git

NOW = parse_time(NOW_TEXT)

FACTS = [
    ("Keeps a sourdough starter named Bubbles in the fridge.", "kitchen", "normal"),
    ("Has a dentist appointment next Tuesday morning.", "plans", "ephemeral"),
    ("Speaks Dutch with the neighbours downstairs.", "identity", "core"),
]


def _answered(repo: Path) -> dict[str, object]:
    """What ``status --json`` prints, by whichever path answers."""
    lines, _problems = status_output(repo, NOW, as_json=True)
    return dict(json.loads(lines[0]))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A memory repository with a work tree, memories, a session and a kept status view."""
    path = tmp_path / "mem"
    run(tmp_path, "init", str(path))
    for text, topic, priority in FACTS:
        run(path, "add", text, "--topic", topic, "--priority", priority)
    run(path, "log", "The user mentioned the starter needs feeding twice a week.")
    run(path, "status")
    return path


def _memory_file(repo: Path) -> Path:
    return next((repo / "memories" / "kitchen").glob("*.md"))


def test_a_clean_work_tree_is_answered_without_git_as_the_full_path_answers(repo: Path) -> None:
    """The second status runs with pygit2 unimportable and prints the same, text and JSON."""
    assert_lean_prints_as_full(repo)
    assert lean_status(repo / ".git", NOW) == full(repo)


def test_an_add_in_the_work_tree_carries_the_view_to_its_commit(repo: Path) -> None:
    """After an add (whose files git staged without stat data) no git is read either."""
    before = full(repo)
    run(repo, "add", "Bakes rye bread on Saturdays.", "--topic", "kitchen")
    found = without_git(repo, "status", "--json")
    assert found.returncode == 0, found.stderr
    report = json.loads(found.stdout)
    assert report == full(repo)
    assert report["memories"] == before["memories"] + 1  # type: ignore[operator]


def _edit_in_place(file: Path, text: bytes) -> None:
    """Write ``text`` (as long as the old content) and put the old times back."""
    old = file.stat()
    assert len(text) == old.st_size
    file.write_bytes(text)
    os.utime(file, ns=(old.st_atime_ns, old.st_mtime_ns))


def _same_length_edit(repo: Path) -> None:
    file = _memory_file(repo)
    data = file.read_bytes()
    _edit_in_place(file, data.replace(b"Bubbles", b"Wobbles"))


def _new_memory(repo: Path) -> None:
    (repo / "memories" / "kitchen" / "hand-written.md").write_text("Likes rye bread.\n")


def _deleted_session(repo: Path) -> None:
    next((repo / "sessions").rglob("*.md")).unlink()


def _staged_change(repo: Path) -> None:
    file = _memory_file(repo)
    original = file.read_bytes()
    file.write_bytes(original + b"\nStaged, then undone in the work tree.\n")
    git(repo, "add", str(file.relative_to(repo)))
    file.write_bytes(original)


@pytest.mark.parametrize(
    "change", [_same_length_edit, _new_memory, _deleted_session, _staged_change]
)
def test_any_edit_or_staged_change_takes_the_full_path(repo: Path, change: object) -> None:
    """The lean path steps aside; the answer is the full path's, edits counted."""
    assert lean_status(repo, NOW) is not None
    change(repo)  # type: ignore[operator]
    assert lean_status(repo, NOW) is None
    report = _answered(repo)
    assert report == full(repo)


def test_an_edit_that_keeps_size_and_times_is_counted(repo: Path) -> None:
    """Same length, same modification time: the changed ctime sends the file to be hashed."""
    _same_length_edit(repo)
    assert lean_status(repo, NOW) is None
    assert _answered(repo)["uncommitted"] == {"memories": 1, "sessions": 0}


def test_a_touched_file_is_hashed_and_still_clean(repo: Path) -> None:
    """New times, same content: git's second look (the content's hash) says unchanged."""
    file = _memory_file(repo)
    os.utime(file, ns=(10**18, 10**18))
    assert lean_status(repo, NOW) == full(repo)


def test_a_touched_file_under_line_ending_rules_takes_the_full_path(repo: Path) -> None:
    """Where git may clean content before hashing it, raw bytes prove nothing."""
    git(repo, "config", "core.autocrlf", "input")
    os.utime(_memory_file(repo), ns=(10**18, 10**18))
    assert lean_status(repo, NOW) is None
    assert _answered(repo) == full(repo)


def test_a_memory_folder_replaced_by_a_link_takes_the_full_path(repo: Path, tmp_path: Path) -> None:
    """The same files, reached through a symbolic link: git's answer, not the walk's."""
    elsewhere = tmp_path / "elsewhere"
    (repo / "memories").rename(elsewhere)
    (repo / "memories").symlink_to(elsewhere)
    assert lean_status(repo, NOW) is None
    assert _answered(repo) == full(repo)


def test_an_index_written_by_hand_where_none_was_committed_takes_the_full_path(
    repo: Path,
) -> None:
    """MEMORY.md not in the commit but written in the work tree: the full path judges it."""
    git(repo, "rm", "-q", "MEMORY.md")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "no index")
    run(repo, "status")
    assert lean_status(repo, NOW) is not None
    (repo / "MEMORY.md").write_text("# Memory\n\nWritten by hand.\n")
    assert lean_status(repo, NOW) is None
    assert _answered(repo) == full(repo)


def test_a_touched_file_under_the_users_line_ending_rules_takes_the_full_path(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's own git configuration counts as much as the repository's."""
    user = tmp_path / "user.gitconfig"
    user.write_text("[core]\n\tautocrlf = input\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user))
    os.utime(_memory_file(repo), ns=(10**18, 10**18))
    assert lean_status(repo, NOW) is None
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "none"))
    assert lean_status(repo, NOW) is not None


def test_a_detached_head_takes_the_full_path(repo: Path) -> None:
    """HEAD at a commit, not a branch: no view is read."""
    git(repo, "checkout", "-q", "--detach")
    assert lean_status(repo, NOW) is None
    assert _answered(repo) == full(repo)


def test_a_repository_mid_dream_takes_the_full_path(repo: Path) -> None:
    """A dream holds its lock and has made its branch: the full path lists it as running."""
    make_dream_branch(repo, "a dream on its way")
    lock = dream_lock_path(MemoryRepo.open(repo))
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert lean_status(repo, NOW) is None
        report = _answered(repo)
        assert report == full(repo)
        assert report["running"] == ["dream/20261122T030000Z-abcd"]


def test_work_tree_of_reads_a_plain_non_bare_config_only(tmp_path: Path) -> None:
    """``bare = false`` and no other work tree named, in a folder called ``.git``."""
    git_dir = tmp_path / ".git"
    git_dir.mkdir()
    config = git_dir / "config"
    config.write_text("[core]\n\tbare = false\n")
    assert work_tree_of(git_dir) == tmp_path
    config.write_text("[core]\n\tbare = false\n\tworktree = /elsewhere\n")
    assert work_tree_of(git_dir) is None
    config.write_text("[core]\n\tbare = true\n")
    assert work_tree_of(git_dir) is None
