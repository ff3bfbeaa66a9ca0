"""Every reader gives the same answer with the caches in the git directory, without
them, with damaged ones and with ones left from an older tree."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from clikit import dreamgit
from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.model import Memory
from dreamgit.recall import index as recall_index
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT

FACTS = [
    ("Prefers pytest over unittest for Python tests", "preferences"),
    ("The deploy pipeline runs on GitHub Actions every night", "project"),
    ("Prefers dark mode in every editor", "preferences"),
    ("Keeps Python tests next to the code they test", "project"),
]
READERS = [
    ("memories", "--json"),
    ("memories", "--as-of", NOW_TEXT, "--json"),
    ("status", "--json"),
    ("review", "--json"),
    ("recall", "python tests", "--no-record", "--json"),
    ("recall", "dark editor", "--top-k", "1", "--no-record"),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A memory repository with a few memories and a session waiting for a dream."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    engine = DreamEngine(repo, now=NOW)
    for text, topic in FACTS:
        engine.add_memory(text, topic=topic)
    engine.log_session("User: I switched the deploy pipeline to nightly staging runs.")
    return tmp_path / "mem"


def _read_all(repo: Path) -> list[str]:
    """What every reader prints, each as a fresh process would (no index held in memory)."""
    answers = []
    for args in READERS:
        recall_index._CACHE.clear()
        out = CliRunner().invoke(cli, ["--repo", str(repo), "--now", NOW_TEXT, *args])
        assert out.exit_code == 0, out.output
        answers.append(out.stdout)
    return answers


def _cache(repo: Path) -> Path:
    return MemoryRepo.open(repo).store.git_dir / "dreamgit" / "cache"


def _damage(repo: Path) -> None:
    for file in _cache(repo).iterdir():
        file.write_bytes(b"\x00garbage" * 64)


def _delete(repo: Path) -> None:
    shutil.rmtree(_cache(repo))


@pytest.mark.parametrize("spoil", [_delete, _damage], ids=["missing", "damaged"])
def test_every_reader_answers_the_same_without_the_caches(
    repo: Path, spoil: Callable[[Path], None]
) -> None:
    """memories, as-of, status, review and recall print the same with, without and with
    damaged caches; the damaged ones are built again."""
    cold = _read_all(repo)
    assert (_cache(repo) / "derived.sqlite3").exists()
    assert _read_all(repo) == cold
    spoil(repo)
    assert _read_all(repo) == cold
    assert (_cache(repo) / "derived.sqlite3").read_bytes().startswith(b"SQLite format 3")


def test_caches_left_from_an_older_tree_give_the_new_trees_answers(
    repo: Path, tmp_path: Path
) -> None:
    """Caches copied back from before a memory was added answer for the tree as it is."""
    _read_all(repo)
    shutil.copytree(_cache(repo), tmp_path / "old-cache")
    DreamEngine(MemoryRepo.open(repo), now=NOW).add_memory(
        "Prefers tabs in Python editors", topic="preferences"
    )
    fresh = _read_all(repo)
    _delete(repo)
    shutil.copytree(tmp_path / "old-cache", _cache(repo))
    assert _read_all(repo) == fresh
    assert "Prefers tabs in Python editors" in fresh[-2]


def test_recall_as_a_process_answers_from_the_database_as_from_the_files(
    repo: Path,
) -> None:
    """The installed command gives the same answer building the database and reading it."""
    args = ("recall", "python tests", "--no-record", "--json")
    building = dreamgit(repo, NOW_TEXT, *args)
    assert dreamgit(repo, NOW_TEXT, *args) == building
    assert building == _read_all(repo)[4]


def _first_fact(repo: Path) -> Memory:
    return next(m for m in MemoryRepo.open(repo).memories(now=NOW) if m.text == FACTS[0][0])


def _remember_again(repo: Path) -> tuple[str, bool]:
    """Remember the first fact again, worded apart in case and a final stop."""
    from dreamgit.integrations.remember import remember

    done = remember(MemoryRepo.open(repo), FACTS[0][0].upper() + ".", topic="x", now=NOW)
    return done.memory.id, done.reinforced


def test_a_repeat_is_told_from_the_derived_store_without_reading_every_memory(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``add``'s repeat check is one look-up in the database: no memory file is read."""
    from dreamgit.integrations import remember as remember_module

    first = _first_fact(repo)

    def read_everything(*_: object) -> None:
        raise AssertionError("the repeat check read every memory")

    monkeypatch.setattr(remember_module, "_readable", read_everything)
    assert _remember_again(repo) == (first.id, True)


