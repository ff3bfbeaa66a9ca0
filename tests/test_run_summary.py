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


def test_no_summary_and_no_branch_when_the_dream_changes_nothing(
    repo_path: Path, tmp_path: Path
) -> None:
    """A settled repository: no branch is made, so there is no pull request to describe."""
    invoke(repo_path, "run")
    summary = tmp_path / "pr.md"
    record = invoke_json(
        repo_path, "run", "--force", "--no-merge", "--summary", str(summary), "--json"
    )
    assert record["ops"] == [] and record["branch"] is None
    assert not summary.exists()
