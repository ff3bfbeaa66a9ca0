"""`dreamgit restore` and `show --history` through click's CliRunner: versions to pick from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from gitcheck import NOW_TEXT, git, subjects

PATH = "memories/health/allergic-penicillin.md"


def run(repo: Path, *args: str) -> Result:
    """Invoke dreamgit on ``repo`` with a fixed --now."""
    return CliRunner().invoke(cli, ["--now", NOW_TEXT, "--repo", str(repo), *args])


@pytest.fixture
def reused(tmp_path: Path) -> tuple[Path, str]:
    """A repository where one id was added (high, medical), forgotten, added again, forgotten."""
    repo = tmp_path / "mem"
    assert run(repo, "init", str(repo)).exit_code == 0
    add = ("add", "Allergic to penicillin", "--topic", "health")
    ident = run(repo, *add, "--priority", "high", "--tag", "medical").stdout.strip()
    assert run(repo, "forget", ident).exit_code == 0
    assert run(repo, *add).stdout.strip() == ident
    assert run(repo, "forget", ident).exit_code == 0
    return repo, ident


def test_show_history_numbers_each_removal_as_restore_takes_it(reused: tuple[Path, str]) -> None:
    """The lineage marks removals 1 and 2; the list after it tells them apart."""
    repo, ident = reused
    shown = run(repo, "show", ident, "--history")
    assert shown.exit_code == 0, shown.output
    forgets = git(repo, "log", "--format=%H %cI", "--grep=^forget:", "main").split("\n")[::-1]
    (first, when1), (second, when2) = (line.split() for line in forgets if line)
    lines = shown.stdout.splitlines()
    assert [line.strip() for line in lines if "(not active" in line] == [
        "(not active: removed version 1)",
        "(not active: removed version 2)",
    ]
    assert lines[-3:] == [
        f"removed versions of {ident} (bring one back: dreamgit restore {ident} --version N):",
        f"  1  {when1.replace('+00:00', 'Z')}  removed in {first[:12]}  "
        f"priority high, tags medical  {PATH}",
        f"  2  {when2.replace('+00:00', 'Z')}  removed in {second[:12]}  "
        f"priority normal, no tags  {PATH}",
    ]
    steps = json.loads(run(repo, "show", ident, "--history", "--json").stdout)
    assert [(s["op"], s.get("version")) for s in steps] == [
        ("add", None),
        ("forget", 1),
        ("add", None),
        ("forget", 2),
    ]


def test_restore_without_a_version_says_older_versions_exist(reused: tuple[Path, str]) -> None:
    """The latest comes back, as before, and the output says how to pick another."""
    repo, ident = reused
    restored = run(repo, "restore", ident)
    assert restored.exit_code == 0, restored.output
    assert restored.stdout == (
        f"restored {ident} ({PATH}): version 2 of 2\n"
        f"note: 1 older version(s) differ from it; `dreamgit show {ident} --history` lists "
        f"them. To bring one back instead: `dreamgit forget {ident}`, then "
        f"`dreamgit restore {ident} --version N`\n"
    )
    assert "priority: normal" in (repo / PATH).read_text()


def test_restore_version_json_reports_the_version(reused: tuple[Path, str]) -> None:
    """--version 1 --json: the memory as today, plus its version, their count and its commit."""
    repo, ident = reused
    added = git(repo, "log", "--format=%H", "--grep=^add:", "main").split()[-1]
    data = json.loads(run(repo, "restore", ident, "--version", "1", "--json").stdout)
    assert (data["id"], data["path"], data["priority"], data["tags"]) == (
        ident,
        PATH,
        "high",
        ["medical"],
    )
    assert (data["version"], data["versions"], data["from_commit"]) == (1, 2, added)
    assert subjects(repo)[0] == f"restore: {ident}"


def test_restore_commit_names_the_commit(reused: tuple[Path, str]) -> None:
    """--commit REV says which commit's version came back."""
    repo, ident = reused
    added = git(repo, "log", "--format=%H", "--grep=^add:", "main").split()[-1]
    restored = run(repo, "restore", ident, "--commit", added)
    assert restored.stdout == f"restored {ident} ({PATH}) as commit {added[:12]} held it\n"
    assert "tags: [medical]" in (repo / PATH).read_text()


def test_restore_refuses_both_flags_and_a_version_zero(reused: tuple[Path, str]) -> None:
    """--version with --commit, or a version below 1, is a usage error (exit 2)."""
    repo, ident = reused
    both = run(repo, "restore", ident, "--version", "1", "--commit", "main")
    assert both.exit_code == 2
    assert "give --version or --commit, not both" in both.stderr
    zero = run(repo, "restore", ident, "--version", "0")
    assert zero.exit_code == 2
    too_far = run(repo, "restore", ident, "--version", "5")
    assert (too_far.exit_code, too_far.stderr) == (
        1,
        f"error: memory {ident} has no version 5: history holds 2 removed version(s), "
        f"numbered from 1\nhint: `dreamgit show {ident} --history` lists them\n",
    )
