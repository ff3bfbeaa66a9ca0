"""``status --json`` says the same whatever the caches in the git directory hold."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.model import RecallStats
from dreamgit.ruleset.context import LazyMemoryEnv, memory_env
from dreamgit.store.memoryfile import memory_from_record, parse_memory_record
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
