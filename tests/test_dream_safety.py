"""A dream is safe: killed anywhere, raced by a writer, blocked by a conflict, near protected facts.

The crash tests run the real command as a subprocess that kills itself with
SIGKILL at a named point (``$DREAMGIT_FAULT``) and compare what is left with a
twin repository where the same dream ran to the end at the same ``--now``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.run import dream
from dreamgit.errors import ConflictError
from dreamgit.gitstore.locks import try_exclusive
from dreamgit.history.mainmerge import merge_branch
from dreamgit.report.gate import memory_gate
from dreamgit.store import layout, operations
from dreamgit.store.repo import MemoryRepo
from dreamkit import (
    DREAM_AT,
    MEMORIES,
    SESSIONS,
    T0,
    Seed,
    build_repo,
    dream_branches,
    fixture_copy,
    git,
    invoke,
    invoke_json,
    iso,
    memory_files,
    refs,
    spawn,
    start,
    tree_of,
)

FAULT_POINTS = ["after-gather", "in-consolidate", "before-merge", "merge-ref-update", "after-merge"]


@dataclass(frozen=True)
class Twin:
    """Main after the fixture's dream ran to the end, uninterrupted."""

    tip: str
    tree: str
    memories: dict[str, str]
    record: dict[str, Any]


_TWIN: list[Twin] = []


def twin(factory: pytest.TempPathFactory) -> Twin:
    """The uninterrupted dream over the fixture, computed once per session."""
    if not _TWIN:
        repo = fixture_copy(factory, factory.mktemp("twin") / "mem")
        # The command line's dream: with the memory-test gate, whose verdict the record keeps.
        record = dream(repo, now=DREAM_AT, force=True, check=memory_gate)
        tip = repo.tip()
        assert tip is not None and record["merged"]
        _TWIN.append(Twin(tip, tree_of(repo), memory_files(repo), record))
    return _TWIN[0]


def fsck(repo: MemoryRepo) -> None:
    """Fail unless ``git fsck --strict`` is silent."""
    assert git(repo, "fsck", "--strict", "--no-dangling").strip() == ""


