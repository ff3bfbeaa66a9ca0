"""Recall without opening git: the same answers as the full path on one repository, and
the full path wherever the cached one could be wrong (a new commit, a detached HEAD, a
linked work tree, another branch, a missing or damaged database)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clikit import prepared
from dreamgit.api import DreamEngine
from dreamgit.recall.cached import cached_recall
from dreamgit.recall.fold import fold_signals
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import recall
from dreamgit.recall.views import follow_view
from dreamgit.store import layout
from dreamgit.store.derived import DerivedStore
from dreamgit.store.operations import forget
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import remove_database
from gitcheck import NOW, NOW_TEXT

FACTS = [
    ("Keeps the staging cluster notes in the team wiki", "project", "high"),
    ("Prefers tabs over spaces in Go code", "preferences", "normal"),
    ("Prefers tabs for indenting Makefiles too", "preferences", "low"),
    ("The staging cluster restarts every Sunday night", "project", "normal"),
    ("Walks the dog before the morning standup", "identity", "low"),
    ("The team wiki moved to a new host in March", "project", "normal"),
]
QUERIES = [
    RecallQuery("staging cluster"),
    RecallQuery("tabs", top_k=1),
    RecallQuery("team wiki staging", chars=80),
    RecallQuery("prefers", topic="preferences"),
    RecallQuery("walks dog", scope="identity"),
    RecallQuery("nothing matches this at all"),
]
#: The weighting reads recall counters: an override that makes them decide the order.
CONFIG = "extends: default\nrecall:\n  weight: 'relevance + recall.count'\n  top_k: 3\n"


def _repo(folder: Path, *, bare: bool = False) -> MemoryRepo:
    repo = MemoryRepo.init(folder, now=NOW, bare=bare)
    engine = DreamEngine(repo, now=NOW)
    for text, topic, priority in FACTS:
        engine.add_memory(text, topic=topic, priority=priority)
    repo.commit_main(
        "config: weigh by recalls", lambda _t: {layout.CONFIG: CONFIG.encode()}, now=NOW
    )
    for _ in range(3):  # counters that change the order: the wiki's move wins "team wiki"
        recall(repo, RecallQuery("moved host march"), now=NOW)
    fold_signals(repo, now=NOW)
    return repo


def _full(repo: MemoryRepo, ask: RecallQuery) -> dict[str, object]:
    return recall(repo, ask, now=NOW).to_dict()


def _cached(folder: Path, ask: RecallQuery) -> dict[str, object] | None:
    found = cached_recall(folder, ask, now=NOW)
    return None if found is None else found.to_dict()


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize("bare", [False, True], ids=["work tree", "bare"])
def test_the_cached_path_gives_the_full_paths_answers(tmp_path: Path, bare: bool) -> None:
    """After one full recall at the tip, every query is answered the same without git."""
    folder = tmp_path / "mem"
    repo = _repo(folder, bare=bare)
    asks = [RecallQuery(a.text, a.top_k, a.chars, a.topic, a.type, a.scope, False) for a in QUERIES]
    assert _cached(folder, asks[0]) is None  # nothing kept of this commit yet
    full = [_full(repo, ask) for ask in asks]
    assert [_cached(folder, ask) for ask in asks] == full
    assert full[2]["results"][0]["text"] == FACTS[5][0]  # counters decided it
    assert any(r["results"] for r in full) and not full[-1]["results"]


def test_a_recorded_cached_recall_spools_the_same_signal(tmp_path: Path) -> None:
    """A recall that records leaves the same signal either way (one line each)."""
    from dreamgit.store.signals import read_spool

    folder = tmp_path / "mem"
    repo = _repo(folder)
    git_dir = repo.store.git_dir
    recall(repo, RecallQuery("staging cluster"), now=NOW)
    lines = [line for _, line in read_spool(git_dir)]
    cached = cached_recall(folder, RecallQuery("staging cluster"), now=NOW)
    assert cached is not None and cached.recorded
    again = [line for _, line in read_spool(git_dir)]
    assert len(again) == len(lines) + 1 and again[-1] == lines[-1]


def test_a_new_commit_is_answered_by_the_full_path_first(tmp_path: Path) -> None:
    """A commit nobody recalled at yet has no view: the full path answers, then keeps one."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    _full(repo, ask)
    DreamEngine(repo, now=NOW).add_memory("The staging cluster has nine nodes", topic="project")
    assert _cached(folder, ask) is None
    full = _full(repo, ask)
    assert "The staging cluster has nine nodes" in [r["text"] for r in full["results"]]
    assert _cached(folder, ask) == full


