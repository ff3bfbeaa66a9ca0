"""history: every run on main or on a dream branch, with its date, operations and status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_git  # noqa: F401 - registers merge, revert, diff, history
from dreamgit.cli import cli
from dreamgit.errors import NotFoundError, UserError
from dreamgit.history.revert import revert_run
from dreamgit.history.runs import find_run, list_runs
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT, git
from runs_support import Scenario, at, cached_three_runs, check_golden, dream_at


@pytest.fixture
def scenario(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    """Three runs with agent writes between them; main checked out."""
    return cached_three_runs(tmp_path_factory, tmp_path / "mem")


@pytest.fixture
def reverted(scenario: Scenario) -> Scenario:
    """The three runs, the first one reverted after the other two."""
    revert_run(scenario.repo, scenario.runs[0]["run_id"], now=at(4))
    return scenario


def _invoke(scenario: Scenario, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--repo", str(scenario.path), "--now", NOW_TEXT, *args])
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


def test_history_of_three_runs_one_reverted_matches_the_golden_text(reverted: Scenario) -> None:
    """`history` lists the runs newest first with date, status and operation counts."""
    check_golden("history/history.txt", _invoke(reverted, "history"))


def test_history_json_of_three_runs_one_reverted_matches_the_golden_file(
    reverted: Scenario,
) -> None:
    """`history --json` gives the same as data."""
    text = _invoke(reverted, "history", "--json")
    check_golden("history/history.json", text)
    assert [r["status"] for r in json.loads(text)] == ["merged", "merged", "reverted"]


def test_history_of_one_run_lists_its_operations_matches_the_golden_text(
    reverted: Scenario,
) -> None:
    """`history RUN` numbers the operations and says which revert undid each."""
    check_golden("history/run.txt", _invoke(reverted, "history", reverted.runs[0]["run_id"]))


def test_diff_defaults_match_the_golden_text(reverted: Scenario) -> None:
    """`diff` compares before the newest run with main, text and JSON."""
    check_golden("history/diff.txt", _invoke(reverted, "diff"))
    check_golden("history/diff.json", _invoke(reverted, "diff", "--json"))


def test_diff_of_one_run_matches_the_golden_text(reverted: Scenario) -> None:
    """`diff RUN^ RUN` shows exactly what the run did."""
    run_id = reverted.runs[0]["run_id"]
    check_golden("history/diff-run.txt", _invoke(reverted, "diff", f"{run_id}^", run_id))


def test_a_partly_reverted_run_stays_merged_and_names_the_reverted_ops(
    scenario: Scenario,
) -> None:
    """One operation reverted: the run is merged, and the text says which op was undone."""
    run_id = scenario.runs[0]["run_id"]
    revert_run(scenario.repo, run_id, op=2, now=at(4))
    run = find_run(scenario.repo, run_id)
    assert (run.status, sorted(run.reverted)) == ("merged", [2])
    line = next(x for x in _invoke(scenario, "history").splitlines() if x.startswith(run_id))
    assert line.endswith("reinforce 1, add 1, index 1; reverted: 2")


def test_a_plain_git_revert_counts_and_reverting_it_again_does_not(scenario: Scenario) -> None:
    """`git revert` of every memory op makes the run reverted; reverting those reverts undoes it."""
    run_id = scenario.runs[1]["run_id"]
    add = scenario.runs[1]["ops"][0]["commit"]
    who = ["-c", "user.name=Reviewer", "-c", "user.email=r@example.com"]
    git(scenario.path, *who, "revert", "--no-edit", add)
    assert find_run(scenario.repo, run_id).status == "reverted"
    git(scenario.path, *who, "revert", "--no-edit", "HEAD")
    assert find_run(scenario.repo, run_id).status == "merged"


def test_a_run_left_for_review_is_awaiting_review_until_merged(scenario: Scenario) -> None:
    """`run --no-merge` leaves a branch whose run shows as awaiting review, with its branch."""
    operations.log_session(scenario.repo, "User: I prefer vim over emacs.", now=at(3, 1))
    record = dream_at(scenario.repo, at(3, 2), merge=False)
    run = list_runs(scenario.repo)[0]
    assert (run.run_id, run.status, run.branch) == (
        record["run_id"],
        "awaiting review",
        record["branch"],
    )
    assert run.counts == {"add": 1, "index": 1}


def _crashed_run(repo: Path, fault: str) -> None:
    env = {**os.environ, "DREAMGIT_FAULT": fault}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dreamgit",
            "--repo",
            str(repo),
            "--now",
            "2026-11-25T05:00:00Z",
            "run",
            "--force",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == -9, done.stdout + done.stderr  # killed at the fault point


@pytest.mark.parametrize(
    ("fault", "status"), [("before-merge", "unmerged"), ("in-gather", "abandoned")]
)
def test_a_crashed_run_is_unmerged_or_abandoned(
    scenario: Scenario, fault: str, status: str
) -> None:
    """Killed after its record: unmerged; killed before it: abandoned, dated by its last commit."""
    operations.log_session(scenario.repo, "User: I prefer vim over emacs.", now=at(3, 1))
    _crashed_run(scenario.path, fault)
    run = list_runs(scenario.repo)[0]
    assert (run.status, run.date) == (status, "2026-11-25T05:00:00Z")
    assert run.branch is not None and run.branch.startswith("dream/20261125T050000Z-")


def test_a_merged_branch_that_still_exists_is_merged(scenario: Scenario) -> None:
    """A dream branch merged by hand and kept shows once, as merged, naming the branch."""
    operations.log_session(scenario.repo, "User: I prefer vim over emacs.", now=at(3, 1))
    record = dream_at(scenario.repo, at(3, 2), merge=False)
    who = ["-c", "user.name=Reviewer", "-c", "user.email=r@example.com"]
    git(scenario.path, *who, "merge", "--no-ff", "-m", "merge", record["branch"])
    runs = list_runs(scenario.repo)
    assert [r.run_id for r in runs].count(record["run_id"]) == 1
    assert (runs[0].status, runs[0].branch) == ("merged", record["branch"])


def test_a_repository_without_runs_says_so(tmp_path: Path) -> None:
    """No runs yet: one line saying so, and an empty JSON list."""
    MemoryRepo.init(tmp_path / "mem", now=NOW)
    base = ["--repo", str(tmp_path / "mem"), "history"]
    assert CliRunner().invoke(cli, base).output == "no dream runs yet\n"
    assert json.loads(CliRunner().invoke(cli, [*base, "--json"]).output) == []


def test_a_unique_prefix_names_a_run(scenario: Scenario) -> None:
    """The date part of a run id is enough when only one run has it."""
    run_id = scenario.runs[1]["run_id"]
    assert find_run(scenario.repo, run_id[:16]).run_id == run_id


def test_an_ambiguous_prefix_lists_the_runs(scenario: Scenario) -> None:
    """A prefix several runs share is refused with their ids."""
    ids = sorted((r["run_id"] for r in scenario.runs), reverse=True)
    with pytest.raises(UserError) as caught:
        find_run(scenario.repo, "2026112")
    assert caught.value.render() == (
        f"run '2026112' is ambiguous: it could be {', '.join(ids)}\nhint: give more of the run id"
    )


def test_an_unknown_run_exits_1(scenario: Scenario) -> None:
    """`history RUN` for a run nobody knows: exit 1 and a hint on stderr."""
    with pytest.raises(NotFoundError):
        find_run(scenario.repo, "nope")
    result = CliRunner().invoke(cli, ["--repo", str(scenario.path), "history", "nope"])
    assert result.exit_code == 1
    assert result.stderr == "error: no run 'nope'\nhint: list runs with `dreamgit history`\n"
