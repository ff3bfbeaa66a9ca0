"""End to end through a remote: dream for review, push, merge with plain git, pull the memory."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_git
from clikit import prepared
from dreamgit.cli import cli
from dreamgit.dream.run import dream
from dreamgit.errors import NotFoundError, UserError
from dreamgit.history.memdiff import memory_diff
from dreamgit.history.push import push_branch
from dreamgit.history.revert import revert_run
from dreamgit.history.runs import find_run
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, fsck, git

REVIEWER = ["-c", "user.name=Reviewer", "-c", "user.email=reviewer@example.com"]


def dreamgit(repo: Path, now: str, *args: str) -> str:
    """The installed command, as a scheduler would run it; fails the test on a non-zero exit."""
    done = subprocess.run(
        [sys.executable, "-m", "dreamgit", "--repo", str(repo), "--now", now, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_dream_reviewed_and_merged_with_plain_git_reaches_the_agent(tmp_path: Path) -> None:
    """Clone, dream --no-merge --push origin, a reviewer merges with git, the agent pulls."""
    origin, agent, reviewer = tmp_path / "origin.git", tmp_path / "agent", tmp_path / "reviewer"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    repo = MemoryRepo.init(agent, now=NOW)
    operations.add_memory(repo, "Prefers pytest over unittest", topic="preferences", now=NOW)
    operations.log_session(
        repo, "User: I prefer pytest over unittest for tests.\nUser: My name is Ada.", now=NOW
    )
    git(agent, "push", "--quiet", "origin", "main")
    main_before = git(agent, "rev-parse", "main").strip()

    record = json.loads(
        dreamgit(
            agent,
            "2026-11-23T03:00:00Z",
            "run",
            "--force",
            "--no-merge",
            "--push",
            "origin",
            "--json",
        )
    )
    branch, run_id = record["branch"], record["run_id"]
    added = next(op for op in record["ops"] if op["op"] == "add")
    assert git(agent, "rev-parse", "main").strip() == main_before  # left for review
    assert git(origin, "rev-parse", branch).strip() == git(agent, "rev-parse", branch).strip()

    git(tmp_path, "clone", "--quiet", str(origin), str(reviewer))
    git(
        reviewer,
        *REVIEWER,
        "merge",
        "--quiet",
        "--no-ff",
        "-m",
        f"Merge {branch}",
        f"origin/{branch}",
    )
    git(reviewer, "push", "--quiet", "origin", "main")

    git(agent, "pull", "--quiet", "--ff-only", "origin", "main")
    listing = CliRunner().invoke(cli, ["--repo", str(agent), "memories", "--json"])
    memories = json.loads(listing.output)
    (new,) = [m for m in memories if m["id"] == added["memories"][0]]
    assert (agent / new["path"]).is_file()
    assert f"]({new['path']})" in (agent / "MEMORY.md").read_text()
    assert git(agent, "status", "--porcelain") == ""

    history = CliRunner().invoke(cli, ["--repo", str(agent), "history", "--json"])
    (run,) = json.loads(history.output)
    assert (run["run_id"], run["status"], run["branch"]) == (run_id, "merged", branch)
    tidy = CliRunner().invoke(cli, ["--repo", str(agent), "merge", run_id, "--json"])
    assert json.loads(tidy.output)["merge"] == "already"
    assert json.loads(tidy.output)["branch_deleted"] is True
    assert branch not in git(agent, "branch", "--list")
    fsck(agent)
    fsck(origin)


def test_a_run_squashed_on_the_remote_cannot_be_reverted_and_says_why(tmp_path: Path) -> None:
    """Squash-merged and its branch deleted: a fresh clone lacks the op commits; both say so."""
    origin, agent, reviewer = tmp_path / "origin.git", tmp_path / "agent", tmp_path / "reviewer"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    repo = MemoryRepo.init(agent, now=NOW)
    operations.log_session(repo, "User: I prefer pytest over unittest for tests.", now=NOW)
    git(agent, "push", "--quiet", "origin", "main")
    record = dream(repo, now=NOW + timedelta(days=1), force=True, merge=False)
    push_branch(repo, record["branch"], remote="origin")
    git(tmp_path, "clone", "--quiet", str(origin), str(reviewer))
    git(reviewer, "merge", "--quiet", "--squash", f"origin/{record['branch']}")
    git(reviewer, *REVIEWER, "commit", "--quiet", "-m", "Dream, squashed")
    git(reviewer, "push", "--quiet", "origin", "main", f":{record['branch']}")

    fresh = MemoryRepo.open(_clone(tmp_path, origin))
    run_id, first = record["run_id"], record["ops"][0]["commit"]
    assert find_run(fresh, run_id).status == "merged"
    with pytest.raises(UserError) as caught:
        revert_run(fresh, run_id, now=NOW + timedelta(days=2))
    assert caught.value.render() == (
        f"operation 1 of run {run_id} names commit {first}, which is not in this repository\n"
        "hint: was the dream branch squashed or rebased when it was merged? "
        "fetch it, or undo the change by hand"
    )
    with pytest.raises(NotFoundError) as missing:
        memory_diff(fresh, f"{run_id}^", run_id, now=NOW)
    assert missing.value.render() == (
        f"run {run_id}'s commits are not in this repository\n"
        "hint: was its branch squashed or rebased when merged? compare revisions instead"
    )


def _clone(tmp_path: Path, origin: Path) -> Path:
    fresh = tmp_path / "fresh"
    git(
        tmp_path, "clone", "--quiet", "--no-local", str(origin), str(fresh)
    )  # objects it needs only
    return fresh


def _night(
    tmp_path: Path, origin: Path, name: str, now: str, *, process: bool = True
) -> dict[str, object]:
    """What the Action does: a fresh clone, the remote's dream branches fetched, run, push;
    the run as a process, or (``process=False``, a night that only sets the scene) in this
    one through ``clikit.prepared``, the same command code."""
    work = tmp_path / name
    git(tmp_path, "clone", "--quiet", str(origin), str(work))
    git(work, "fetch", "--quiet", "origin", "+refs/heads/dream/*:refs/heads/dream/*")
    args = ("run", "--no-merge", "--push", "origin", "--json")
    out = dreamgit(work, now, *args) if process else prepared(work, now, *args)
    return dict(json.loads(out))


def _remote_dream_branches(origin: Path) -> list[str]:
    listing = git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/dream/")
    return listing.split()


def _agent_with_origin(tmp_path: Path) -> tuple[Path, MemoryRepo]:
    """A bare ``origin`` and the agent's clone of it, a memory repository."""
    origin, agent = tmp_path / "origin.git", tmp_path / "agent"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    return origin, MemoryRepo.init(agent, now=NOW)


