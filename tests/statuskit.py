"""Helpers for the tests of ``status`` answered without git: the command line run in
process, and run with pygit2 made unimportable, and the full path's report to compare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.clock import parse_time
from dreamgit.dream.status import repo_status
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW_TEXT, git

#: Runs the command line with pygit2 made unimportable: the lean path must not need it.
_WITHOUT_GIT = "import sys; sys.modules['pygit2'] = None; from dreamgit.cli import main; main()"


def run(repo: Path, *args: str, now: str = NOW_TEXT) -> str:
    """``dreamgit --repo REPO --now NOW ARGS`` through click; its stdout (exit 0 checked)."""
    result = CliRunner().invoke(cli, ["--repo", str(repo), "--now", now, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def without_git(repo: Path, *args: str, now: str = NOW_TEXT) -> subprocess.CompletedProcess[str]:
    """The command line in a process where pygit2 cannot be imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DREAMGIT_")}
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_GIT, "--repo", str(repo), "--now", now, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def full(repo: Path, now: str = NOW_TEXT) -> dict[str, object]:
    """The report of the full path (git read), as ``status --json`` prints it."""
    report = repo_status(MemoryRepo.open(repo), now=parse_time(now))
    return dict(json.loads(json.dumps(report)))


def assert_lean_prints_as_full(repo: Path) -> None:
    """A status keeps the view; the next ones, without git, print the same text and JSON,
    and the JSON is the full path's report."""
    text = run(repo, "status")
    as_json = run(repo, "status", "--json")
    lean_text = without_git(repo, "status")
    lean_json = without_git(repo, "status", "--json")
    assert lean_text.returncode == 0, lean_text.stderr
    assert lean_json.returncode == 0, lean_json.stderr
    assert (lean_text.stdout, lean_json.stdout) == (text, as_json)
    assert json.loads(lean_json.stdout) == full(repo)


def make_dream_branch(repo: Path, message: str) -> None:
    """A dream branch holding a commit main does not hold, as a running or crashed dream
    leaves it."""
    made = git(
        repo,
        "-c", "user.name=t", "-c", "user.email=t@t",
        "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", message,
    )  # fmt: skip
    git(repo, "update-ref", "refs/heads/dream/20261122T030000Z-abcd", made.strip())
