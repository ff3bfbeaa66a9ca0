"""`run --no-merge --summary FILE`: the pull-request body a reviewer reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.store.repo import MemoryRepo
from dreamkit import build_repo, dream_branches, invoke, invoke_json


@pytest.fixture
def repo_path(tmp_path: Path) -> Path:
    """A repository with work in every phase (see tests/dreamkit.py)."""
    build_repo(tmp_path / "mem", bare=True)
    return tmp_path / "mem"


def test_summary_lists_counts_every_operation_with_rule_and_text(
    repo_path: Path, tmp_path: Path
) -> None:
    """The body names the run, counts each kind, and shows each op's rule and texts."""
    summary = tmp_path / "pr.md"
    record = invoke_json(repo_path, "run", "--no-merge", "--summary", str(summary))
    assert record["merged"] is False
    assert dream_branches(MemoryRepo.open(repo_path)) == [record["branch"]]
    body = summary.read_text(encoding="utf-8")
    assert record["run_id"] in body
    for op in record["ops"]:
        assert op["rule"] in body, op["rule"]
        for memory in op["before"] + op["after"]:
            assert memory["text"].splitlines()[0] in body
    for kind, count in record["counts"].items():
        assert kind in body and str(count) in body


def test_summary_says_there_is_no_branch_when_the_dream_changes_nothing(
    repo_path: Path, tmp_path: Path
) -> None:
    """A settled repository: no branch is made, and the summary file says so (issue 10, item 34).

    It used to be left unwritten, so a workflow could not tell a dream that changed
    nothing from one whose summary went missing.
    """
    invoke(repo_path, "run")
    summary = tmp_path / "pr.md"
    record = invoke_json(
        repo_path, "run", "--force", "--no-merge", "--summary", str(summary), "--json"
    )
    assert record["ops"] == [] and record["branch"] is None and record["run_id"] is None
    assert summary.read_text(encoding="utf-8") == (
        "## Dream run\n\n"
        f"{record['now']} · no branch: the dream changed nothing, so there is nothing to review\n\n"
        f"Memories: {record['memories_before']} → {record['memories_after']} · sessions read: 0\n\n"
        "No operations: the memories are already consolidated.\n"
    )


def test_summary_of_a_skipped_run_gives_the_reason(repo_path: Path, tmp_path: Path) -> None:
    """The gate said no: the summary file is written and says why no dream ran."""
    invoke(repo_path, "run")
    summary = tmp_path / "pr.md"
    record = invoke_json(repo_path, "run", "--no-merge", "--summary", str(summary))
    assert record["skipped"] is True and record["branch"] is None
    assert f"Skipped at {record['now']}: {record['reason']}" in summary.read_text()