@pytest.mark.parametrize("spoil", [_delete, _damage], ids=["missing", "damaged"])
def test_a_repeat_is_told_the_same_without_the_caches(
    repo: Path, spoil: Callable[[Path], None]
) -> None:
    """With the database missing or damaged, the repeat reinforces the same memory."""
    first = _first_fact(repo)
    spoil(repo)
    assert _remember_again(repo) == (first.id, True)
    assert _remember_again(repo) == (first.id, True)


def test_a_repeat_is_told_from_the_files_when_the_database_cannot_open(repo: Path) -> None:
    """A database that cannot be opened (here: a folder in its place) leaves the check
    to the memory files, with the same answer."""
    first = _first_fact(repo)
    _delete(repo)
    (_cache(repo) / "derived.sqlite3").mkdir(parents=True)
    assert _remember_again(repo) == (first.id, True)


def test_a_sync_after_one_write_parses_the_new_file_without_the_record_cache(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database follows one new memory by parsing that file alone: the record cache
    of every memory (a second's JSON at 100,000) stays unread, and recall finds it."""
    _read_all(repo)
    added = DreamEngine(MemoryRepo.open(repo), now=NOW).add_memory(
        "Prefers tabs in Python editors", topic="preferences"
    )

    def no_cache(*_: object) -> None:
        raise AssertionError("the record cache was loaded")

    monkeypatch.setattr("dreamgit.store.parsecache.ParseCache._load", no_cache)
    fresh = MemoryRepo.open(repo)
    assert fresh.sync_derived(fresh.tip()) is not None
    monkeypatch.undo()
    recall_index._CACHE.clear()
    out = CliRunner().invoke(
        cli, ["--repo", str(repo), "--now", NOW_TEXT, "recall", "tabs", "--no-record"]
    )
    assert out.stdout.startswith(f"{added.id}\t")


@pytest.mark.parametrize("record_cache", ["kept", "missing", "damaged"])
def test_a_build_reads_the_record_cache_it_finds_and_writes_one_where_there_is_none(
    repo: Path, monkeypatch: pytest.MonkeyPatch, record_cache: str
) -> None:
    """The database built again (after a clone: no caches at all) takes each record the
    record cache holds and parses the others itself, adding none to that cache one by one
    (filling and saving it so cost a fifth of the build at 100,000); where there was no
    record cache, it is written whole from the database's records, and the next reader of
    every memory parses no file. Every reader answers the same."""
    cold = _read_all(repo)
    (_cache(repo) / "derived.sqlite3").unlink()
    records = _cache(repo) / "memories.json"
    if record_cache == "missing":
        records.unlink()
    elif record_cache == "damaged":
        records.write_text("{not json", encoding="utf-8")
    else:  # every record comes from the cache: no file is parsed
        monkeypatch.setattr("dreamgit.store.memorycache.parse_memory_record", _no_parse)
    monkeypatch.setattr("dreamgit.store.memorycache._FEW", 0)  # the path a big build takes

    def no_put(*_: object) -> None:
        raise AssertionError("a record was added to the record cache")

    monkeypatch.setattr("dreamgit.store.parsecache.ParseCache.put", no_put)
    fresh = MemoryRepo.open(repo)
    assert fresh.sync_derived(fresh.tip()) is not None
    monkeypatch.undo()
    if record_cache == "missing":
        monkeypatch.setattr("dreamgit.store.memorycache.parse_memory_record", _no_parse)
        recall_index._CACHE.clear()
        out = CliRunner().invoke(cli, ["--repo", str(repo), "--now", NOW_TEXT, *READERS[0]])
        assert out.stdout == cold[0]
        monkeypatch.undo()
    elif record_cache == "damaged":
        assert records.read_text(encoding="utf-8") == "{not json"  # left to the readers
    assert _read_all(repo) == cold


def _no_parse(*_: object, **__: object) -> None:
    raise AssertionError("a memory file was parsed")
