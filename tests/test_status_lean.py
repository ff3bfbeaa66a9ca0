"""``status`` of a bare repository answers without git once a view of HEAD's commit is kept,
and says what the full path says; any doubt takes the full path (a work tree's case:
``test_status_worktree.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dreamgit.clock import parse_time
from dreamgit.dream.leanstatus import lean_status
from dreamgit.store.leanrefs import branches_under, says_bare
from gitcheck import NOW_TEXT, git
from statuskit import assert_lean_prints_as_full, full, make_dream_branch, run, without_git

LATER = "2027-02-01T12:00:00Z"

FACTS = [
    ("Waters the fern on the balcony every Sunday.", "habits", "low"),
    ("Has a haircut booked for Friday afternoon.", "plans", "ephemeral"),
    ("Plays the cello in an amateur orchestra.", "identity", "core"),
    ("Rides a blue folding bicycle to work.", "things", "normal"),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A bare memory repository with memories of several priorities, sessions and a run."""
    path = tmp_path / "mem.git"
    run(tmp_path, "init", "--bare", str(path))
    for text, topic, priority in FACTS:
        run(path, "add", text, "--topic", topic, "--priority", priority)
    run(path, "log", "The user said they moved the fern indoors for the winter.")
    run(path, "run", "--force")
    run(path, "log", "The user asked about the orchestra's next concert.")
    return path


def test_a_second_status_reads_no_git_and_prints_what_the_full_path_prints(repo: Path) -> None:
    """The first status keeps the view; the next one runs with pygit2 unimportable."""
    assert_lean_prints_as_full(repo)


def test_status_after_an_add_reads_no_git_and_counts_the_new_memory(repo: Path) -> None:
    """An add carries the view to its commit: the new memory and topic are counted."""
    before = json.loads(run(repo, "status", "--json"))
    run(repo, "add", "Collects postcards from lighthouses.", "--topic", "hobbies")
    found = without_git(repo, "status", "--json")
    assert found.returncode == 0, found.stderr
    report = json.loads(found.stdout)
    assert report == full(repo)
    assert report["memories"] == before["memories"] + 1
    assert "hobbies" in report["topics"]


def test_lean_status_judges_the_time_again(repo: Path) -> None:
    """Months later: the gate's hours and the verdicts that move with age, as the full path."""
    run(repo, "status")
    folder = repo
    later = lean_status(folder, parse_time(LATER))
    assert later is not None
    assert later == full(repo, LATER)
    assert later["health"] != full(repo)["health"]  # the low and ephemeral ones aged


def test_lean_status_steps_aside_for_a_missing_or_damaged_store(repo: Path) -> None:
    """No database, or garbage in it: the full path answers, with the same report."""
    run(repo, "status")
    before = full(repo)
    cache = repo / "dreamgit" / "cache"
    shutil.rmtree(cache)
    assert lean_status(repo, parse_time(NOW_TEXT)) is None
    assert json.loads(run(repo, "status", "--json")) == before
    for file in cache.iterdir():
        file.write_bytes(b"not a database" * 100)
    assert lean_status(repo, parse_time(NOW_TEXT)) is None
    assert json.loads(run(repo, "status", "--json")) == before


def test_lean_status_steps_aside_when_a_dream_branch_appears(repo: Path) -> None:
    """A branch the view did not see: the full path lists it."""
    run(repo, "status")
    assert lean_status(repo, parse_time(NOW_TEXT)) is not None
    # A commit main does not hold, as a crashed dream leaves its branch.
    make_dream_branch(repo, "a crashed dream")
    assert lean_status(repo, parse_time(NOW_TEXT)) is None
    report = json.loads(run(repo, "status", "--json"))
    assert report == full(repo)
    assert report["abandoned"] == ["dream/20261122T030000Z-abcd"]


def test_branches_under_reads_loose_and_packed_refs(tmp_path: Path) -> None:
    """Loose refs win over packed ones; a symbolic ref is a doubt."""
    git_dir = tmp_path / "r.git"
    git(tmp_path, "init", "-q", "--bare", str(git_dir))
    one, two = "1" * 40, "2" * 40
    (git_dir / "packed-refs").write_text(
        f"# pack-refs with: peeled\n{one} refs/heads/dream/a\n{one} refs/heads/main\n"
    )
    assert branches_under(git_dir, "dream/") == {"dream/a": one}
    (git_dir / "refs" / "heads" / "dream" / "x").mkdir(parents=True)
    (git_dir / "refs" / "heads" / "dream" / "a").write_text(f"{two}\n")
    (git_dir / "refs" / "heads" / "dream" / "x" / "b").write_text(f"{one}\n")
    assert branches_under(git_dir, "dream/") == {"dream/a": two, "dream/x/b": one}
    (git_dir / "refs" / "heads" / "dream" / "c").write_text("ref: refs/heads/main\n")
    assert branches_under(git_dir, "dream/") is None


def test_says_bare_only_for_a_config_that_says_so_alone(tmp_path: Path) -> None:
    """``bare = true`` everywhere it is said; anything else is a work tree's."""
    config = tmp_path / "config"
    config.write_text("[core]\n\tbare = true\n")
    assert says_bare(tmp_path)
    config.write_text("[core]\n\tbare = true\n[core]\n\tbare = false\n")
    assert not says_bare(tmp_path)
    config.write_text("[core]\n\tfilemode = true\n")
    assert not says_bare(tmp_path)
