"""Several processes writing one memory repository at once lose nothing.

The writers wait at a start line (:data:`START_LINE`) until every one of them has
imported and opened the repository, so their writes overlap from the first: without
it the later starters would mostly write after the first had finished, and only many
writes each made a race likely. With it a few tens of writes each race as much, and
each test checks that the writers' commits did interleave on main.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git, tree_files

#: Sessions and memories each of the four writers into a bare repository adds.
BARE_WRITES = 15
#: Memories each dreamgit writer adds, and commits each plain `git commit` writer makes,
#: when the two kinds race on a checked-out main.
ADDS_PER_WRITER, COMMITS_PER_WRITER = 40, 25

#: Run by each writer after its imports: it says it is ready, then waits for the others.
START_LINE = """
import time
from pathlib import Path as _Path

def wait_for_the_others(folder, name, writers):
    _Path(folder, f"ready-{name}").touch()
    deadline = time.monotonic() + 120
    while len(list(_Path(folder).glob("ready-*"))) < writers and time.monotonic() < deadline:
        time.sleep(0.005)


# Until main holds a file under `folder` (the other kind of writer has committed): each
# writer's last commit waits for it, so dreamgit's and git's commits always interleave.
def wait_for_a_commit_under(repo, folder, seconds=120):
    import subprocess
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        listed = subprocess.run(
            ["git", "-C", str(repo), "ls-tree", "--name-only", "main", folder + "/"],
            capture_output=True, text=True,
        )
        if listed.stdout.strip():
            return
        time.sleep(0.01)
"""

WORKER = (
    START_LINE
    + """
import sys
from datetime import UTC, datetime, timedelta
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

path, worker, count, writers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
repo = MemoryRepo.open(path)
start = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
wait_for_the_others(_Path(path).parent, f"w{worker}", writers)
for i in range(count):
    now = start + timedelta(seconds=i)
    operations.log_session(repo, f"worker {worker} session {i}", now=now)
    operations.add_memory(repo, f"worker {worker} fact {i}", topic=f"w{worker}", now=now)
"""
)


def _run_writers(path: Path, workers: int, count: int) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path), str(w), str(count), str(workers)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, out + err


def _check_everything_present(repo: MemoryRepo, path: Path, workers: int, count: int) -> None:
    files = tree_files(path)
    assert len([f for f in files if f.startswith("sessions/")]) == workers * count
    texts = sorted(m.text for m in repo.memories(now=NOW))
    assert texts == sorted(f"worker {w} fact {i}" for w in range(workers) for i in range(count))
    assert int(git(path, "rev-list", "--count", "main")) == 1 + 2 * workers * count
    assert int(git(path, "rev-list", "--count", "--merges", "main")) == 0
    assert _turns(path, r"^memories/w(\d+)/") >= workers  # they raced: main is no file of runs
    fsck(path)


def _turns(path: Path, pattern: str) -> int:
    """How often main's history passes from one writer to another (first parent, oldest
    first), the writer read from the first path each commit adds."""
    names = git(path, "log", "--reverse", "--format=", "--name-only", "--diff-filter=A", "main")
    writers = [found.group(1) for line in names.splitlines() if (found := re.match(pattern, line))]
    return sum(1 for a, b in itertools.pairwise(writers) if a != b)


@pytest.mark.slow
def test_four_writers_into_a_bare_repository_lose_nothing(tmp_path: Path) -> None:
    """4 processes x (sessions + memories) give every file and one commit each."""
    path = tmp_path / "mem.git"
    repo = MemoryRepo.init(path, bare=True, now=NOW)
    _run_writers(path, workers=4, count=BARE_WRITES)
    _check_everything_present(repo, path, workers=4, count=BARE_WRITES)


@pytest.mark.slow
def test_four_writers_into_a_checked_out_work_tree_keep_it_clean(tmp_path: Path) -> None:
    """With main checked out, concurrent writers take turns and every file lands in the tree."""
    path = tmp_path / "mem"
    repo = MemoryRepo.init(path, now=NOW)
    _run_writers(path, workers=4, count=10)
    _check_everything_present(repo, path, workers=4, count=10)
    assert git(path, "status", "--porcelain") == ""
    for file in tree_files(path):
        assert (path / file).read_bytes() == repo.store.read_path(repo.tip(), file)
    subjects = git(path, "log", "--format=%s", "main").splitlines()
    assert not [s for s in subjects if s.startswith("agent edits")]


GIT_COMMITTER = (
    START_LINE
    + """
import fcntl, subprocess, sys
from pathlib import Path

path, worker, count, writers = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), 4
wait_for_the_others(path.parent, f"g{worker}", writers)


def git(*args):
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)


for i in range(count):
    if i == count - 1:
        wait_for_a_commit_under(path, "memories")
    name = f"manual/g{worker}-{i}.txt"
    (path / "manual").mkdir(exist_ok=True)
    (path / name).write_text(f"plain git writer {worker}, commit {i}\\n")
    # git itself refuses while another process holds the index or the branch: try again,
    # as a person would; a commit that fails changes nothing.
    # The two git writers take turns among themselves: git does not guard two of its own
    # `git commit`s from each other (each reads the index before locking it). They race
    # dreamgit freely.
    with open(path.parent / "git-writers.lock", "w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        while git("cat-file", "-e", f"main:{name}").returncode != 0:
            git("add", name)
            git("commit", "-q", "-m", f"plain git {worker} {i}")
"""
)


@pytest.mark.slow  # four racing processes, the git writers three `git` runs a commit
def test_plain_git_commits_racing_dreamgit_writers_lose_nothing(tmp_path: Path) -> None:
    """2 dreamgit writers (adds) and 2 `git commit` writers (commits): all on main."""
    path = tmp_path / "mem"
    repo = MemoryRepo.init(path, now=NOW)
    git(path, "config", "user.name", "Someone")
    git(path, "config", "user.email", "someone@example.com")
    adds, commits = ADDS_PER_WRITER, COMMITS_PER_WRITER
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ADDER, str(path), str(w), str(adds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(2)
    ] + [
        subprocess.Popen(
            [sys.executable, "-c", GIT_COMMITTER, str(path), str(w), str(commits)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(2)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, out + err
    files = set(tree_files(path))
    manual = {f"manual/g{w}-{i}.txt" for w in range(2) for i in range(commits)}
    assert manual - files == set()
    assert _turns(path, r"^(manual|memories)/") >= 2  # dreamgit's and git's commits interleave
    added = {f"worker {w} fact {i}" for w in range(2) for i in range(adds)}
    # A `git commit` that read the index just before an add staged it writes that index
    # back (test_worktree_stale_index.py): the next `git commit` drops the add from main,
    # never from the work tree, and the next dreamgit write commits it back.
    lines = {line for f in (path / "memories").rglob("*.md") for line in f.read_text().splitlines()}
    assert added - lines == set()
    operations.log_session(repo, "after the race", now=NOW)
    texts = {m.text for m in repo.memories(now=NOW)}
    assert added - texts == set()
    assert git(path, "status", "--porcelain") == ""
    fsck(path)


ADDER = (
    START_LINE
    + """
import sys
from datetime import UTC, datetime, timedelta
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
repo = MemoryRepo.open(path)
start = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
wait_for_the_others(_Path(path).parent, f"a{worker}", 4)
for i in range(count):
    if i == count - 1:
        wait_for_a_commit_under(path, "manual")
    operations.add_memory(repo, f"worker {worker} fact {i}", topic=f"w{worker}", now=start)
"""
)
