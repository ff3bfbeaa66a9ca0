"""merge RUN: a dream branch into main, three-way if main moved; a conflict changes nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_git  # noqa: F401 - registers merge, revert, diff, history
from dreamgit.cli import cli
from dreamgit.errors import ConflictError, UserError
from dreamgit.gitstore import Identity
from dreamgit.history.branches import discard_run
from dreamgit.history.runmerge import merge_run
from dreamgit.history.runs import find_run
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT, fsck, git
from runs_support import at, dream_at, touched_paths

PYTEST = "memories/preferences/prefers-pytest-over-unittest.md"


@dataclass
class Review:
    """A repository with one run left for review on its dream branch."""

    repo: MemoryRepo
    record: dict[str, Any]

    @property
    def path(self) -> Path:
        """Where git commands run."""
        return self.repo.store.workdir or self.repo.store.git_dir


def _review(root: Path, *, bare: bool = False) -> Review:
    repo = MemoryRepo.init(root, bare=bare, now=NOW)
    operations.add_memory(repo, "Prefers pytest over unittest", topic="preferences", now=NOW)
    operations.log_session(
        repo, "User: I prefer pytest over unittest for tests.\nUser: My name is Ada.", now=NOW
    )
    record = dream_at(repo, at(1), merge=False)
    assert [op["op"] for op in record["ops"]] == ["reinforce", "add", "index", "diary"]
    return Review(repo, record)


@pytest.fixture
def review(tmp_path: Path) -> Review:
    """One run awaiting review; main checked out."""
    return _review(tmp_path / "mem")


def _refs(path: Path) -> str:
    return git(path, "for-each-ref", "--format=%(refname) %(objectname)")


def _worktree(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(path).parts
    }


def test_merge_after_main_moved_is_a_three_way_merge(review: Review) -> None:
    """Agent writes on main since the dream: both sides land, the branch goes, files follow."""
    repo, record = review.repo, review.record
    old_main = repo.tip()
    agent = operations.add_memory(repo, "Deploys on Fridays", topic="work", now=at(1, 1))
    moved = repo.tip()
    assert moved != old_main
    branch_tip = repo.store.tip(record["branch"])

    outcome = merge_run(repo, record["run_id"], now=at(2))

    assert (outcome.how, outcome.branch_deleted) == ("merge", True)
    assert repo.store.commit_info(repo.tip() or "").parents == (moved, branch_tip)
    ids = {m.id for m in repo.snapshot(now=at(2)).memories}
    (added,) = touched_paths(repo, [record["ops"][1]["commit"]])
    assert agent.id in ids and record["ops"][1]["memories"][0] in ids
    assert (review.path / added).is_file()
    assert repo.store.tip(record["branch"]) is None
    assert git(review.path, "status", "--porcelain") == ""
    assert find_run(repo, record["run_id"]).status == "merged"
    fsck(review.path)


def test_merge_when_main_did_not_move_fast_forwards(review: Review) -> None:
    """Nothing happened on main: main simply moves to the branch tip."""
    tip = review.repo.store.tip(review.record["branch"])
    outcome = merge_run(review.repo, review.record["run_id"], now=at(2))
    assert (outcome.how, outcome.main) == ("fast-forward", tip)


def _conflict(review: Review, change: Any) -> ConflictError:
    review.repo.commit_main("agent edit", change, now=at(1, 1))
    refs, files = _refs(review.path), _worktree(review.path)
    with pytest.raises(ConflictError) as caught:
        merge_run(review.repo, review.record["run_id"], now=at(2))
    assert _refs(review.path) == refs
    assert _worktree(review.path) == files
    assert git(review.path, "status", "--porcelain") == ""
    assert find_run(review.repo, review.record["run_id"]).status == "awaiting review"
    return caught.value


def test_a_conflicting_merge_lists_the_paths_and_changes_nothing(review: Review) -> None:
    """The reinforced memory forgotten on main meanwhile: the path, the hint, every ref kept."""
    error = _conflict(review, lambda _tip: {PYTEST: None})
    branch = review.record["branch"]
    assert error.render() == (
        f"{branch} conflicts with main; nothing was changed and the branch is kept\n  {PYTEST}\n"
        f"hint: look at it with `git log main..{branch}`, then merge by hand or drop it with "
        f"`dreamgit discard {review.record['run_id']}`"
    )
    # The tool the hint names does drop it.
    discard_run(review.repo, review.record["run_id"])
    assert review.repo.store.tip(branch) is None


def test_an_edit_of_the_same_lines_conflicts_too(review: Review) -> None:
    """The agent rewrote the lines the dream changed: a content conflict on that file."""
    text = review.repo.read_text(PYTEST) or ""
    edited = text.replace("tags: []", "tags: [testing]")
    assert edited != text
    error = _conflict(review, lambda _tip: {PYTEST: edited.encode()})
    assert error.paths == [PYTEST]


def test_a_change_to_a_memory_removed_on_main_never_lands_on_another_memory(
    review: Review,
) -> None:
    """Main removed the reinforced memory and added a look-alike: conflict, look-alike untouched."""
    text = review.repo.read_text(PYTEST) or ""
    twin = "memories/preferences/pytest-for-python.md"
    copy = text.replace("m-", "m-twin").replace("Prefers pytest", "Likes pytest")
    review.repo.commit_main("agent", lambda _tip: {PYTEST: None, twin: copy.encode()}, now=at(1))
    try:
        merge_run(review.repo, review.record["run_id"], now=at(2))
    except ConflictError as exc:
        assert exc.paths == [PYTEST]
    assert review.repo.read_text(twin) == copy


def test_merging_a_merged_run_again_says_so(review: Review) -> None:
    """A second merge changes nothing and reports `already`."""
    merge_run(review.repo, review.record["run_id"], now=at(2))
    tip = review.repo.tip()
    again = merge_run(review.repo, review.record["run_id"], now=at(3))
    assert (again.how, again.main, review.repo.tip()) == ("already", tip, tip)


def test_a_branch_without_a_run_record_is_not_merged(review: Review) -> None:
    """What a crash left (no record) is refused with the way out."""
    store = review.repo.store
    main = review.repo.tip() or ""
    branch = "dream/20261201T000000Z-dead"
    tree = store.build_tree(main, {"memories/x/half.md": b"half a dream\n"})
    store.commit(branch, parents=[main], tree=tree, message="add: half", who=WHO, when=at(1))
    with pytest.raises(UserError) as caught:
        merge_run(review.repo, "20261201T000000Z-dead", now=at(2))
    assert caught.value.render() == (
        f"{branch} has no run record: that dream did not finish, so it is not merged\n"
        f"hint: drop it with `git branch -D {branch}` and run the dream again"
    )
    assert review.repo.tip() == main


WHO = Identity("Crashed Dream", "dream@example.com")


def test_a_crashed_run_of_dream_commits_is_refused_naming_discard(review: Review) -> None:
    """Only the run's own commits on the branch: the hint is `dreamgit discard`, which works."""
    store = review.repo.store
    main = review.repo.tip() or ""
    run_id = "20261201T000000Z-dead"
    tree = store.build_tree(main, {"memories/x/half.md": b"half a dream\n"})
    message = f"add: half\n\nDream-Run: {run_id}\nDream-Op: add"
    store.commit(f"dream/{run_id}", parents=[main], tree=tree, message=message, who=WHO, when=at(1))
    with pytest.raises(UserError) as caught:
        merge_run(review.repo, run_id, now=at(2))
    assert caught.value.render() == (
        f"dream/{run_id} has no run record: that dream did not finish, so it is not merged\n"
        f"hint: drop it with `dreamgit discard {run_id}` and run the dream again"
    )
    discard_run(review.repo, run_id)
    assert store.tip(f"dream/{run_id}") is None and review.repo.tip() == main


