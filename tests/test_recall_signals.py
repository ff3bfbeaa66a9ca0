"""Recall signals: folded by the dream once, carried by push and clone, safe under load."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.api import DreamEngine
from dreamgit.recall.fold import fold_signals
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import batch_name, begin_flush, parse_counters, read_spool
from gitcheck import NOW, fsck, git


def _counters(repo: MemoryRepo) -> dict[str, int]:
    stats, _folded = parse_counters(repo.read_text(layout.RECALL_COUNTERS))
    return {k: v.count for k, v in stats.items()}


def test_a_dream_folds_signals_into_counters_in_one_commit(tmp_path: Path) -> None:
    """Three recalls on two days under two queries become count 3, queries 2, days 2."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    cat = DreamEngine(repo, now=NOW).add_memory("Has two cats named Miso and Tofu", topic="pets")
    DreamEngine(repo, now=NOW).recall("cats", top_k=1)
    DreamEngine(repo, now=NOW).recall("Miso", top_k=1)
    DreamEngine(repo, now=NOW + timedelta(days=1)).recall("cats", top_k=1)
    record = DreamEngine(repo, now=NOW + timedelta(days=1)).dream()
    assert record["recall"] == {"signals": 3, "hits": 3, "memories": 1}
    memory = repo.get_memory(cat.id, now=NOW)
    assert memory.recall is not None
    assert (memory.recall.count, len(memory.recall.queries), len(memory.recall.days)) == (3, 2, 2)
    assert memory.recalls == 3
    assert repo.store.files(repo.tip(), layout.RECALL_SIGNALS) == {}
    log = git(repo.store.workdir, "log", "--format=%s%n%b", "-n", "1", "--grep", "fold")  # type: ignore[arg-type]
    assert log.startswith("recall: fold 3 signal(s) into the counters of 1 memories\n")
    assert "Dream-Op: recall-fold" in log


def test_a_batch_committed_again_is_not_counted_twice(tmp_path: Path) -> None:
    """A writer killed between its commit and emptying the spool re-commits the same batch."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    cat = eng.add_memory("Has two cats named Miso and Tofu", topic="pets")
    eng.recall("cats", top_k=1)
    eng.log_session("User: a session to carry the signal along.")
    (path, blob) = next(iter(repo.store.files(repo.tip(), layout.RECALL_SIGNALS).items()))
    data = repo.store.read(blob)
    fold_signals(repo, now=NOW)
    repo.commit_main("stray", lambda _t: {path: data}, now=NOW)  # the same batch, again
    again = fold_signals(repo, now=NOW)
    assert again.signals == 0
    assert _counters(repo) == {cat.id: 1}
    assert repo.store.files(repo.tip(), layout.RECALL_SIGNALS) == {}


def test_two_alike_recalls_flushed_apart_are_both_counted(tmp_path: Path) -> None:
    """The same query in the same second, each committed by its own write: count 2, not 1."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    cat = eng.add_memory("Has two cats named Miso and Tofu", topic="pets")
    eng.recall("cats", top_k=1)
    eng.log_session("User: the first write carries the first recall.")
    eng.recall("cats", top_k=1)
    eng.log_session("User: the second write carries the second, alike to the byte.")
    eng.dream()
    assert _counters(repo) == {cat.id: 2}