def _log_and_push(repo: MemoryRepo, facts: list[str], day: int) -> None:
    """The agent's sessions of ``day``, one a fact, pushed to ``origin``'s main (a run
    without ``--force`` starts at three new sessions)."""
    for n, fact in enumerate(facts):
        operations.log_session(
            repo, f"User: I prefer {fact}.", now=NOW + timedelta(days=day, minutes=n)
        )
    git(Path(repo.store.workdir), "push", "--quiet", "origin", "main")


def test_a_nights_run_replaces_the_branch_of_the_night_before_on_the_remote(
    tmp_path: Path,
) -> None:
    """Night two's branch holds night one's sessions too, and replaces its branch."""
    origin, repo = _agent_with_origin(tmp_path)
    _log_and_push(repo, ["green tea", "vim over emacs", "dark mode"], day=0)
    first = _night(tmp_path, origin, "night1", "2026-11-23T03:00:00Z", process=False)
    assert _remote_dream_branches(origin) == [first["branch"]]

    _log_and_push(repo, ["pytest", "tabs", "zsh"], day=1)
    second = _night(tmp_path, origin, "night2", "2026-11-24T03:00:00Z")
    assert second["replaced"] == [
        {
            "branch": first["branch"],
            "tip": git(tmp_path / "night1", "rev-parse", str(first["branch"])).strip(),
        }
    ]
    assert _remote_dream_branches(origin) == [second["branch"]]
    assert len(second["sessions"]) == 6  # type: ignore[arg-type]


def test_a_branch_a_reviewer_pushed_to_is_kept_by_the_next_night(tmp_path: Path) -> None:
    """A reviewer's commit on the open branch: the next night leaves it and dreams the new."""
    origin, repo = _agent_with_origin(tmp_path)
    _log_and_push(repo, ["green tea", "vim over emacs", "dark mode"], day=0)
    first = _night(tmp_path, origin, "night1", "2026-11-23T03:00:00Z", process=False)

    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "--quiet", "-b", str(first["branch"]), str(origin), str(reviewer))
    (reviewer / "notes").mkdir()
    (reviewer / "notes" / "review.md").write_text("looked at it\n", encoding="utf-8")
    git(reviewer, "add", "notes/review.md")
    git(reviewer, *REVIEWER, "commit", "--quiet", "-m", "review note")
    git(reviewer, "push", "--quiet", "origin", str(first["branch"]))

    _log_and_push(repo, ["light roast coffee", "short meetings", "rye bread"], day=1)
    second = _night(tmp_path, origin, "night2", "2026-11-24T03:00:00Z", process=False)
    assert "replaced" not in second
    assert len(second["sessions"]) == 3  # type: ignore[arg-type]
    assert sorted(_remote_dream_branches(origin)) == sorted([first["branch"], second["branch"]])