def test_packed_refs_are_read(tmp_path: Path) -> None:
    """A branch that lives only in packed-refs is found there."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    full = _full(repo, ask)
    _git(folder, "pack-refs", "--all")
    assert not (folder / ".git" / "refs" / "heads" / "main").exists()
    assert _cached(folder, ask) == full


@pytest.mark.parametrize(
    "move",
    [("checkout", "-q", "--detach"), ("checkout", "-q", "-b", "elsewhere")],
    ids=["detached HEAD", "another branch at the same commit"],
)
def test_head_away_from_the_recalled_branch_takes_the_full_path(
    tmp_path: Path, move: tuple[str, ...]
) -> None:
    """HEAD naming a commit, or a branch the view was not read on, is a doubt: None."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    _full(repo, ask)
    _git(folder, *move)
    assert _cached(folder, ask) is None


def test_a_linked_work_tree_takes_the_full_path(tmp_path: Path) -> None:
    """A linked work tree (``.git`` is a file) is a doubt, and the command still answers."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    _full(repo, ask)
    linked = tmp_path / "linked"
    _git(folder, "worktree", "add", "-q", "-b", "side", str(linked))
    assert _cached(linked, ask) is None
    assert _cached(folder / ".git" / "worktrees" / "linked", ask) is None


@pytest.mark.parametrize("damage", ["deleted", "garbage", "views dropped"])
def test_a_missing_or_damaged_database_changes_no_answer(tmp_path: Path, damage: str) -> None:
    """No database, a damaged one, or one without the views: the full path, same answers."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    asks = [RecallQuery(q.text, q.top_k, q.chars, q.topic, q.type, q.scope, False) for q in QUERIES]
    full = [_full(repo, ask) for ask in asks]
    database = DerivedStore(repo.store.git_dir).path
    repo.derived.close()
    if damage == "views dropped":
        import sqlite3

        with sqlite3.connect(database) as db:
            db.execute("DROP TABLE recall_views")
    else:
        remove_database(database)
        if damage == "garbage":
            database.write_bytes(b"not a database at all" * 100)
    assert _cached(folder, asks[0]) is None
    reopened = MemoryRepo.open(folder)
    assert [_full(reopened, ask) for ask in asks] == full
    assert [_cached(folder, ask) for ask in asks] == full


def test_a_view_another_dreamgit_kept_gives_way_to_this_ones(tmp_path: Path) -> None:
    """After an upgrade, the view the older version kept of the tip is not read, and the
    next full recall replaces it, so the cached path answers that commit again."""
    import sqlite3

    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    full = _full(repo, ask)
    repo.derived.close()
    with sqlite3.connect(DerivedStore(repo.store.git_dir).path) as db:
        db.execute("UPDATE recall_views SET written_by = 'an older dreamgit'")
    db.close()
    assert _cached(folder, ask) is None
    assert _full(MemoryRepo.open(folder), ask) == full
    assert _cached(folder, ask) == full


def _command_output(folder: Path, *args: str, inside: bool = False) -> tuple[str, bool]:
    """The installed command's stdout, and whether the process imported pygit2; ``inside``:
    run in the repository's folder, found from there as a user does (no DREAMGIT_REPO)."""
    env = dict(os.environ, DREAMGIT_REPO=str(folder))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if inside:
        del env["DREAMGIT_REPO"]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dreamgit", "--now", NOW_TEXT, *args],
        env=env,
        cwd=folder if inside else None,
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    return done.stdout, "pygit2" in imported


def test_the_command_answers_alike_and_opens_no_git_the_second_time(tmp_path: Path) -> None:
    """``dreamgit recall`` as a process: the first keeps the view, the second needs no pygit2;
    both print the same."""
    folder = tmp_path / "mem"
    _repo(folder)
    args = ("recall", "team wiki staging", "--no-record", "--json")
    first, first_git = _command_output(folder, *args)
    second, second_git = _command_output(folder, *args)
    assert json.loads(first) == json.loads(second) and json.loads(first)["results"]
    assert (first_git, second_git) == (True, False)


