"""End to end through a remote: dream for review, push, merge with plain git, pull the memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

import dreamgit.cli.cmd_git
from dreamgit import operations
from dreamgit.cli import cli
from dreamgit.repo import MemoryRepo
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
