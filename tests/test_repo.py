"""MemoryRepo: opening, reading memories with their problems, the parse cache, identity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamgit.errors import NotARepositoryError, NotFoundError
from dreamgit.ids import memory_id
from dreamgit.store import memoryfile, operations
from dreamgit.store.recordrow import FIELDS
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, git


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A fresh bare memory repository."""
    return MemoryRepo.init(tmp_path / "mem", bare=True, now=NOW)


def _put(repo: MemoryRepo, files: dict[str, bytes | None]) -> str:
    """Commit files as an agent would by hand (bypassing every check)."""
    new = repo.commit_main("hand: put files", lambda _tip: files, now=NOW)
    assert new is not None
    return new


GOOD = b"---\ndream:\n  id: m-goodgood\n  priority: high\n---\nA good memory.\n"


def test_open_a_path_that_is_not_a_git_repository(tmp_path: Path) -> None:
    """Opening a plain folder says it is not a git repository and how to make one."""
    with pytest.raises(NotARepositoryError) as caught:
        MemoryRepo.open(tmp_path)
    assert caught.value.render() == (
        f"{tmp_path} is not a git repository\n"
        f"hint: create a memory repository with `dreamgit init {tmp_path}`, "
        "or pass --repo with the right path"
    )


def test_git_repository_without_dreamgit_config_is_named_as_such(tmp_path: Path) -> None:
    """A plain git repository opens, but require_initialised says to run init."""
    git(tmp_path, "init", "-q", "-b", "main")
    repo = MemoryRepo.open(tmp_path)
    with pytest.raises(NotARepositoryError) as caught:
        repo.require_initialised()
    assert caught.value.render() == (
        f"{tmp_path} is a git repository but not a dreamgit memory repository "
        "(no .dreamgit/config.yaml on main)\n"
        f"hint: run `dreamgit init {tmp_path}` first"
    )


def test_broken_files_are_listed_and_the_rest_still_read(repo: MemoryRepo) -> None:
    """Every unreadable memory file is reported with file and line; good ones still load."""
    _put(
        repo,
        {
            "memories/a/good.md": GOOD,
            "memories/a/broken.md": b"---\nname: x\ntags: [a, b\n---\nbody\n",
            "memories/a/binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00",
            "memories/a/latin1.md": b"caf\xe9\n",
            "memories/a/urgent.md": b"---\ndream:\n  priority: urgent\n---\nx\n",
            "memories/Bad Topic/x.md": b"text\n",
            "memories/loose.md": b"text\n",
        },
    )
    snapshot = repo.snapshot(now=NOW)
    assert [m.id for m in snapshot.memories] == ["m-goodgood"]
    assert sorted(e.message for e in snapshot.broken) == [
        "memories/Bad Topic/x.md: not a memory file path",
        "memories/a/binary.md: is a binary file, not Markdown text",
        "memories/a/broken.md:4: front matter is not valid YAML: did not find expected ',' or ']'",
        "memories/a/latin1.md:1: is not UTF-8 text (bad byte 0xe9 at offset 3)",
        "memories/a/urgent.md:3: dream.priority: 'urgent' is not a priority",
        "memories/loose.md: not a memory file path",
    ]


def test_duplicate_ids_keep_the_first_and_report_the_second(repo: MemoryRepo) -> None:
    """Two files with one id: the first by path is used, the other is reported with a fix."""
    _put(repo, {"memories/a/one.md": GOOD, "memories/b/two.md": GOOD})
    snapshot = repo.snapshot(now=NOW)
    assert [m.path for m in snapshot.memories] == ["memories/a/one.md"]
    assert [e.render() for e in snapshot.broken] == [
        "memories/b/two.md: has the same id m-goodgood as memories/a/one.md\n"
        "hint: give one of them a new id, or merge them"
    ]