def test_a_branch_made_from_a_main_rewritten_since_is_refused_and_discarded(
    review: Review,
) -> None:
    """Main force-pushed back past the run's base: merge names discard, discard drops it."""
    run_id, branch = review.record["run_id"], review.record["branch"]
    base = review.record["base"]
    older = git(review.path, "rev-parse", f"{base}~1").strip()
    git(review.path, "reset", "-q", "--hard", older)  # what pulling a forced push leaves
    with pytest.raises(ConflictError) as caught:
        merge_run(review.repo, run_id, now=at(2))
    assert caught.value.hint == (
        f"see what {branch} would bring back with `git log main..{branch}`; "
        f"drop it with `dreamgit discard {run_id}` and dream again on the new main"
    )
    assert review.repo.tip() == older
    discard_run(review.repo, run_id)
    assert review.repo.store.tip(branch) is None and review.repo.tip() == older


def test_merge_works_in_a_bare_repository(tmp_path: Path) -> None:
    """No work tree: the same three-way merge lands on main."""
    bare = _review(tmp_path / "bare.git", bare=True)
    operations.add_memory(bare.repo, "Deploys on Fridays", topic="work", now=at(1, 1))
    outcome = merge_run(bare.repo, bare.record["run_id"], now=at(2))
    assert outcome.how == "merge"
    fsck(bare.path)


