"""``status --json`` says the same whatever the caches in the git directory hold."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.dream import healthfacts
from dreamgit.dream import status as status_module
from dreamgit.model import RecallStats
from dreamgit.recall.fold import fold_signals
from dreamgit.ruleset.context import LazyMemoryEnv, memory_env
from dreamgit.store.memoryfile import memory_from_record, parse_memory_record
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW_TEXT, git

FACTS = [
    ("Keeps bees on the roof of the workshop.", "habits", "low"),
    ("Has a dentist appointment at 10am on 3 March.", "plans", "normal"),
    ("Keeps bees on the roof of the workshop!", "habits", "ephemeral"),
    ("Speaks Portuguese with the neighbours.", "identity", "core"),
    ("Drives an old green Volvo estate.", "things", "high"),
]


def _run(repo: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--repo", str(repo), "--now", NOW_TEXT, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _status(repo: Path) -> dict[str, object]:
    return dict(json.loads(_run(repo, "status", "--json")))


def _cache(repo: Path) -> Path:
    return repo / "dreamgit" / "cache"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A bare memory repository with memories of every priority, a session, a file that
    does not read and a second file stating a known id."""
    path = tmp_path / "mem.git"
    _run(tmp_path, "init", "--bare", str(path))
    for text, topic, priority in FACTS:
        _run(path, "add", text, "--topic", topic, "--priority", priority)
    _run(path, "log", "The user talked about bees and the dentist.")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(path), str(work))
    first = sorted((work / "memories" / "habits").iterdir())[0]
    (work / "memories" / "zzz").mkdir()
    shutil.copy(first, work / "memories" / "zzz" / "copy.md")
    (work / "memories" / "zzz" / "broken.md").write_text("---\n: [\n---\nx\n")
    git(work, "add", "-A")
    git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "hand edits")
    git(work, "push", "-q", "origin", "main")
    return path


def test_status_is_the_same_with_fresh_missing_damaged_and_stale_caches(repo: Path) -> None:
    """Built caches, none, garbage in every file, and caches of an older tree: one report."""
    shutil.rmtree(_cache(repo), ignore_errors=True)
    fresh = _status(repo)
    assert fresh["problems"] and fresh["health"]
    assert _status(repo) == fresh  # now from the caches the first call built
    older = repo.parent / "older-cache"
    shutil.copytree(_cache(repo), older)

    shutil.rmtree(_cache(repo))
    assert _status(repo) == fresh
    for cache in _cache(repo).iterdir():
        cache.write_bytes(b"\x00garbage{" * 64)
    assert _status(repo) == fresh

    _run(repo, "add", "Repairs bicycles for the neighbours.", "--topic", "habits")
    moved = _status(repo)
    assert moved["memories"] == fresh["memories"] + 1  # type: ignore[operator]
    shutil.rmtree(_cache(repo))
    shutil.copytree(older, _cache(repo))
    assert _status(repo) == moved
    shutil.rmtree(_cache(repo))
    assert _status(repo) == moved


def test_the_lazy_environment_gives_every_name_the_eager_one_gives() -> None:
    """A rule reading names one by one sees exactly what the whole environment holds."""
    text = "---\ndream:\n  id: m-abc\n  tags: [x]\n  created: 2026-03-01T10:00:00Z\n---\n"
    record = parse_memory_record(text + "Meets Ana at 3pm on 2 March.\n", path="memories/p/a.md")
    memory = memory_from_record(record, path="memories/p/a.md", now=NOW)
    memory = replace(memory, recall=RecallStats(count=2, first=NOW, last=NOW))
    eager = memory_env(memory, NOW, recalls_recorded=True)
    lazy = LazyMemoryEnv(memory, NOW, recalls_recorded=True)
    assert dict(lazy) == eager
    assert [lazy[name] for name in reversed(list(eager))] == list(reversed(eager.values()))


NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)


def _from_the_files(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, object]:
    """The report as status gives it when the derived store cannot serve."""
    with monkeypatch.context() as patched:
        patched.setattr(status_module, "stored_health", lambda *_a, **_k: None)
        return dict(json.loads(_run(repo, *args, "status", "--json")))


def _configure(repo: Path, config: str) -> None:
    """Append ``config`` to the repository's configuration, as a person's commit."""
    work = repo.parent / "config-edit"
    shutil.rmtree(work, ignore_errors=True)
    git(repo.parent, "clone", "-q", str(repo), str(work))
    path = work / ".dreamgit" / "config.yaml"
    path.write_text(path.read_text() + config)
    git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "configure")
    git(work, "push", "-q", "origin", "main")


@pytest.mark.parametrize("later", [NOW_TEXT, "2026-11-25T03:00:00Z", "2027-06-01T00:00:00Z"])
def test_health_from_the_derived_store_is_the_health_of_the_files(
    repo: Path, monkeypatch: pytest.MonkeyPatch, later: str
) -> None:
    """At any time after the facts were derived (verdicts that move with age judged
    again), with recall tracking off and on (folded counters overlaid), the stored
    figures and problems are those read from every file."""
    _run(repo, "add", "Reads about bees this week.", "--topic", "plans", "--priority", "ephemeral")
    for tracked in (False, True):
        if tracked:
            _configure(repo, "recall:\n  tracked: true\n")
            _run(repo, "recall", "bees workshop")
            _run(repo, "add", "Waters the bees every morning.", "--topic", "habits")
            fold_signals(MemoryRepo.open(repo), now=datetime.fromisoformat(NOW_TEXT))
        _status(repo)  # the facts are derived at NOW_TEXT
        stored = dict(json.loads(_run(repo, "--now", later, "status", "--json")))
        assert stored == _from_the_files(repo, monkeypatch, "--now", later)
        assert stored["problems"] and stored["health"]
        tracking = stored["recall_tracking"]
        assert tracking["in_use"] is tracked  # type: ignore[index]
    assert tracking["memories_recalled"]  # type: ignore[index]
    stale = stored["health"]["parts"]["stale"]  # type: ignore[index]
    assert stale == 1 if later == NOW_TEXT else stale < 1