def test_file_without_dream_block_is_listed_with_defaults(repo: MemoryRepo) -> None:
    """A Claude-style file without `dream:` is a memory: id from the path, normal priority."""
    _put(repo, {"memories/prefs/tabs.md": b"---\nname: tabs\n---\nUses tabs.\n"})
    (memory,) = repo.memories(now=NOW)
    assert memory.id == memory_id("path", "memories/prefs/tabs.md")
    assert (memory.priority, memory.created, memory.text) == ("normal", NOW, "Uses tabs.")
    assert repo.get_memory(memory.id, now=NOW) == memory


def test_get_memory_unknown_id_says_how_to_find_ids(repo: MemoryRepo) -> None:
    """An unknown id names list and restore as the way on."""
    with pytest.raises(NotFoundError) as caught:
        repo.get_memory("m-nothere", now=NOW)
    assert caught.value.render() == (
        "no active memory with id m-nothere\n"
        "hint: list ids with `dreamgit memories`; a forgotten one comes back with "
        "`dreamgit restore ID`"
    )


def test_memories_filters_by_topic(repo: MemoryRepo) -> None:
    """memories(topic=...) keeps only that topic."""
    a = operations.add_memory(repo, "A", topic="one", now=NOW)
    operations.add_memory(repo, "B", topic="two", now=NOW)
    assert repo.memories(now=NOW, topic="one") == [a]


