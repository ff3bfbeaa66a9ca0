"""Dream commits carry trailers the real git binary parses: run, phase, op, rule, memory ids.

The judge is ``git log --format=%(trailers:key=…,valueonly)``, not our own
parser; our parser is then checked to read every commit the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamgit.trailers import parse_trailers
from dreamkit import DREAM_AT, fixture_copy, git, invoke, invoke_json

KEYS = ("Dream-Run", "Dream-Phase", "Dream-Op", "Dream-Rule", "Dream-Memory", "Dream-Source")


def git_trailers(repo: MemoryRepo, revisions: str) -> dict[str, dict[str, str]]:
    """Commit id → {trailer: value} over ``revisions``, as `git log` parses the messages."""
    found: dict[str, dict[str, str]] = {}
    for key in KEYS:
        fmt = f"%H %(trailers:key={key},valueonly,separator=%x1f)"
        for line in git(repo, "log", f"--format={fmt}", revisions).splitlines():
            commit, _, value = line.partition(" ")
            found.setdefault(commit, {})
            if value:
                assert "\x1f" not in value, f"{key} given twice on {commit}"
                found[commit][key] = value
    return found


def memory_op(op: dict[str, Any]) -> bool:
    """True for operations that change memories (they must name the memories)."""
    return op["op"] in {"add", "reinforce", "merge", "supersede", "prune"}


@pytest.fixture
def dreamed(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryRepo, Any]:
    """The fixture after one forced dream, merged by fast-forward."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    return repo, invoke_json(repo, "run", "--force")


def test_every_operation_commit_names_phase_op_rule_and_memories_in_git_trailers(
    dreamed: tuple[MemoryRepo, Any],
) -> None:
    """Each operation of the record is a commit whose git-parsed trailers match it."""
    repo, record = dreamed
    found = git_trailers(repo, f"{record['base']}..main")
    assert any(memory_op(op) for op in record["ops"])
    for op in record["ops"]:
        trailers = found[op["commit"]]
        assert trailers["Dream-Run"] == record["run_id"]
        assert trailers["Dream-Phase"] == op["phase"]
        assert trailers["Dream-Op"] == op["op"]
        assert trailers["Dream-Rule"] == op["rule"]
        assert trailers["Dream-Source"] == op["source"]
        if memory_op(op):
            assert trailers["Dream-Memory"] == ", ".join(op["memories"])
            assert op["memories"] and all(m.startswith("m-") for m in op["memories"])
        else:
            assert "Dream-Memory" not in trailers


def test_every_commit_of_the_dream_branch_carries_the_run_id(
    dreamed: tuple[MemoryRepo, Any],
) -> None:
    """Between the base and main's new tip there is no commit without Dream-Run."""
    repo, record = dreamed
    found = git_trailers(repo, f"{record['base']}..main")
    assert len(found) == len(record["ops"]) + 1  # the operations and the run record
    assert {t.get("Dream-Run") for t in found.values()} == {record["run_id"]}
    assert {op["commit"] for op in record["ops"]} < set(found)


def test_subjects_are_the_operation_summaries(dreamed: tuple[MemoryRepo, Any]) -> None:
    """`git log --format=%s` shows each operation's summary as its subject line."""
    repo, record = dreamed
    for op in record["ops"]:
        assert git(repo, "log", "-1", "--format=%s", op["commit"]).strip() == op["summary"]


def test_our_trailer_parser_reads_each_commit_as_git_does(
    dreamed: tuple[MemoryRepo, Any],
) -> None:
    """parse_trailers over each commit message agrees with git's own parse."""
    repo, record = dreamed
    for commit, trailers in git_trailers(repo, f"{record['base']}..main").items():
        message = repo.store.commit_info(commit).message
        ours = {k: v for k, v in parse_trailers(message).items() if k in KEYS}
        assert ours == trailers, commit


def test_merge_commit_of_a_reviewed_run_carries_the_run_id(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A three-way merge of a --no-merge run: the merge commit and its branch all have Dream-Run."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    record = invoke_json(repo, "run", "--force", "--no-merge")
    operations.add_memory(repo, "Pairs on Mondays.", topic="work", now=DREAM_AT)
    result = invoke(repo, "merge", record["run_id"])
    assert result.exit_code == 0, result.output
    found = git_trailers(repo, "main^1..main")
    tip = git(repo, "rev-parse", "main").strip()
    assert found[tip]["Dream-Op"] == "merge-run"
    assert {t["Dream-Run"] for t in found.values()} == {record["run_id"]}
    assert len(found) == len(record["ops"]) + 2  # operations, run record, merge commit
