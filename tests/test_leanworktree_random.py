"""The lean work-tree check against libgit2's status over random edits: the check never
says "clean" where libgit2 finds an edit under the agent's paths, and says it wherever
nothing there changed (a changed executable bit, which libgit2's edits leave aside, is a
doubt: the full path answers), whether git's own status judges or the files are looked
at here (git absent); the check started before the caller's work (git running
meanwhile) says the same."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from dreamgit.gitstore.store import GitStore
from dreamgit.store.leanworktree import Committed, committed_in_work_tree, start_work_tree_check
from gitcheck import committed_work_tree, git, tree_blobs

PATHS = ("memories/", "MEMORY.md")
#: Changes that leave every file under the paths as committed.
_HARMLESS = {"none", "touch", "outside", "back"}
FILES = {
    "MEMORY.md": "- index\n",
    **{f"memories/t{k % 3}/m{k}.md": f"Memory number {k} says something.\n" for k in range(12)},
    "notes/outside.md": "Not under the agent's paths.\n",
}


def _edit(work: Path, rng: random.Random) -> str:
    """One random change (or none) under or beside the agent's paths; its name."""
    tracked = sorted(p for p in FILES if p.startswith("memories/"))
    target = work / rng.choice(tracked)
    kind = rng.choice(
        ["none", "rewrite", "same-size", "touch", "delete", "untracked", "outside", "chmod", "back"]
    )
    if kind == "rewrite":
        target.write_text("Changed by hand.\n")
    elif kind == "same-size":
        text = target.read_text()
        target.write_text(text.swapcase())  # same size, other content
    elif kind == "touch":
        os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    elif kind == "delete":
        target.unlink()
    elif kind == "untracked":
        (work / "memories" / "t1" / "new.md").write_text("Written by the agent.\n")
    elif kind == "outside":
        (work / "notes" / "outside.md").write_text("Edited outside the paths.\n")
    elif kind == "chmod":
        target.chmod(0o755)
    elif kind == "back":
        text = target.read_text()
        target.write_text("Changed, then written back.\n")
        target.write_text(text)
    return kind


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("with_git", [True, False])
def test_the_lean_check_agrees_with_libgit2_over_random_edits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, with_git: bool
) -> None:
    """Clean for the lean check only when libgit2 lists no edit under the paths, and
    always when nothing under them changed."""
    work = committed_work_tree(tmp_path / "w", FILES)
    (work / ".git" / "dreamgit" / "cache").mkdir(parents=True)
    rng = random.Random(seed)
    kinds = [_edit(work, rng) for _ in range(rng.randint(0, 2))]
    head = git(work, "rev-parse", "HEAD").strip()
    files = {p: b for p, b in tree_blobs(work).items() if p.startswith(PATHS)}
    expected = GitStore.open(work).worktree_edits(PATHS) == {}
    if not with_git:
        monkeypatch.setenv("PATH", os.fspath(tmp_path / "no-git"))
    committed = Committed(f"k{seed}", 20, lambda: files, head)
    lean = committed_in_work_tree(work / ".git", work, PATHS, committed)
    assert lean <= expected, kinds  # never clean where libgit2 finds an edit
    if set(kinds) <= _HARMLESS:
        assert lean, kinds
    # Started first, asked after other work: the same answer.
    pending = start_work_tree_check(work / ".git", work, PATHS, committed)
    assert pending() is lean, kinds