def test_parse_cache_parses_each_blob_once(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second scan, even by a new MemoryRepo, parses nothing; a changed file is reparsed."""
    _put(repo, {"memories/a/good.md": GOOD, "memories/a/bad.md": b"---\na: [\n---\n"})
    first = repo.snapshot(now=NOW)
    cache = repo.store.git_dir / "dreamgit" / "cache" / "memories.json"
    assert len(json.loads(cache.read_text())) == 2
    calls: list[str] = []
    real = memoryfile.parse_memory_record

    def counting(text: str, *, path: str) -> dict[str, object]:
        calls.append(path)
        return real(text, path=path)

    monkeypatch.setattr("dreamgit.store.memorycache.parse_memory_record", counting)
    again = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)
    assert calls == []
    assert again.memories == first.memories
    assert [e.render() for e in again.broken] == [e.render() for e in first.broken]
    _put(repo, {"memories/a/good.md": GOOD.replace(b"high", b"low")})
    assert repo.snapshot(now=NOW).memories[0].priority == "low"
    assert calls == ["memories/a/good.md"]
    assert len(json.loads(cache.read_text())) == 2


def test_a_big_parse_cache_is_let_go_after_a_full_read(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A map of more than ``_HELD`` records is not held after a snapshot: the next snapshot
    reads the cache file again (here rewritten as by another process); a small one is held,
    and a record asked alone after a big one was let go is parsed, not loaded with the map."""
    _put(repo, {"memories/a/good.md": GOOD, "memories/a/other.md": GOOD.replace(b"good", b"else")})
    cache = repo.store.git_dir / "dreamgit" / "cache" / "memories.json"
    blob = repo.store.files(repo.tip())["memories/a/good.md"]

    def cached_text(text: str) -> None:
        entries = json.loads(cache.read_text())
        entries[blob][1 + FIELDS.index("text")] = text  # a row (store/recordrow.py)
        cache.write_text(json.dumps(entries))

    first = repo.snapshot(now=NOW).memories
    cached_text("Said by the cache file.")
    assert repo.snapshot(now=NOW).memories == first  # held: the file is not read again
    monkeypatch.setattr("dreamgit.store.memorycache._HELD", 1)
    big = MemoryRepo.open(repo.store.git_dir)
    assert big.snapshot(now=NOW).memories[0].text == "Said by the cache file."
    cached_text("Said again by the cache file.")
    assert big.snapshot(now=NOW).memories[0].text == "Said again by the cache file."
    # one record asked after the map was let go is parsed from its file, not loaded
    # with the whole cache (an add at 100,000 loaded 63 MB again for its one new memory)
    record = big.source(big.tip()).record
    assert record("memories/a/good.md", blob)["text"] == "A good memory."


def test_a_big_parse_cache_read_taking_its_records_gives_the_same_snapshot(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache that is let go after the read gives up each record as its memory is made:
    the memories and broken files are those of a held cache, two files of one blob (the
    second's record parsed again) and a new file (parsed and saved before) among them."""
    copy = GOOD.replace(b"m-goodgood", b"m-copycopy")
    _put(repo, {"memories/a/good.md": GOOD, "memories/a/bad.md": b"---\na: [\n---\n"})
    repo.snapshot(now=NOW)  # the cache holds these two
    _put(repo, {"memories/b/same.md": copy, "memories/c/same.md": copy})
    with monkeypatch.context() as big:
        big.setattr("dreamgit.store.memorycache._HELD", 1)
        big.setattr("dreamgit.store.memorycache._FEW", 1)  # the new blob is saved first
        taken = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)
    held = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)  # from the saved cache
    assert [m.path for m in taken.memories] == ["memories/a/good.md", "memories/b/same.md"]
    assert taken.memories == held.memories
    assert [e.render() for e in taken.broken] == [e.render() for e in held.broken]
    assert len(taken.broken) == 2  # the broken file, and the second file of the blob
    cache = json.loads((repo.store.git_dir / "dreamgit" / "cache" / "memories.json").read_text())
    assert len(cache) == 3


def test_damaged_parse_cache_is_rebuilt(repo: MemoryRepo) -> None:
    """A cache file that is not JSON is ignored and rewritten."""
    _put(repo, {"memories/a/good.md": GOOD})
    cache = repo.store.git_dir / "dreamgit" / "cache" / "memories.json"
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("{not json")
    assert [m.id for m in MemoryRepo.open(repo.store.git_dir).memories(now=NOW)] == ["m-goodgood"]
    assert list(json.loads(cache.read_text())) == [
        repo.store.files(repo.tip())["memories/a/good.md"]
    ]


def test_identity_from_config_then_environment_then_default(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits are by the config's author, else GIT_AUTHOR_*, else dreamgit."""
    path = repo.store.git_dir
    operations.add_memory(repo, "one", topic="t", now=NOW)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Env Name")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "env@example.com")
    operations.add_memory(repo, "two", topic="t", now=NOW)
    config = (repo.read_text(".dreamgit/config.yaml") or "") + (
        "author: {name: Config Name, email: config@example.com}\n"
    )
    _put(repo, {".dreamgit/config.yaml": config.encode()})
    operations.add_memory(repo, "three", topic="t", now=NOW)
    authors = git(path, "log", "--format=%an <%ae>|%cn <%ce>", "main").splitlines()
    assert authors[:4] == [
        "Config Name <config@example.com>|Config Name <config@example.com>",
        "Env Name <env@example.com>|Env Name <env@example.com>",
        "Env Name <env@example.com>|Env Name <env@example.com>",
        "dreamgit <dreamgit@localhost>|dreamgit <dreamgit@localhost>",
    ]


def test_broken_config_is_a_config_error_with_its_line(repo: MemoryRepo) -> None:
    """A config that is not YAML is reported at its own line with a hint."""
    from dreamgit.errors import ConfigError

    _put(repo, {".dreamgit/config.yaml": b"extends: default\nauthor: {name: x\nllm: 1\n"})
    with pytest.raises(ConfigError) as caught:
        repo.config()
    assert caught.value.render() == (
        ".dreamgit/config.yaml:3: the configuration is not valid YAML: "
        "did not find expected ',' or '}'\nhint: fix the YAML syntax"
    )


def test_memory_ids_match_the_snapshot_and_come_from_a_small_cache(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """memory_ids gives the snapshot's ids; a fresh MemoryRepo answers it without parsing."""
    tip = _put(
        repo,
        {
            "memories/a/good.md": GOOD,
            "memories/a/plain.md": b"A plain memory without front matter.\n",
            "memories/a/broken.md": b"---\na: [\n---\n",
        },
    )
    ids = repo.memory_ids(tip)
    assert ids == {m.id for m in repo.snapshot(now=NOW).memories}
    assert ids == {"m-goodgood", memory_id("path", "memories/a/plain.md")}
    (repo.store.git_dir / "dreamgit" / "cache" / "memories.json").unlink()
    calls: list[str] = []
    real = memoryfile.parse_memory_record

    def counting(text: str, *, path: str) -> dict[str, object]:
        calls.append(path)
        return real(text, path=path)

    monkeypatch.setattr("dreamgit.store.memorycache.parse_memory_record", counting)
    assert MemoryRepo.open(repo.store.git_dir).memory_ids(tip) == ids
    assert calls == []


@pytest.mark.parametrize(
    ("author", "line", "shown"),
    [
        ('{name: "Evil\\nInjected-Header: x", email: a@example.com}', "2:16", "'\\n'"),
        ('\n  name: Agent\n  email: "a@example.com>\\r"\n', "4:10", "'>'"),
    ],
)
def test_author_that_would_break_a_commit_is_a_config_error(
    repo: MemoryRepo, author: str, line: str, shown: str
) -> None:
    """A newline or bracket in config `author` is refused at file:line:col; nothing committed."""
    from dreamgit.errors import ConfigError

    tip = _put(repo, {".dreamgit/config.yaml": f"extends: default\nauthor: {author}\n".encode()})
    key = "name" if line.startswith("2") else "email"
    with pytest.raises(ConfigError) as caught:
        repo.commit_main("x", lambda _tip: {"notes.txt": b"x"}, now=NOW)
    assert caught.value.render() == (
        f".dreamgit/config.yaml:{line}: author.{key}: {shown} cannot be part of a git identity"
        " (no line breaks, control characters, < or >)\n"
        "hint: write the name and the email address each on one line, e.g."
        " author: {name: My Agent, email: agent@example.com}"
    )
    assert repo.tip() == tip


def test_a_change_that_never_catches_up_with_main_gives_up_clearly(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step always built on a commit main has left behind: bounded retries (shortened here
    from committer.COMMIT_ATTEMPTS), then an error."""
    from dreamgit.errors import ConcurrentUpdateError
    from dreamgit.store import committer

    monkeypatch.setattr(committer, "COMMIT_ATTEMPTS", 6)
    old = repo.tip()
    _put(repo, {"notes.txt": b"main moved on\n"})
    tip = repo.tip()
    attempts = []

    def stale_step(_tip: str | None) -> str | None:
        attempts.append(_tip)
        return repo.store.commit(
            "main",
            parents=[old] if old else [],
            tree=repo.store.tree_id(old),
            message="built on an old tip",
            who=repo.identity(),
            when=NOW,
        )

    with pytest.raises(ConcurrentUpdateError) as caught:
        repo.advance_main(stale_step, now=NOW)
    assert caught.value.render() == (
        "main kept moving while this change was being written\n"
        "hint: other writers are very busy; run the command again"
    )
    assert repo.tip() == tip
    assert len(attempts) == 6


def test_a_big_parse_cache_is_not_rewritten_for_one_new_file(repo: MemoryRepo) -> None:
    """Of 64 cached files, one changed one is parsed but the cache waits for more to save;
    the next reader parses it again and answers the same."""
    _put(repo, {f"memories/a/m{k}.md": f"Memory number {k}.\n".encode() for k in range(64)})
    repo.snapshot(now=NOW)
    cache = repo.store.git_dir / "dreamgit" / "cache" / "memories.json"
    saved = cache.read_bytes()
    _put(repo, {"memories/a/m0.md": b"Memory number zero, changed.\n"})
    first = repo.snapshot(now=NOW).memories
    assert cache.read_bytes() == saved
    assert MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW).memories == first
    assert "Memory number zero, changed." in [m.text for m in first]