def test_a_writer_killed_after_committing_a_batch_leaves_no_double_count(
    tmp_path: Path,
) -> None:
    """The journal tells the next writer the spooled files are on main already."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    cat = eng.add_memory("Has two cats named Miso and Tofu", topic="pets")
    eng.recall("cats", top_k=1)
    eng.recall("Miso", top_k=1)
    # What a writer does before it is killed: journal, then commit, but no clean-up.
    spooled = read_spool(repo.store.git_dir)
    lines = [data for _path, data in spooled]
    name = batch_name([p for p, _d in spooled], lines)
    begin_flush(repo.store.git_dir, name, [p for p, _d in spooled])
    path = layout.RECALL_SIGNALS + name
    repo.commit_main("recall: killed", lambda _t: {path: b"".join(lines)}, now=NOW)
    eng.recall("Tofu", top_k=1)
    eng.log_session("User: the next write after the crash.")
    assert read_spool(repo.store.git_dir) == []
    eng.dream()
    assert _counters(repo) == {cat.id: 3}


def test_a_recall_in_one_clone_is_counted_by_a_dream_in_another(tmp_path: Path) -> None:
    """The agent recalls and pushes; CI clones, dreams, and counts the recall."""
    origin, agent, ci = tmp_path / "origin.git", tmp_path / "agent", tmp_path / "ci"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    repo = MemoryRepo.init(agent, now=NOW)
    cat = DreamEngine(repo, now=NOW).add_memory("Has two cats named Miso", topic="pets")
    done = subprocess.run(
        [sys.executable, "-m", "dreamgit", "--repo", str(agent), "recall", "cats", "--top-k", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    DreamEngine(repo, now=NOW).log_session("User: the agent's next session.")
    git(agent, "push", "--quiet", "origin", "main")
    git(tmp_path, "clone", "--quiet", "--no-local", str(origin), str(ci))
    ci_repo = MemoryRepo.open(ci)
    record = DreamEngine(ci_repo, now=NOW).dream(force=True)
    assert record["recall"]["signals"] == 1
    assert ci_repo.get_memory(cat.id, now=NOW).recalls == 1


RECALLER = """
import sys
from datetime import UTC, datetime, timedelta
from dreamgit.api import DreamEngine
from dreamgit.store.repo import MemoryRepo

path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
repo = MemoryRepo.open(path)
start = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
for i in range(count):
    eng = DreamEngine(repo, now=start + timedelta(seconds=i))
    hits = eng.recall(f"fact {i % 7} shared", top_k=1).hits
    assert len(hits) == 1, hits
"""

WRITER = """
import sys
from datetime import UTC, datetime, timedelta
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
repo = MemoryRepo.open(path)
start = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
for i in range(count):
    operations.add_memory(repo, f"writer {worker} note {i}", topic=f"w{worker}",
                          now=start + timedelta(seconds=i))
"""

DREAMER = """
import sys
from datetime import UTC, datetime
from dreamgit.api import DreamEngine
from dreamgit.store.repo import MemoryRepo

repo = MemoryRepo.open(sys.argv[1])
print(DreamEngine(repo, now=datetime(2026, 11, 22, 4, 0, tzinfo=UTC)).dream(force=True)["recall"])
"""


def _spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_concurrent_recalls_writers_and_a_dream_lose_no_signal(tmp_path: Path) -> None:
    """8 recallers x 200 recalls while 4 writers add and a dream runs: all 1600 counted."""
    path = tmp_path / "mem"
    repo = MemoryRepo.init(path, bare=True, now=NOW)
    eng = DreamEngine(repo, now=NOW)
    for k in range(7):
        eng.add_memory(f"shared fact {k} about the project", topic="facts")
    recallers = [_spawn(RECALLER, str(path), str(w), "200") for w in range(8)]
    writers = [_spawn(WRITER, str(path), str(w), "25") for w in range(4)]
    dreamer = _spawn(DREAMER, str(path))
    for proc in [*recallers, *writers, dreamer]:
        _out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
    final = DreamEngine(repo, now=NOW).dream(force=True)
    assert final["recall"]["hits"] >= 0
    counts = _counters(MemoryRepo.open(path))
    assert sum(counts.values()) == 8 * 200
    # Every writer's add landed on main (the dreams may then merge or supersede some of
    # these near-alike notes, each in a commit of its own: a consolidation, not a loss).
    subjects = subprocess.run(
        ["git", "--git-dir", str(path), "log", "--format=%s", "main"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert sum(1 for s in subjects if s.startswith("add: ") and "/writer-" in s) == 4 * 25
    fsck(path)