def test_fixture_has_work_in_every_phase_and_several_consolidate_commits(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The crash points are only meaningful if the twin's dream commits in each phase."""
    record = twin(tmp_path_factory).record
    phases = [op["phase"] for op in record["ops"]]
    assert {"gather", "consolidate", "prune", "index", "diary"} <= set(phases)
    assert phases.count("consolidate") >= 2


@dataclass(frozen=True)
class Crash:
    """A copy of the fixture whose ``run --force`` was killed at one fault point."""

    repo: MemoryRepo
    before: str | None
    killed: subprocess.CompletedProcess[str]


_CRASHES: dict[str, Crash] = {}

#: Points after the run's last commit on its branch: the branch is complete, only unmerged.
COMPLETE_BEFORE_MERGE = ("before-merge", "merge-ref-update")


def crashed(factory: pytest.TempPathFactory, point: str) -> Crash:
    """The run killed at ``point``; all five are started at once on first use, to save time."""
    if not _CRASHES:
        started = {}
        for name in FAULT_POINTS:
            repo = fixture_copy(factory, factory.mktemp(f"crash-{name}") / "mem")
            started[name] = (repo, repo.tip(), start(repo, "run", "--force", fault=name))
        for name, (repo, before, process) in started.items():
            out, err = process.communicate(timeout=120)
            killed = subprocess.CompletedProcess(process.args, process.returncode, out, err)
            _CRASHES[name] = Crash(repo, before, killed)
    return _CRASHES[point]


@pytest.mark.slow
@pytest.mark.parametrize("point", FAULT_POINTS)
def test_run_killed_at_a_fault_point_leaves_main_unchanged_or_fully_merged(
    point: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """SIGKILL at each point: main is as before or equals the twin; a rerun completes."""
    done = twin(tmp_path_factory)
    crash = crashed(tmp_path_factory, point)
    repo = crash.repo
    assert crash.killed.returncode == -signal.SIGKILL, crash.killed.stdout + crash.killed.stderr
    merged = point == "after-merge"
    if merged:
        assert (repo.tip(), tree_of(repo)) == (done.tip, done.tree)
    else:
        assert repo.tip() == crash.before
    assert git(repo, "status", "--porcelain") == ""  # the work tree shows main, as it was
    fsck(repo)
    [branch] = dream_branches(repo)  # the crashed run's branch survives the crash
    made = git(repo, "rev-list", "--count", f"{crash.before}..{branch}")
    assert int(made) == commits_before_fault(done.record, point)
    status = invoke_json(repo, "status")
    assert status["abandoned"] == ([] if merged else [branch])
    assert (repo.store.git_dir / "dreamgit" / "dream.lock").exists()
    rerun = invoke_json(repo, "run", "--force")  # the dead run's lock does not block it
    if merged:
        assert rerun["ops"] == [] and repo.tip() == done.tip
    elif point in COMPLETE_BEFORE_MERGE:
        # Every commit was made: the rerun merges that branch instead of dreaming again.
        assert rerun["resumed"] == [branch.removeprefix("dream/")] and rerun["ops"] == []
        assert repo.tip() == done.tip
        assert dream_branches(repo) == []
    else:
        assert rerun["merged"] and op_names(rerun) == op_names(done.record)
        assert rerun["sessions"] == done.record["sessions"]
    assert memory_files(repo) == done.memories
    assert invoke_json(repo, "status")["pending_sessions"] == 0
    assert git(repo, "status", "--porcelain") == ""
    fsck(repo)


def commits_before_fault(record: dict[str, Any], point: str) -> int:
    """How many commits the dream branch holds when the run dies at ``point``."""
    gather: int = sum(op["phase"] == "gather" for op in record["ops"])
    return {"after-gather": gather, "in-consolidate": gather + 1}.get(
        point,
        len(record["ops"]) + 1,  # every operation, then the run record
    )


def op_names(record: dict[str, Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Op, rule and memories of each operation (the run id differs between runs)."""
    return [(op["op"], op["rule"], tuple(op["memories"])) for op in record["ops"]]


@pytest.mark.slow
def test_merge_killed_before_a_three_way_ref_update_leaves_main_and_branch_as_they_were(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`merge RUN` killed just before main moves to a merge commit: main keeps the agent's tip."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    record = dream(repo, now=DREAM_AT, force=True, merge=False)
    operations.add_memory(repo, "Pairs on Mondays.", topic="work", now=DREAM_AT)
    before = refs(repo)
    killed = spawn(repo, "merge", record["run_id"], fault="merge-ref-update")
    assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    assert refs(repo) == before
    merged = invoke(repo, "merge", record["run_id"])
    assert merged.exit_code == 0, merged.output
    assert "three-way merge" in merged.stdout
    assert repo.store.is_ancestor(before[f"refs/heads/{record['branch']}"], repo.tip() or "")


def test_second_dream_while_one_holds_the_lock_exits_1_and_writes_nothing(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Two dreams never run at once: the second is refused with a clear message."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    before = refs(repo)
    with try_exclusive(repo.store.git_dir / "dreamgit" / "dream.lock", busy="held by the test"):
        result = invoke(repo, "run", "--force")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: another dream is running in this repository\n"
        "hint: wait for it to finish, then run again\n"
    )
    assert refs(repo) == before


# -- concurrency ---------------------------------------------------------------------------

WRITER = """
import pathlib, sys
from dreamgit.store import operations
from dreamgit.clock import parse_time
from dreamgit.store.repo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
now = parse_time(sys.argv[2])
stop = pathlib.Path(sys.argv[3])
towns = ["Oslo", "Quito", "Hanoi", "Lagos", "Perth", "Cusco", "Turin", "Minsk"]
k = 0
while not stop.exists() or k < 4:
    town = towns[k % len(towns)]
    s = operations.log_session(repo, f"Assistant: checked the {town} build, run {k}.", now=now)
    print("session", s.id, flush=True)
    m = operations.add_memory(
        repo, f"Office {k} of the {town} branch opens at {7 + k % 5} o'clock.",
        topic="offices", now=now,
    )
    print("memory", m.id, flush=True)
    k += 1
"""


@pytest.mark.slow
@pytest.mark.parametrize("bare", [True, False], ids=["bare", "worktree"])
def test_every_write_of_a_concurrent_writer_is_on_main_after_the_dream(
    bare: bool,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process logs sessions and adds memories throughout a dream; none of it is lost."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=bare)
    path = repo.store.workdir or repo.store.git_dir
    stop, go, errors = tmp_path / "stop", tmp_path / "go", tmp_path / "writer.err"
    # Its output is read through one file object to the end: a read past the lines read so
    # far (communicate's) would lose what that object buffered and start mid-line.
    with errors.open("w") as error_file:
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), iso(DREAM_AT), str(stop)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=error_file,
            text=True,
        )
    assert writer.stdout is not None
    try:
        first = writer.stdout.readline()  # the writer is running and has written once
        assert first.startswith("session"), first + errors.read_text()
        # The dream stops before its merge until the writer has written twice more:
        # main has surely moved under it, with no luck involved.
        monkeypatch.setenv("DREAMGIT_FAULT", f"pause:before-merge:{go}")
        done: list[Any] = []
        thread = threading.Thread(target=lambda: done.append(dream(repo, now=DREAM_AT, force=True)))
        thread.start()
        while not go.with_name("go.reached").exists() and thread.is_alive():
            time.sleep(0.01)
        meanwhile = [writer.stdout.readline(), writer.stdout.readline()]
        go.touch()
        thread.join(timeout=120)
        [record] = done
    finally:
        go.touch()
        stop.touch()
        out = writer.stdout.read()
        writer.stdout.close()
        writer.wait(timeout=60)
    assert writer.returncode == 0, errors.read_text()
    written = [line.split() for line in [first, *meanwhile, *out.splitlines()]]
    sessions = {ident for kind, ident in written if kind == "session"}
    memories = {ident for kind, ident in written if kind == "memory"}
    assert record["merged"] and record["merge"] == "merge"  # the writer got in meanwhile
    assert sessions <= set(repo.session_paths())
    assert memories <= {m.id for m in repo.memories(now=DREAM_AT)}
    assert repo.store.is_ancestor(record["ops"][-1]["commit"], repo.tip() or "")
    if not bare:
        assert git(repo, "status", "--porcelain") == ""


# -- conflicts -----------------------------------------------------------------------------


def test_merge_conflicting_with_main_raises_naming_branch_and_paths_and_changes_nothing(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A hand-edited MEMORY.md on main and a dream branch that rewrote it: ConflictError."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    record = dream(repo, now=DREAM_AT, force=True, merge=False)
    branch = record["branch"]
    repo.commit_main(
        "index: edited by hand",
        lambda _tip: {layout.INDEX: b"# My own index\n\n- nothing here\n"},
        now=DREAM_AT,
    )
    before = refs(repo)
    with pytest.raises(ConflictError) as caught:
        merge_branch(repo, branch, message="dream: merge", now=DREAM_AT)
    assert caught.value.paths == [layout.INDEX]
    assert caught.value.message == (
        f"{branch} conflicts with main; nothing was changed and the branch is kept\n  MEMORY.md"
    )
    assert caught.value.hint == (
        f"look at it with `git log main..{branch}`, then merge by hand "
        f"or drop it with `dreamgit discard {record['run_id']}`"
    )
    assert refs(repo) == before


def test_merge_command_on_a_conflicting_run_exits_1_and_keeps_the_branch(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`dreamgit merge RUN` reports the conflict on stderr with exit code 1; no ref moves."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    record = dream(repo, now=DREAM_AT, force=True, merge=False)
    repo.commit_main(
        "index: edited by hand", lambda _tip: {layout.INDEX: b"# Mine\n"}, now=DREAM_AT
    )
    before = refs(repo)
    result = invoke(repo, "merge", record["run_id"])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: {record['branch']} conflicts with main; nothing was changed and the branch "
        "is kept\n  MEMORY.md\nhint: "
    )
    assert refs(repo) == before


# -- protected memories --------------------------------------------------------------------

EXPIRE_EVERYTHING = """\
extends: default
prune:
  - name: expire-everything
    when: "age > 0s"
"""

PROTECTED_SEEDS = (
    *MEMORIES,
    Seed("User's name is Ada King.", "people", key="user.name", hours=2),
    Seed("lives in Lisbon, Portugal", "identity", hours=2),
    Seed("User's name is Ada Lovelace", "people", hours=2),
)
REPEATS_IDENTITY = "User: My name is Ada Lovelace.\nUser: I am from Lisbon, Portugal."


def test_core_and_identity_memories_survive_a_rule_that_prunes_everything(
    tmp_path: Path,
) -> None:
    """Prune-all rule, a newer memory with the core fact's key, near-duplicates: untouched."""
    gathered = extract_candidates(REPEATS_IDENTITY, session_id="s-1", created=DREAM_AT)
    assert {c.topic for c in gathered} == {"identity"}  # the session repeats protected facts
    repo = build_repo(
        tmp_path / "mem",
        memories=PROTECTED_SEEDS,
        sessions=(*SESSIONS, REPEATS_IDENTITY),
        config=EXPIRE_EVERYTHING,
    )
    protected = {
        m.id: m.path for m in repo.memories(now=T0) if m.topic == "identity" or m.priority == "core"
    }
    assert len(protected) == 3
    before = memory_files(repo)
    record = dream(repo, now=DREAM_AT + timedelta(days=1), force=True)
    assert record["merged"] and len(record["sessions"]) == len(SESSIONS) + 1
    assert "expire-everything" in {op["rule"] for op in record["ops"]}
    after = memory_files(repo)
    for path in protected.values():
        assert after[path] == before[path], path
    active = repo.memories(now=DREAM_AT)
    assert {m.id for m in active} == set(protected)  # everything else was pruned
    touched = {ident for op in record["ops"] for ident in op["memories"]}
    assert not touched & set(protected)
    refused = {i for d in record["decisions"] if not d["accepted"] for i in d.get("memories", [])}
    # The key rival, and both protected members of the near-duplicate group (before issue 9 only
    # the first protected member of a group was recorded, so this counted 2).
    assert len(refused & set(protected)) == 3


def test_dream_whose_main_was_force_pushed_back_stops_and_keeps_its_branch(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Main rewritten to drop a commit while the dream ran: nothing merged, the drop holds."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    dropped = repo.tip()
    assert dropped is not None
    older = git(repo, "rev-parse", "main~1").strip()
    go = tmp_path / "go"
    monkeypatch.setenv("DREAMGIT_FAULT", f"pause:before-merge:{go}")
    failed: list[BaseException] = []

    def run() -> None:
        try:
            dream(repo, now=DREAM_AT, force=True)
        except ConflictError as exc:
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    while not go.with_name("go.reached").exists() and thread.is_alive():
        time.sleep(0.01)
    git(repo, "update-ref", "refs/heads/main", older)  # what a forced push leaves
    go.touch()
    thread.join(timeout=120)
    [error] = failed
    [branch] = dream_branches(repo)
    assert str(error).startswith(
        f"main was rewritten since {branch} was made from it (it no longer holds {dropped[:12]}); "
        "nothing was merged and the branch is kept"
    )
    assert repo.tip() == older
    assert not repo.store.is_ancestor(dropped, repo.tip() or "")


def test_a_ref_lock_a_killed_dream_left_is_removed_by_the_next_run(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`refs/heads/dream/<id>.lock` from a dead run goes; the next run dreams as usual."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    folder = repo.store.git_dir / "refs" / "heads" / "dream"
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / "20261101-000000-dead.lock"
    lock.write_text("")
    os.utime(lock, (0, 0))  # left long ago
    record = dream(repo, now=DREAM_AT, force=True)
    assert record["merged"]
    assert not lock.exists()
