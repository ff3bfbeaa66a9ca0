"""The everyday writes: one commit each, git-readable history, restore byte for byte."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.errors import NotFoundError, UserError
from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import parse_session
from gitcheck import NOW, fsck, git, subjects, tree_files


@pytest.fixture(params=[True, False], ids=["bare", "worktree"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryRepo:
    """A fresh memory repository, bare or with main checked out."""
    return MemoryRepo.init(tmp_path / "mem", bare=request.param, now=NOW)


def _path(repo: MemoryRepo) -> Path:
    return repo.store.workdir or repo.store.git_dir


def test_each_operation_is_one_commit_naming_it(repo: MemoryRepo) -> None:
    """init, log, add, forget and restore each add exactly one commit; git reads them all."""
    path = _path(repo)
    assert subjects(path) == ["init: dreamgit memory repository"]
    session = operations.log_session(repo, "User prefers pytest.", now=NOW)
    assert subjects(path)[0] == f"log: session {session.id}"
    memory = operations.add_memory(repo, "Prefers pytest", topic="preferences", now=NOW)
    assert subjects(path)[0] == f"add: {memory.id} preferences/prefers-pytest"
    operations.forget(repo, [memory.id], now=NOW)
    assert subjects(path)[0] == f"forget: {memory.id}"
    restoring.restore(repo, memory.id, now=NOW)
    assert subjects(path)[0] == f"restore: {memory.id}"
    assert len(subjects(path)) == 5
    trailers = git(path, "log", "--format=%(trailers:key=Dream-Op,valueonly)", "main").split()
    assert trailers == ["restore", "forget", "add", "log", "init"]
    fsck(path)


def test_init_writes_config_and_index(repo: MemoryRepo) -> None:
    """The first commit holds the default config and an empty MEMORY.md."""
    assert tree_files(_path(repo)) == [".dreamgit/config.yaml", "MEMORY.md"]
    assert "extends: default" in (repo.read_text(".dreamgit/config.yaml") or "")
    repo.require_initialised()


def test_init_twice_is_refused_and_changes_nothing(repo: MemoryRepo, tmp_path: Path) -> None:
    """A second init says the repository is already one and makes no commit."""
    tip = repo.tip()
    with pytest.raises(UserError) as caught:
        MemoryRepo.init(tmp_path / "mem", now=NOW)
    assert caught.value.render() == (
        f"{tmp_path / 'mem'} is already a dreamgit memory repository\n"
        "hint: use it as it is; `dreamgit status` shows what it holds"
    )
    assert repo.tip() == tip


def test_init_adopts_an_existing_git_repository(tmp_path: Path) -> None:
    """init in a repository with history adds one commit on top and keeps its files."""
    path = tmp_path / "existing"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("mine\n")
    git(path, "add", "README.md")
    git(path, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qm", "first")
    MemoryRepo.init(path, now=NOW)
    assert subjects(path) == ["init: dreamgit memory repository", "first"]
    assert (path / "MEMORY.md").is_file() and (path / ".dreamgit/config.yaml").is_file()
    assert git(path, "status", "--porcelain") == ""


def test_init_adopts_a_folders_executable_as_one(tmp_path: Path) -> None:
    """A folder adopted with a script in it: the adopt commit keeps the script's mode,
    as ``git add`` would, and git sees nothing changed."""
    path = tmp_path / "folder"
    script = path / "tools" / "run.sh"
    script.parent.mkdir(parents=True)
    script.write_text("echo run\n")
    script.chmod(0o755)
    (path / "notes.md").write_text("plain\n")
    MemoryRepo.init(path, now=NOW)
    assert git(path, "ls-tree", "main", "tools/run.sh").split()[0] == "100755"
    assert git(path, "ls-tree", "main", "notes.md").split()[0] == "100644"
    assert git(path, "status", "--porcelain") == ""


def test_forget_then_restore_gives_back_the_same_bytes(repo: MemoryRepo) -> None:
    """A restored memory file is byte for byte the file that was forgotten."""
    memory = operations.add_memory(
        repo, "Uses uv to manage venvs", topic="tools", now=NOW, tags=["python"], key="py.env"
    )
    before = repo.store.read_path(repo.tip(), memory.path)
    operations.forget(repo, [memory.id], now=NOW + timedelta(hours=1))
    assert repo.store.read_path(repo.tip(), memory.path) is None
    restored = restoring.restore(repo, memory.id, now=NOW + timedelta(hours=2))
    assert restored == memory
    assert repo.store.read_path(repo.tip(), memory.path) == before


def test_restore_to_a_taken_path_picks_a_free_slug(repo: MemoryRepo) -> None:
    """When another memory took the path meanwhile, the restored file gets a new slug."""
    first = operations.add_memory(repo, "Likes tea", topic="food", now=NOW)
    operations.forget(repo, [first.id], now=NOW)
    other = operations.add_memory(repo, "Likes tea!", topic="food", now=NOW)
    assert other.path == first.path
    restored = restoring.restore(repo, first.id, now=NOW)
    assert restored.path == "memories/food/likes-tea-2.md"
    assert {m.id for m in repo.memories(now=NOW)} == {first.id, other.id}


def test_forget_several_ids_is_one_commit(repo: MemoryRepo) -> None:
    """Forgetting two memories at once is one commit listing both."""
    a = operations.add_memory(repo, "Fact a", topic="t", now=NOW)
    b = operations.add_memory(repo, "Fact b", topic="t", now=NOW)
    gone = operations.forget(repo, [a.id, b.id, a.id], now=NOW)
    assert [m.id for m in gone] == [a.id, b.id]
    assert subjects(_path(repo))[0] == f"forget: {a.id}, {b.id}"
    assert repo.memories(now=NOW) == []


def test_forget_unknown_id_changes_nothing(repo: MemoryRepo) -> None:
    """Forgetting an id that is not active is a NotFoundError and no commit."""
    a = operations.add_memory(repo, "Fact a", topic="t", now=NOW)
    tip = repo.tip()
    with pytest.raises(NotFoundError) as caught:
        operations.forget(repo, [a.id, "m-zzzzzzzz"], now=NOW)
    assert caught.value.render() == (
        "no active memory with id m-zzzzzzzz\nhint: list ids with `dreamgit memories`"
    )
    assert repo.tip() == tip


def test_restore_errors_are_clear(repo: MemoryRepo) -> None:
    """Restoring an active or never-seen id says so and changes nothing."""
    a = operations.add_memory(repo, "Fact a", topic="t", now=NOW)
    tip = repo.tip()
    with pytest.raises(UserError) as active:
        restoring.restore(repo, a.id, now=NOW)
    assert active.value.render() == f"memory {a.id} is already active\nhint: nothing to restore"
    with pytest.raises(NotFoundError) as never:
        restoring.restore(repo, "m-zzzzzzzz", now=NOW)
    assert never.value.render() == (
        "memory m-zzzzzzzz was never in this repository's history\n"
        "hint: check the id with `git log --grep` or `dreamgit history`"
    )
    assert repo.tip() == tip


def test_logged_session_reads_back(repo: MemoryRepo) -> None:
    """A logged session is stored under its date with its text, summary and tags."""
    session = operations.log_session(
        repo, "Talked about tests.\n", now=NOW, summary="tests", tags=["python"]
    )
    assert session.path == f"sessions/2026/11/22/{session.id}.md"
    text = repo.read_text(session.path) or ""
    assert parse_session(text, path=session.path, fallback_time=NOW) == session
    assert repo.session_paths() == {session.id: session.path}


def test_same_session_twice_gets_two_ids(repo: MemoryRepo) -> None:
    """Logging the same text at the same time twice keeps both sessions."""
    a = operations.log_session(repo, "same", now=NOW)
    b = operations.log_session(repo, "same", now=NOW)
    assert a.id != b.id
    assert len(repo.session_paths()) == 2


def test_same_memory_twice_gets_two_ids_and_slugs(repo: MemoryRepo) -> None:
    """Adding the same text twice gives two memories with distinct ids and paths."""
    a = operations.add_memory(repo, "Same fact", topic="t", now=NOW)
    b = operations.add_memory(repo, "Same fact", topic="t", now=NOW)
    assert a.id != b.id and a.path != b.path
    assert b.path == "memories/t/same-fact-2.md"


def test_memory_file_has_claude_and_dream_front_matter(repo: MemoryRepo) -> None:
    """An added memory is written in the DESIGN.md format."""
    memory = operations.add_memory(
        repo,
        "Prefers pytest over unittest for Python tests.",
        topic="preferences",
        now=NOW,
        tags=["testing", "python", "python"],
        key="python.test-runner",
        type="feedback",
    )
    assert repo.read_text(memory.path) == (
        "---\n"
        "name: prefers-pytest-over-unittest-python-tests\n"
        "description: Prefers pytest over unittest for Python tests.\n"
        "metadata:\n"
        "  type: feedback\n"
        "dream:\n"
        f"  id: {memory.id}\n"
        "  topic: preferences\n"
        "  priority: normal\n"
        "  key: python.test-runner\n"
        "  tags: [python, testing]\n"
        "  created: 2026-11-22T03:00:00Z\n"
        "  updated: 2026-11-22T03:00:00Z\n"
        "  sources: []\n"
        "  confidence: 1.0\n"
        "---\n"
        "Prefers pytest over unittest for Python tests.\n"
    )


BAD_TOPICS = ["../x", "A B", ".hidden", "", "a/b", "Caps", "x" * 65]


@pytest.mark.parametrize("topic", BAD_TOPICS)
def test_unsafe_topic_is_refused_and_changes_nothing(repo: MemoryRepo, topic: str) -> None:
    """A topic that could escape memories/ or is not a plain name is refused with the rule."""
    tip = repo.tip()
    with pytest.raises(UserError) as caught:
        operations.add_memory(repo, "text", topic=topic, now=NOW)
    assert caught.value.render() == (
        f"topic {topic!r} is not allowed\n"
        "hint: a topic is 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter "
        "or digit (no '/', '.', spaces or capitals)"
    )
    assert repo.tip() == tip


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"priority": "urgent"},
            "priority 'urgent' is not one of ephemeral, low, normal, high, core",
        ),
        ({"type": "opinion"}, "type 'opinion' is not one of user, feedback, project, reference"),
        ({"tags": ["Bad Tag"]}, "tag 'Bad Tag' is not allowed"),
    ],
)
def test_bad_add_options_are_refused(
    repo: MemoryRepo, kwargs: dict[str, object], message: str
) -> None:
    """Unknown priorities, types and unsafe tags are refused before anything is written."""
    tip = repo.tip()
    with pytest.raises(UserError) as caught:
        operations.add_memory(repo, "text", topic="t", now=NOW, **kwargs)  # type: ignore[arg-type]
    assert caught.value.message == message
    assert repo.tip() == tip


@pytest.mark.parametrize("text", ["", "   \n\t"])
def test_empty_texts_are_refused(repo: MemoryRepo, text: str) -> None:
    """An empty session or memory text is refused with what to do."""
    tip = repo.tip()
    with pytest.raises(UserError) as session:
        operations.log_session(repo, text, now=NOW)
    assert session.value.render() == "session is empty\nhint: give some text for the session"
    with pytest.raises(UserError) as memory:
        operations.add_memory(repo, text, topic="t", now=NOW)
    assert memory.value.render() == "memory is empty\nhint: give some text for the memory"
    assert repo.tip() == tip


def test_same_commands_at_same_now_give_same_commits(tmp_path: Path) -> None:
    """Two fresh repositories fed the same commands at the same time have identical commits."""
    tips = []
    for name in ("one", "two"):
        repo = MemoryRepo.init(tmp_path / name, bare=True, now=NOW)
        operations.log_session(repo, "Switched from Flask to FastAPI.", now=NOW)
        m = operations.add_memory(repo, "Uses FastAPI", topic="stack", now=NOW, tags=["web"])
        operations.forget(repo, [m.id], now=NOW)
        restoring.restore(repo, m.id, now=NOW)
        tips.append(git(tmp_path / name, "log", "--format=%H", "main"))
    assert tips[0] == tips[1]
    assert len(tips[0].split()) == 5


def test_added_id_is_unique_even_when_the_same_text_moved_topic(repo: MemoryRepo) -> None:
    """A memory moved by hand keeps its id; adding its text again gets a new one."""
    first = operations.add_memory(repo, "Same fact", topic="t", now=NOW)
    data = repo.store.read_path(repo.tip(), first.path)
    moved = {first.path: None, "memories/other/same-fact.md": data}
    repo.commit_main("hand: move", lambda _tip: moved, now=NOW)
    again = operations.add_memory(repo, "Same fact", topic="t", now=NOW)
    assert again.path == first.path and again.id != first.id
    snapshot = repo.snapshot(now=NOW)
    assert snapshot.broken == [] and {m.id for m in snapshot.memories} == {first.id, again.id}


def test_forget_without_ids_is_refused(repo: MemoryRepo) -> None:
    """forget of nothing is a user error saying what it needs; nothing is committed."""
    tip = repo.tip()
    with pytest.raises(UserError) as info:
        operations.forget(repo, [], now=NOW)
    assert info.value.render() == "forget needs at least one memory id\nhint: dreamgit forget ID…"
    assert repo.tip() == tip
