"""A memory repository with main checked out: the work tree follows, hand edits survive."""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git, subjects


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A memory repository with a work tree and main checked out."""
    return MemoryRepo.init(tmp_path / "mem", now=NOW)


def _wt(repo: MemoryRepo) -> Path:
    assert repo.store.workdir is not None
    return repo.store.workdir


def test_added_memory_appears_in_the_work_tree(repo: MemoryRepo) -> None:
    """add writes the file into the work tree and leaves git status clean."""
    memory = operations.add_memory(repo, "Prefers pytest", topic="prefs", now=NOW)
    assert (_wt(repo) / memory.path).read_bytes() == repo.store.read_path(repo.tip(), memory.path)
    session = operations.log_session(repo, "hello", now=NOW)
    assert (_wt(repo) / session.path).is_file()
    assert git(_wt(repo), "status", "--porcelain") == ""
    operations.forget(repo, [memory.id], now=NOW)
    assert not (_wt(repo) / memory.path).exists()
    assert git(_wt(repo), "status", "--porcelain") == ""
    fsck(_wt(repo))


def test_hand_edit_of_a_memory_survives_a_later_add(repo: MemoryRepo) -> None:
    """An uncommitted edit of one memory is committed as agent edits before the next add."""
    edited = operations.add_memory(repo, "Uses vim", topic="tools", now=NOW)
    file = _wt(repo) / edited.path
    hand = file.read_text().replace("Uses vim", "Uses neovim, not vim")
    file.write_text(hand)
    operations.add_memory(repo, "Uses zsh", topic="tools", now=NOW)
    assert file.read_text() == hand
    assert subjects(_wt(repo))[:2] == [
        subjects(_wt(repo))[0],
        "agent edits: 1 file(s) changed by hand",
    ]
    assert subjects(_wt(repo))[0].startswith("add: ")
    assert git(_wt(repo), "show", f"main:{edited.path}") == hand
    assert git(_wt(repo), "log", "-1", "--format=%b", "main~1").strip() == (
        f"{edited.path}\n\nDream-Op: agent-edits"
    )
    assert git(_wt(repo), "status", "--porcelain") == ""
    assert repo.get_memory(edited.id, now=NOW).text == "Uses neovim, not vim"


def test_memory_created_by_hand_is_committed_by_the_next_write(repo: MemoryRepo) -> None:
    """A new file under memories/ written by an agent is committed as agent edits."""
    path = _wt(repo) / "memories/notes/by-hand.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: by-hand\n---\nWritten by the agent itself.\n")
    session = operations.log_session(repo, "a session", now=NOW)
    assert subjects(_wt(repo))[:2] == [
        f"log: session {session.id}",
        "agent edits: 1 file(s) changed by hand",
    ]
    assert "memories/notes/by-hand.md" in git(_wt(repo), "ls-tree", "-r", "--name-only", "main")
    assert [m.text for m in repo.memories(now=NOW)] == ["Written by the agent itself."]
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_hand_deleted_memory_is_committed_as_removed(repo: MemoryRepo) -> None:
    """Deleting a memory file by hand is an agent edit too (and restore brings it back)."""
    memory = operations.add_memory(repo, "Temporary", topic="t", now=NOW)
    (_wt(repo) / memory.path).unlink()
    operations.log_session(repo, "later", now=NOW)
    assert subjects(_wt(repo))[1] == "agent edits: 1 file(s) changed by hand"
    assert repo.memories(now=NOW) == []


def test_edits_outside_memory_paths_are_left_alone(repo: MemoryRepo) -> None:
    """README.md and other files changed by hand stay uncommitted and untouched."""
    readme = _wt(repo) / "README.md"
    readme.write_text("my own notes\n")
    config = _wt(repo) / ".dreamgit/config.yaml"
    config.write_text(config.read_text() + "# tweak\n")
    operations.add_memory(repo, "A fact", topic="t", now=NOW)
    assert readme.read_text() == "my own notes\n"
    assert config.read_text().endswith("# tweak\n")
    assert sorted(git(_wt(repo), "status", "--porcelain").splitlines()) == [
        " M .dreamgit/config.yaml",
        "?? README.md",
    ]
    assert [s.split(":")[0] for s in subjects(_wt(repo))] == ["add", "init"]


def test_an_executable_script_edited_by_hand_stays_executable(repo: MemoryRepo) -> None:
    """A script a person keeps with the memories (mode 100755), edited in place: the
    agent-edits commit and the index keep its mode, and git sees nothing changed."""
    script = _wt(repo) / "memories" / "tools" / "backup.sh"
    script.parent.mkdir(parents=True)
    script.write_text("echo saving\n")
    script.chmod(0o755)
    git(_wt(repo), "add", "memories/tools/backup.sh")
    git(_wt(repo), "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "s")
    script.write_text("echo saving twice\n")
    operations.add_memory(repo, "A fact", topic="t", now=NOW)
    assert subjects(_wt(repo))[1] == "agent edits: 1 file(s) changed by hand"
    assert git(_wt(repo), "ls-tree", "main", "memories/tools/").split()[0] == "100755"
    assert git(_wt(repo), "ls-files", "-s", "memories/tools").split()[0] == "100755"
    assert git(_wt(repo), "status", "--porcelain") == ""
    fsck(_wt(repo))


def test_a_new_executable_written_by_the_agent_is_committed_executable(
    repo: MemoryRepo,
) -> None:
    """A script an agent writes under memories/ (no commit had it): the agent-edits commit
    and the index take its mode from the file, 100755, and git sees nothing changed."""
    script = _wt(repo) / "memories" / "tools" / "backup.sh"
    script.parent.mkdir(parents=True)
    script.write_text("echo saving\n")
    script.chmod(0o755)
    (_wt(repo) / "memories" / "tools" / "notes.txt").write_text("plain\n")
    operations.add_memory(repo, "A fact", topic="t", now=NOW)
    assert subjects(_wt(repo))[1] == "agent edits: 2 file(s) changed by hand"
    listed = git(_wt(repo), "ls-tree", "main", "memories/tools/").splitlines()
    assert [line.split()[0] for line in listed] == ["100755", "100644"]
    staged = git(_wt(repo), "ls-files", "-s", "memories/tools").splitlines()
    assert [line.split()[0] for line in staged] == ["100755", "100644"]
    assert git(_wt(repo), "status", "--porcelain") == ""
    fsck(_wt(repo))


def test_an_executable_made_plain_and_edited_by_hand_is_committed_plain(
    repo: MemoryRepo,
) -> None:
    """A committed script whose executable bit a person took away while editing it: the
    commit takes the file's mode, as ``git add`` would, and git sees nothing changed."""
    script = _wt(repo) / "memories" / "tools" / "backup.sh"
    script.parent.mkdir(parents=True)
    script.write_text("echo saving\n")
    script.chmod(0o755)
    operations.add_memory(repo, "A fact", topic="t", now=NOW)
    assert git(_wt(repo), "ls-tree", "main", "memories/tools/").split()[0] == "100755"
    script.write_text("echo saving twice\n")
    script.chmod(0o644)
    operations.add_memory(repo, "Another fact", topic="t", now=NOW)
    assert git(_wt(repo), "ls-tree", "main", "memories/tools/").split()[0] == "100644"
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_without_core_filemode_a_new_executable_is_committed_plain(repo: MemoryRepo) -> None:
    """Where git is told not to trust the executable bit (``core.fileMode false``), a new
    file is committed 100644, as ``git add`` stages it, and git sees nothing changed."""
    git(_wt(repo), "config", "core.fileMode", "false")
    script = _wt(repo) / "memories" / "tools" / "backup.sh"
    script.parent.mkdir(parents=True)
    script.write_text("echo saving\n")
    script.chmod(0o755)
    operations.add_memory(repo, "A fact", topic="t", now=NOW)
    assert git(_wt(repo), "ls-tree", "main", "memories/tools/").split()[0] == "100644"
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_an_executable_memory_file_rewritten_by_dreamgit_stays_executable(
    repo: MemoryRepo,
) -> None:
    """A memory file a person made executable and committed so, rewritten by a write of
    dreamgit's (a reinforcement): still 100755 in the commit, the index and the file."""
    memory = operations.add_memory(repo, "Prefers tea", topic="t", now=NOW)
    file = _wt(repo) / memory.path
    file.chmod(0o755)
    git(_wt(repo), "add", memory.path)
    git(_wt(repo), "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "x")
    before = file.read_bytes()
    operations.reinforce(repo, memory.id, now=NOW + timedelta(days=1))
    assert file.read_bytes() != before
    assert git(_wt(repo), "ls-tree", "main", memory.path).split()[0] == "100755"
    assert git(_wt(repo), "ls-files", "-s", memory.path).split()[0] == "100755"
    assert file.stat().st_mode & 0o111
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_other_branch_checked_out_leaves_work_tree_alone(repo: MemoryRepo) -> None:
    """With another branch checked out, writes go to main and the work tree is not touched."""
    git(_wt(repo), "checkout", "-q", "-b", "side")
    (_wt(repo) / "memories").mkdir()
    (_wt(repo) / "memories/scratch.md").write_text("draft\n")
    memory = operations.add_memory(repo, "On main only", topic="t", now=NOW)
    assert not (_wt(repo) / memory.path).exists()
    assert git(_wt(repo), "status", "--porcelain").splitlines() == ["?? memories/"]
    assert [s.split(":")[0] for s in subjects(_wt(repo))] == ["add", "init"]


def test_writer_that_died_before_updating_files_is_caught_up(repo: MemoryRepo) -> None:
    """A commit whose work-tree update never ran is not mistaken for hand edits later."""
    from dreamgit.gitstore import Identity

    kept = operations.add_memory(repo, "Keep me", topic="t", now=NOW)
    gone = operations.add_memory(repo, "Forget me", topic="t", now=NOW)
    changed = kept.path
    # What a `forget` plus a rewrite leaves when killed right after its commit:
    tip = repo.tip()
    assert tip is not None
    new_text = (repo.read_text(changed) or "").replace("Keep me", "Keep me, rewritten")
    tree = repo.store.build_tree(tip, {gone.path: None, changed: new_text.encode()})
    who = Identity("dreamgit", "dreamgit@localhost")
    died = "died: a forget and a rewrite\n\nDream-Op: forget"  # dreamgit's, as its trailer says
    repo.store.commit("main", parents=[tip], tree=tree, message=died, who=who, when=NOW)
    assert (_wt(repo) / gone.path).exists()
    operations.log_session(repo, "next command", now=NOW)
    assert [s.split(":")[0] for s in subjects(_wt(repo))][:2] == ["log", "died"]
    assert [m.text for m in repo.memories(now=NOW)] == ["Keep me, rewritten"]
    assert not (_wt(repo) / gone.path).exists()
    assert (_wt(repo) / changed).read_text() == new_text
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_index_lock_left_by_a_dead_writer_is_broken(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .git/index.lock left long ago does not stop the work tree from following main."""
    monkeypatch.setattr("dreamgit.gitstore.locks.GIT_LOCK_STALE_SECONDS", 0.2)
    lock = repo.store.git_dir / "index.lock"
    lock.write_text("")
    memory = operations.add_memory(repo, "After a crash", topic="t", now=NOW)
    assert not lock.exists()
    assert (_wt(repo) / memory.path).is_file()
    assert git(_wt(repo), "status", "--porcelain") == ""


def test_memory_deleted_by_hand_can_be_restored(repo: MemoryRepo) -> None:
    """A memory file an agent deleted comes back with restore, as its last version."""
    memory = operations.add_memory(repo, "Temporary", topic="t", now=NOW)
    file = _wt(repo) / memory.path
    file.write_text(file.read_text().replace("Temporary", "Temporary, edited"))
    operations.log_session(repo, "commits the edit", now=NOW)
    last = file.read_bytes()
    file.unlink()
    operations.log_session(repo, "commits the deletion", now=NOW)
    assert repo.memories(now=NOW) == []
    restored = restoring.restore(repo, memory.id, now=NOW)
    assert restored.text == "Temporary, edited"
    assert file.read_bytes() == last


def test_forget_of_a_memory_with_an_uncommitted_edit_removes_its_file(repo: MemoryRepo) -> None:
    """The edit is committed first, then forget removes the file; nothing comes back later."""
    memory = operations.add_memory(repo, "Uses vim daily", topic="tools", now=NOW)
    file = _wt(repo) / memory.path
    file.write_text(file.read_text().replace("Uses vim", "Uses neovim"))
    operations.forget(repo, [memory.id], now=NOW)
    assert not file.exists()
    assert git(_wt(repo), "status", "--porcelain") == ""
    operations.log_session(repo, "next command", now=NOW)
    assert repo.memories(now=NOW) == []
    assert [s.split(":")[0] for s in subjects(_wt(repo))][:3] == ["log", "forget", "agent edits"]


def test_symlinked_topic_folder_is_never_written_through(repo: MemoryRepo, tmp_path: Path) -> None:
    """`memories/evil -> elsewhere`: add commits the memory but writes nothing outside."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (_wt(repo) / "memories").mkdir(exist_ok=True)
    (_wt(repo) / "memories/evil").symlink_to(elsewhere)
    memory = operations.add_memory(repo, "Goes in the repository only", topic="evil", now=NOW)
    assert list(elsewhere.iterdir()) == []
    assert repo.store.read_path(repo.tip(), memory.path) is not None
    operations.log_session(repo, "next command", now=NOW)  # no deletion taken for an edit
    assert [m.id for m in repo.memories(now=NOW)] == [memory.id]
    assert list(elsewhere.iterdir()) == []


@pytest.mark.usefixtures("short_lock_wait")
def test_a_ref_lock_a_live_git_transaction_holds_is_never_broken(repo: MemoryRepo) -> None:
    """`git update-ref --stdin` holds main.lock: add waits, gives up saying so, lock intact."""
    from dreamgit.errors import ConcurrentUpdateError

    tip = repo.tip()
    assert tip is not None
    holder = subprocess.Popen(
        ["git", "-C", str(_wt(repo)), "update-ref", "--stdin"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    holder.stdin.write(f"start\nupdate refs/heads/main {tip} {tip}\nprepare\n")
    holder.stdin.flush()
    assert holder.stdout.readline() == "start: ok\n"
    assert holder.stdout.readline() == "prepare: ok\n"
    lock = repo.store.git_dir / "refs" / "heads" / "main.lock"
    try:
        with pytest.raises(ConcurrentUpdateError):
            operations.add_memory(repo, "Waits for git", topic="t", now=NOW)
        assert lock.exists()
    finally:
        out, _ = holder.communicate("commit\n", timeout=30)
    assert holder.returncode == 0 and out == "commit: ok\n"
    assert repo.tip() == tip


def test_line_endings_converted_by_autocrlf_are_not_agent_edits(repo: MemoryRepo) -> None:
    """core.autocrlf=true and CRLF files in the work tree: no agent edits, no CRLF committed."""
    git(_wt(repo), "config", "core.autocrlf", "true")
    # Opened again, as each command is a process: libgit2 keeps core.autocrlf as it first
    # read it for as long as a repository stays open.
    repo = MemoryRepo.open(_wt(repo))
    kept = operations.add_memory(repo, "Keeps LF", topic="t", now=NOW)
    gone = operations.add_memory(repo, "Forgotten later", topic="t", now=NOW)
    for memory in (kept, gone):  # what a checkout with autocrlf writes
        file = _wt(repo) / memory.path
        file.write_bytes(file.read_bytes().replace(b"\n", b"\r\n"))
    operations.forget(repo, [gone.id], now=NOW)
    operations.log_session(repo, "next command", now=NOW)
    assert not [s for s in subjects(_wt(repo)) if s.startswith("agent edits")]
    assert [m.id for m in repo.memories(now=NOW)] == [kept.id]
    assert not (_wt(repo) / gone.path).exists()
    assert b"\r" not in (repo.store.read_path(repo.tip(), kept.path) or b"\r")


@pytest.mark.usefixtures("short_lock_wait")
def test_a_young_index_lock_without_owner_is_left_and_named(repo: MemoryRepo) -> None:
    """A fresh index.lock (a `git add` running) is never broken: the error names it."""
    from dreamgit.errors import ConcurrentUpdateError

    lock = repo.store.git_dir / "index.lock"
    lock.write_text("")
    before = repo.tip()
    with pytest.raises(ConcurrentUpdateError) as caught:
        operations.add_memory(repo, "Waits for git add", topic="t", now=NOW)
    assert caught.value.message == (
        f"update of the work tree's index: {lock} stayed locked by another process"
    )
    assert caught.value.hint == (
        f"a git command may be running; if none is, remove {lock} and retry"
    )
    assert lock.exists() and repo.tip() == before


def test_memory_whose_last_version_was_broken_then_deleted_can_be_restored(
    repo: MemoryRepo,
) -> None:
    """Broken YAML committed, then the file deleted by hand: restore brings the last good one."""
    memory = operations.add_memory(repo, "Good version", topic="t", now=NOW)
    file = _wt(repo) / memory.path
    good = file.read_bytes()
    file.write_text(file.read_text().replace("priority:", "priority: [unclosed"))
    operations.log_session(repo, "commits the broken edit", now=NOW)
    file.unlink()
    operations.log_session(repo, "commits the deletion", now=NOW)
    restored = restoring.restore(repo, memory.id, now=NOW)
    assert restored.text == "Good version"
    assert file.read_bytes() == good
