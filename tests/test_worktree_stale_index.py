"""A `git commit` that read the index before dreamgit staged a commit loses nothing for good.

git reads the index before it takes ``index.lock`` and writes what it read back under
the lock, even when its own compare-and-swap of the branch then fails. A `git commit`
paused between the two (here by an fsmonitor hook, which git runs while it reads the
index) writes back an index without dreamgit's new memory, and the next plain `git
commit` commits that index: main loses the memory's file. git does the same to its own
commands (a `git add` racing a `git commit` loses the add), so dreamgit cannot stop it;
the file stays in the work tree, and the next dreamgit write commits it back.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git, tree_files

#: An fsmonitor hook that says git is reading the index, then waits for a go-ahead.
PAUSE_HOOK = """
import sys, time
from pathlib import Path

folder = Path(__file__).parent
(folder / "reading").touch()
deadline = time.monotonic() + 60
while not (folder / "go").exists() and time.monotonic() < deadline:
    time.sleep(0.01)
sys.exit(1)  # no answer: git looks at every file itself
"""


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    """A memory repository with main checked out, and a person's git identity."""
    path = MemoryRepo.init(tmp_path / "mem", now=NOW).store.workdir
    assert path is not None
    git(path, "config", "user.name", "Someone")
    git(path, "config", "user.email", "someone@example.com")
    return path


def _commit_paused_in_its_index_read(worktree: Path, folder: Path) -> subprocess.Popen[str]:
    """`git commit`, started and held after it read the index, before it locks it."""
    hook = folder / "fsmonitor_hook.py"
    hook.write_text(PAUSE_HOOK)
    run_hook = shlex.join(
        [str(Path(sys.executable).absolute()), str(hook)]
    )  # git runs it through the shell
    stale = subprocess.Popen(
        ["git", "-C", str(worktree), "-c", f"core.fsmonitor={run_hook}", "commit", "-qm", "x"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    while not (folder / "reading").exists():
        if stale.poll() is not None:
            said = stale.communicate()[0]
            pytest.skip(f"this git ran no fsmonitor hook while it read the index: {said}")
        time.sleep(0.005)
    return stale


def test_memory_dropped_by_a_stale_git_commit_is_committed_back(
    worktree: Path, tmp_path: Path
) -> None:
    (worktree / "notes.txt").write_text("written by a person\n")
    git(worktree, "add", "notes.txt")
    stale = _commit_paused_in_its_index_read(worktree, tmp_path)
    repo = MemoryRepo.open(worktree)
    added = operations.add_memory(
        repo, "The staging cluster is rebuilt on Fridays", topic="ops", now=NOW
    )
    (tmp_path / "go").touch()
    out, _ = stale.communicate(timeout=60)
    assert stale.returncode != 0, out  # main moved meanwhile: its compare-and-swap failed
    if added.path in git(worktree, "ls-files"):
        pytest.skip("this git reads the index again under its lock")
    git(worktree, "commit", "-qm", "a person's commit")  # commits the index git wrote back
    assert added.path not in tree_files(worktree)
    assert (worktree / added.path).is_file()  # the file stayed where dreamgit wrote it

    operations.add_memory(
        MemoryRepo.open(worktree), "Releases are tagged by hand", topic="ops", now=NOW
    )

    brought_back = git(worktree, "log", "-1", "--format=%an|%s|%b", "--grep=^agent edits", "main")
    author, subject, body = brought_back.split("|", 2)
    assert subject.endswith(" file(s) a git commit dropped from main, brought back")
    assert author != "Someone"  # nobody edited them by hand: dreamgit is their author
    assert f"{added.path}  (dropped from main by a commit git made" in body
    texts = {m.text for m in MemoryRepo.open(worktree).memories(now=NOW)}
    assert texts == {"The staging cluster is rebuilt on Fridays", "Releases are tagged by hand"}
    assert "notes.txt" in tree_files(worktree)
    assert git(worktree, "status", "--porcelain") == ""
    fsck(worktree)