def test_the_command_run_inside_the_repository_answers_from_the_view(tmp_path: Path) -> None:
    """Found from the current folder (a relative path), the second recall still answers from
    the view: the database is opened by an absolute path (a relative one crashed)."""
    folder = tmp_path / "mem"
    _repo(folder)
    args = ("recall", "team wiki staging", "--no-record", "--json")
    first, _ = _command_output(folder, *args, inside=True)
    second, second_git = _command_output(folder, *args, inside=True)
    assert json.loads(first) == json.loads(second) and json.loads(first)["results"]
    assert second_git is False


def test_a_writer_keeps_the_view_of_its_commit_with_the_full_paths_answers(
    tmp_path: Path,
) -> None:
    """After an add and after a forget, the view the writer kept answers every query as the
    full path does, before any full recall at the new commit."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    asks = [RecallQuery(a.text, a.top_k, a.chars, a.topic, a.type, a.scope, False) for a in QUERIES]
    _full(repo, asks[0])
    engine = DreamEngine(repo, now=NOW)
    added = engine.add_memory("The staging cluster has nine nodes", topic="project")
    follow_view(repo)
    after_add = [_cached(folder, ask) for ask in asks]
    forget(repo, [added.id], now=NOW)
    follow_view(repo)
    after_forget = [_cached(folder, ask) for ask in asks]
    reopened = MemoryRepo.open(folder)
    assert after_forget == [_full(reopened, ask) for ask in asks]
    assert "The staging cluster has nine nodes" in [r["text"] for r in after_add[0]["results"]]
    assert "The staging cluster has nine nodes" not in str(after_forget)


def test_a_changed_config_leaves_the_new_commit_to_the_full_path(tmp_path: Path) -> None:
    """A view is followed only across commits with the same configuration: its merged
    sections could differ otherwise."""
    folder = tmp_path / "mem"
    repo = _repo(folder)
    ask = RecallQuery("staging cluster", record=False)
    _full(repo, ask)
    changed = CONFIG.replace("top_k: 3", "top_k: 1").encode()
    repo.commit_main("config: one result", lambda _t: {layout.CONFIG: changed}, now=NOW)
    follow_view(repo)
    assert _cached(folder, ask) is None
    assert len(_full(repo, ask)["results"]) == 1 and _cached(folder, ask) == _full(repo, ask)


def test_after_an_add_a_forget_and_a_dream_the_command_recalls_without_git(
    tmp_path: Path,
) -> None:
    """``dreamgit add``, ``forget`` and ``run`` keep the view of the commit they make: the
    recall right after each opens no git and prints what the full path prints. (The writers
    run in this process, ``clikit.prepared``: the command's code; each recall is a process.)"""
    folder = tmp_path / "mem"
    _repo(folder)
    args = ("recall", "staging cluster nodes", "--no-record", "--json")
    _command_output(folder, *args)
    added = prepared(folder, NOW_TEXT, "add", "The staging cluster has nine nodes", "--topic", "x")
    after_add, add_git = _command_output(folder, *args)
    prepared(folder, NOW_TEXT, "forget", added.strip())
    after_forget, forget_git = _command_output(folder, *args)
    prepared(folder, NOW_TEXT, "log", "We moved the staging cluster to a new rack on Monday.")
    prepared(folder, NOW_TEXT, "run", "--force")
    after_dream, dream_git = _command_output(folder, *args)
    assert (add_git, forget_git, dream_git) == (False, False, False)
    full = _full(MemoryRepo.open(folder), RecallQuery("staging cluster nodes", record=False))
    printed = json.loads(after_dream)
    assert printed.pop("tokens") and printed == full
    assert "nine nodes" in after_add and "nine nodes" not in after_forget


def test_a_shallow_clone_keeps_the_view_of_an_add_without_its_history(tmp_path: Path) -> None:
    """In a clone of depth 1 the line of first parents ends where the clone's history does:
    the add succeeds and the recall after it answers from its view as the full path does."""
    _repo(tmp_path / "mem")
    folder = tmp_path / "shallow"
    _git(tmp_path, "clone", "-q", "--depth", "1", (tmp_path / "mem").as_uri(), str(folder))
    repo = MemoryRepo.open(folder)
    ask = RecallQuery("staging cluster", record=False)
    _full(repo, ask)
    DreamEngine(repo, now=NOW).add_memory("The staging cluster has nine nodes", topic="project")
    follow_view(repo)
    cached = _cached(folder, ask)
    assert cached is not None and cached == _full(MemoryRepo.open(folder), ask)