def test_cli_merge_prints_how_and_json(review: Review) -> None:
    """`merge RUN` says how it merged; a second time, that it was merged already."""
    operations.add_memory(review.repo, "Deploys on Fridays", topic="work", now=at(1, 1))
    base = ["--repo", str(review.path), "--now", NOW_TEXT, "merge", review.record["run_id"]]
    first = CliRunner().invoke(cli, base)
    assert first.exit_code == 0, first.output
    assert first.output == f"merged {review.record['branch']} into main (three-way merge)\n"
    again = CliRunner().invoke(cli, [*base, "--json"])
    assert json.loads(again.output) == {
        "run_id": review.record["run_id"],
        "branch": review.record["branch"],
        "merge": "already",
        "main": review.repo.tip(),
        "branch_deleted": False,
    }
    text = CliRunner().invoke(cli, base).output
    assert text == f"run {review.record['run_id']} is already merged into main\n"


@pytest.mark.parametrize("moved", [False, True], ids=["fast-forward", "three-way merge"])
def test_cli_merge_marks_the_run_merged_in_the_diary(review: Review, moved: bool) -> None:
    """DREAMS.md no longer says "Left on … for review" once `merge RUN` brought the run in."""
    run_id, branch = review.record["run_id"], review.record["branch"]
    left = f"Left on `{branch}` for review"
    tip = review.repo.store.tip(branch)
    assert left in (review.repo.read_text("DREAMS.md", tip) or "")
    if moved:
        operations.add_memory(review.repo, "Deploys on Fridays", topic="work", now=at(1, 1))
    how = "three-way merge" if moved else "fast-forward"
    args = ["--repo", str(review.path), "--now", "2026-11-25T08:30:00Z", "merge", run_id, "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["main"] == review.repo.tip()
    diary = review.repo.read_text("DREAMS.md") or ""
    assert left not in diary
    assert (
        f"Merged 2026-11-25 08:30 UTC by `dreamgit merge` ({how}) after review on `{branch}` · "
        in diary
    )
    assert (review.path / "DREAMS.md").read_text() == diary
    # One move of main: the fast-forward ends in one commit on top of the branch, the
    # three-way merge holds the new wording in the merge commit itself.
    subject = git(review.path, "log", "-1", "--format=%s", "main").strip()
    parents = git(review.path, "log", "-1", "--format=%P", "main").split()
    if moved:
        assert subject.startswith(f"dream: merge {branch} (")
        assert parents[1] == tip
    else:
        assert (subject, parents) == (f"diary: run {run_id} merged after review", [tip])
    assert find_run(review.repo, run_id).status == "merged"
    fsck(review.path)


def test_cli_merge_conflict_exits_1(review: Review) -> None:
    """A conflict is a user error: exit 1, the paths on stderr."""
    review.repo.commit_main("agent edit", lambda _tip: {PYTEST: None}, now=at(1, 1))
    result = CliRunner().invoke(cli, ["--repo", str(review.path), "merge", review.record["run_id"]])
    assert result.exit_code == 1
    assert f"nothing was changed and the branch is kept\n  {PYTEST}\n" in result.stderr