def test_a_replaced_branch_the_remote_does_not_hold_as_seen_is_kept_with_a_warning(
    tmp_path: Path,
) -> None:
    """The lease refuses to delete what the run did not see: a warning, the new branch pushed."""
    origin, agent = tmp_path / "origin.git", tmp_path / "agent"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    repo = MemoryRepo.init(agent, now=NOW)
    for n, fact in enumerate(["green tea", "vim over emacs", "dark mode"]):
        operations.log_session(repo, f"User: I prefer {fact}.", now=NOW + timedelta(minutes=n))
    first = dream(repo, now=NOW + timedelta(hours=2), merge=False)  # never pushed
    for n, fact in enumerate(["pytest", "tabs", "zsh"]):
        operations.log_session(
            repo, f"User: I prefer {fact}.", now=NOW + timedelta(days=1, minutes=n)
        )
    args = ["--repo", str(agent), "--now", "2026-11-24T03:00:00Z", "run", "--no-merge"]
    done = CliRunner().invoke(cli, [*args, "--push", "origin"])  # the process: the first test
    assert done.exit_code == 0, done.output
    assert done.stderr == (
        f"warning: {first['branch']} on origin was not deleted (gone already, or someone "
        "pushed to it); this run's branch holds its sessions\n"
    )
    assert (
        f"replaced {first['branch']}: its sessions are dreamed again in this run\n" in done.stdout
    )
    pushed = git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/dream/").split()
    assert len(pushed) == 1 and pushed[0] != first["branch"]


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_a_push_that_fails_after_a_merge_still_shows_the_run(as_json: bool, tmp_path: Path) -> None:
    """The dream merged, then the push failed: exit 1, yet the run id and the merge are told."""
    agent = tmp_path / "agent"
    repo = MemoryRepo.init(agent, now=NOW)
    operations.log_session(repo, "User: I prefer pytest over unittest for tests.", now=NOW)
    git(agent, "remote", "add", "origin", str(tmp_path / "gone.git"))
    args = ["--repo", str(agent), "--now", "2026-11-23T03:00:00Z", "run", "--force"]
    done = CliRunner().invoke(cli, [*args, "--push", "origin", *(["--json"] * as_json)])
    assert done.exit_code == 1, done.output
    assert "error: git push origin main failed: " in done.stderr
    assert "hint: check the remote's name and your credentials" in done.stderr
    [run] = json.loads(CliRunner().invoke(cli, ["--repo", str(agent), "history", "--json"]).output)
    assert run["status"] == "merged"
    if as_json:
        record = json.loads(done.stdout)
        assert (record["run_id"], record["merged"]) == (run["run_id"], True)
        assert record["push"]["remote"] == "origin" and record["push"]["pushed"] is False
        assert record["push"]["error"].startswith("git push origin main failed: ")
    else:
        assert f"dream {run['run_id']}: merged into main (dream/{run['run_id']})\n" in done.stdout
        assert "pushed" not in done.stdout


def test_a_pushed_run_says_where_it_went(tmp_path: Path) -> None:
    """--push to a real remote: the text names the branch and the remote; --json says pushed."""
    origin, agent = tmp_path / "origin.git", tmp_path / "agent"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    repo = MemoryRepo.init(agent, now=NOW)
    operations.log_session(repo, "User: I prefer pytest over unittest for tests.", now=NOW)
    git(agent, "remote", "add", "origin", str(origin))
    at = "2026-11-23T03:00:00Z"
    out = prepared(agent, at, "run", "--force", "--no-merge", "--push", "origin")
    [branch] = git(origin, "branch", "--list", "--format=%(refname:short)").split()
    assert out.endswith(f"left for review ({branch})\npushed {branch} to origin\n")
    operations.log_session(repo, "User: I deploy on Fridays now.", now=NOW + timedelta(hours=3))
    record = json.loads(
        prepared(agent, "2026-11-23T06:00:00Z", "run", "--force", "--push", "origin", "--json")
    )
    assert record["merged"] is True
    assert record["push"] == {"remote": "origin", "branch": "main", "pushed": True, "error": None}
    assert git(origin, "rev-parse", "main") == git(agent, "rev-parse", "main")
