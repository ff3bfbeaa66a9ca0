"""The derived store built in two processes holds what the one-process build holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dreamgit.api import DreamEngine
from dreamgit.gitstore import Identity
from dreamgit.store import forkhalves
from dreamgit.store.repo import MemoryRepo
from forkcount import counted_forks
from gitcheck import NOW

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

#: Memories of every shape the parse and the tokenizer treat apart.
FACTS = [
    ("Deploys the billing service at 10 am on Fridays (ticket 4411).", "project"),
    ("Prefers twenty five minute standups, not an hour.", "preferences"),
    ("Note: the staging cluster runs Postgres 15.4 with 3,500 connections.", "project"),
    ("Can't use Docker on the build host; uses podman v4.9 instead.", "tools"),
    ("Budget for the offsite is $1,200 or 15% more, by 2026-03-01.", "project"),
    ("Café menu in Zürich lists crème brûlée for 12€ — naïve pricing.", "places"),
    ("Keeps API keys out of PRs and reviews 3 PRs per day.", "habits"),
    ("Runs pytest -n 2 before each push; 7:30pm is the cut-off.", "habits"),
    ("Lives two hundred and ten km from the office (route 66).", "places"),
    ("Reads about k8s operators on the 3rd of each month.", "habits"),
]


def _commit(repo: MemoryRepo, files: dict[str, bytes | None]) -> None:
    tip = repo.tip()
    tree = repo.store.build_tree(tip, files)
    who = Identity("test", "test@localhost")
    repo.store.commit("main", parents=[tip], tree=tree, message="edit", who=who, when=NOW)


def _tables(repo: MemoryRepo) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the derived store, in the order of its key."""
    path = repo.store.git_dir / "dreamgit" / "cache" / "derived.sqlite3"
    with sqlite3.connect(path) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: db.execute(f"SELECT * FROM {n} ORDER BY 1, 2").fetchall() for n in names}


def _build(repo: MemoryRepo) -> dict[str, list[tuple[object, ...]]]:
    """The tables of a build from scratch (the first call after a clone)."""
    repo.derived.close()
    (repo.store.git_dir / "dreamgit" / "cache" / "derived.sqlite3").unlink(missing_ok=True)
    assert repo.sync_derived(repo.tip()) is not None
    return _tables(repo)


def test_the_tables_built_in_two_processes_are_the_one_process_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    engine = DreamEngine(repo, now=NOW)
    for text, topic in FACTS:
        engine.add_memory(text, topic=topic)
    files = repo.store.files(repo.tip(), "memories/")
    last = sorted(files)[-1]
    _commit(
        repo,
        {
            "memories/aaa/copy.md": repo.store.read(files[last]),  # states a known id first
            "memories/zzz/broken.md": b"---\n: [\n---\nx\n",
        },
    )
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(forkhalves, "SPLIT_AT", 10**9)
    alone = _build(repo)
    assert forks == []
    monkeypatch.setattr(forkhalves, "SPLIT_AT", 2)
    split = _build(repo)
    assert forks == [1]
    assert split == alone
    assert len(alone["docs"]) == len(FACTS) + 2
    assert sum(1 for row in alone["docs"] if row[3] is None) == 1  # the broken file