def test_a_second_status_reads_no_memory_file_and_an_add_derives_one_fact(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the store holds the tree, status lists it without reading the memories; after
    an ``add`` only the new file's facts are derived."""
    _run(repo, "add", "Sings in a choir on Thursdays.", "--topic", "habits")  # places the next
    _status(repo)
    derived: list[str] = []
    keyed = healthfacts.words_key
    monkeypatch.setattr(healthfacts, "words_key", lambda m: derived.append(m.id) or keyed(m))

    def read_everything(*_: object, **__: object) -> None:
        raise AssertionError("status read every memory")

    with monkeypatch.context() as patched:
        patched.setattr(MemoryRepo, "snapshot", read_everything)
        _status(repo)
        assert derived == []
        _run(repo, "add", "Repairs bicycles for the neighbours.", "--topic", "habits")
        assert _status(repo)["memories"] == len(FACTS) + 3
    assert len(derived) == 1


def test_facts_that_do_not_read_or_other_rules_give_the_files_answer(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Garbage in the stored facts or rows, or rules that protect another topic: the
    same report as from the files."""
    _status(repo)
    with sqlite3.connect(_cache(repo) / "derived.sqlite3") as db:
        db.execute("UPDATE facts SET value = 'n\x1fgarbage'")
    assert _status(repo) == _from_the_files(repo, monkeypatch)
    for spoil in (
        "UPDATE facts SET value = 'x' || substr(value, 2)",  # a verdict not known
        "UPDATE docs SET record = '{}' WHERE id IS NULL",  # a broken file's reason lost
    ):
        _status(repo)  # the facts the last spoiled report dropped are derived again
        with sqlite3.connect(_cache(repo) / "derived.sqlite3") as db:
            letters = [v[:1] for (v,) in db.execute("SELECT value FROM facts")]
            assert letters and set(letters) <= set("pyn?")
            db.execute(spoil)
        assert _status(repo) == _from_the_files(repo, monkeypatch)
    _configure(repo, "protected:\n  topics: [habits, plans]\n")
    protected = _status(repo)
    assert protected == _from_the_files(repo, monkeypatch)


def test_lifecycle_verdicts_that_move_are_judged_from_the_facts_without_building_memories(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Low and ephemeral memories (``priority`` and ``age`` decide) are judged again at a
    later time from what their facts keep; only a memory whose rule reads its text (the
    appointment) is built, and the report is the files' own."""
    for n in range(6):
        priority = "low" if n % 2 else "ephemeral"
        _run(repo, "add", f"Tried tea number {n} today.", "--topic", "tea", "--priority", priority)
    _status(repo)  # the facts are derived at NOW_TEXT
    built: list[str] = []
    whole = healthfacts.memory_from_record
    monkeypatch.setattr(
        healthfacts,
        "memory_from_record",
        lambda record, **kw: built.append(kw["path"]) or whole(record, **kw),
    )
    later = "2026-12-30T00:00:00Z"
    stored = dict(json.loads(_run(repo, "--now", later, "status", "--json")))
    assert built == [p for p in built if p.startswith("memories/plans/")] and len(built) == 1
    assert stored == _from_the_files(repo, monkeypatch, "--now", later)
    assert stored["health"]["parts"]["stale"] < 1  # type: ignore[index]


def test_the_facts_read_back_are_the_facts_a_listing_derives(repo: Path) -> None:
    """The facts, records and problem files read in one pass once every fact is kept are
    those of the listing that derived them."""
    opened = MemoryRepo.open(repo)
    tree = opened.sync_derived(opened.tip())
    assert tree is not None

    def derive(path: str, record: dict[str, object]) -> str:
        return f"{'?' if 'bees' in str(record['text']) else 'n'}{path}"

    first = opened.derived.facts_of(tree, "probe:1", derive, with_record="?%")
    again = opened.derived.facts_of(tree, "probe:1", derive, with_record="?%")
    assert first is not None and again is not None
    # The second bee fact reinforced the first; the copy states its id: four are active.
    assert sorted(first.values) == sorted(again.values) and len(first.values) == len(FACTS) - 1
    assert [(r.path, r.fact, r.whole()) for r in first.records] == [
        (r.path, r.fact, r.whole()) for r in sorted(again.records, key=lambda r: r.path)
    ]
    assert [r.path for r in first.records] == ["memories/habits/keeps-bees-roof-workshop.md"]
    assert first.broken == again.broken and [p for p, _why in first.broken] == [
        "memories/zzz/broken.md"
    ]
    assert first.seconds == again.seconds and len(first.seconds) == 1


def test_after_an_add_status_derives_the_new_fact_without_listing_every_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fact of the file an add wrote is derived and kept on its own; the report is
    still read in one pass, not from a row per file, and is the files' own."""
    from dreamgit.store.derived import DerivedStore

    _status(repo)
    _run(repo, "add", "Repairs bicycles for the neighbours.", "--topic", "habits")

    def every_file(*_: object, **__: object) -> None:
        raise AssertionError("listed every file")

    with monkeypatch.context() as patched:
        patched.setattr(DerivedStore, "listing", every_file)
        after = _status(repo)
    assert after == _from_the_files(repo, monkeypatch)
