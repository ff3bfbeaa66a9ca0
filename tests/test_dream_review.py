"""review is run without the writing; a gated run writes nothing either.

``review`` and ``run`` share one planning function, so on the same state the
operations review shows are exactly the ones run commits (the diary entry's
summary names the run id review cannot know yet).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamkit import (
    DREAM_AT,
    SESSIONS,
    build_repo,
    fixture_copy,
    git,
    invoke,
    invoke_json,
    op_view,
    refs,
    worktree_files,
)

GATE = "new_sessions >= 3 and hours_since_last_dream >= 1"


def without_commits(ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The operations with the one field review cannot know (where each got committed)."""
    return [{k: v for k, v in op.items() if k != "commit"} for op in ops]


@pytest.mark.parametrize("rules", [None, "conservative"])
def test_review_shows_exactly_the_operations_run_then_applies(
    rules: str | None, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Same state, same --now: review's ops (and deferred items) are run's, diary included."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    extra = ("--rules", rules) if rules else ()
    review = invoke_json(repo, "review", "--force", *extra)
    run = invoke_json(repo, "run", "--force", *extra)
    assert review["ops"], "the fixture must give review something to show"
    assert [op["phase"] for op in run["ops"]][-1] == "diary"
    assert review["ops"][-1]["summary"] == "diary: dream <run-id>"
    assert run["ops"][-1]["summary"] == f"diary: dream {run['run_id']}"
    review["ops"][-1]["summary"] = run["ops"][-1]["summary"]  # the one thing review can't know
    assert without_commits(review["ops"]) == without_commits(run["ops"])
    assert op_view(review["ops"]) == op_view(run["ops"])
    assert review["counts"] == run["counts"]
    for key in ("sessions", "deferred", "memories_before", "memories_after", "base"):
        assert review[key] == run[key], key
    assert (review["applied"], run["applied"]) == (False, True)
    assert all(op["commit"] is None for op in review["ops"])
    assert all(op["commit"] for op in run["ops"])


def test_review_moves_no_ref_and_leaves_the_work_tree_alone(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every ref, every work-tree file and `git status` are the same after review."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    before = (refs(repo), worktree_files(repo), git(repo, "status", "--porcelain"))
    assert invoke_json(repo, "review", "--force")["ops"]
    result = invoke(repo, "review", "--force")
    assert result.exit_code == 0, result.output
    assert (refs(repo), worktree_files(repo), git(repo, "status", "--porcelain")) == before


def test_review_table_lists_each_operation_and_the_totals(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The text form: a header, one line per operation with its rule, then the counts."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    record = invoke_json(repo, "review", "--force")
    lines = invoke(repo, "review", "--force").stdout.splitlines()
    assert lines[0].split() == ["#", "phase", "op", "rule", "summary"]
    ops = record["ops"]
    for line, op in zip(lines[1 : 1 + len(ops)], ops, strict=True):
        assert line.split()[:4] == [str(op["n"]), op["phase"], op["op"], op["rule"]]
        assert line.endswith(op["summary"])
    assert lines[-1] == (
        f"memories: {record['memories_before']} → {record['memories_after']}; "
        f"sessions gathered: {len(record['sessions'])}"
    )


def test_review_leaves_uncommitted_agent_edits_uncommitted(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A memory edited by hand stays an uncommitted edit: review commits nothing, not even it."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    memory = repo.memories(now=DREAM_AT)[0]
    file = tmp_path / "mem" / memory.path
    file.write_text(file.read_text(encoding="utf-8") + "Edited by the agent.\n", encoding="utf-8")
    before = (refs(repo), worktree_files(repo))
    assert invoke_json(repo, "review", "--force")["ops"]
    assert (refs(repo), worktree_files(repo)) == before
    assert git(repo, "status", "--porcelain") == f" M {memory.path}\n"


def test_review_equals_run_when_the_agent_deleted_a_memory_by_hand(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A hand-deleted memory file: review must plan on the state run will plan on."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem")
    [old] = [m for m in repo.memories(now=DREAM_AT) if m.text == "Deploys go out on Tuesdays."]
    (tmp_path / "mem" / old.path).unlink()
    review = invoke_json(repo, "review", "--force")
    run = invoke_json(repo, "run", "--force")
    assert op_view(review["ops"])[:-1] == op_view(run["ops"])[:-1]  # the diary names the run


# -- the gate ------------------------------------------------------------------------------


def gated_repo(root: Path, sessions: int, *, bare: bool = True) -> MemoryRepo:
    """The fixture with only the first ``sessions`` sessions logged."""
    return build_repo(root, bare=bare, sessions=SESSIONS[:sessions])


def test_run_below_the_gate_exits_0_says_why_and_writes_nothing(tmp_path: Path) -> None:
    """Two new sessions where the gate wants three: skipped, with the figures, no ref moved."""
    repo = gated_repo(tmp_path / "mem", 2, bare=False)
    before = (refs(repo), worktree_files(repo))
    result = invoke(repo, "run")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"skipped: gate not met ({GATE}): 2 new session(s), last dream never\n"
    )
    record = invoke_json(repo, "run")
    assert record["skipped"] is True
    assert record["reason"] == f"gate not met ({GATE}): 2 new session(s), last dream never"
    assert (record["run_id"], record["branch"], record["ops"]) == (None, None, [])
    assert (refs(repo), worktree_files(repo)) == before


def test_run_soon_after_the_last_dream_is_skipped_whatever_the_sessions(tmp_path: Path) -> None:
    """Three new sessions half an hour after a dream: the hours part of the gate says no."""
    repo = gated_repo(tmp_path / "mem", 2)
    assert invoke_json(repo, "run", "--force")["merged"]
    for k, text in enumerate(SESSIONS[2:]):
        operations.log_session(repo, text, now=DREAM_AT + timedelta(minutes=k + 1))
    before = refs(repo)
    record = invoke_json(repo, "run", now=DREAM_AT + timedelta(minutes=30))
    assert record["skipped"] is True
    assert record["reason"] == f"gate not met ({GATE}): 3 new session(s), last dream 0.5 h"
    assert refs(repo) == before


def test_forced_run_bypasses_the_gate(tmp_path: Path) -> None:
    """--force runs the dream the gate would have skipped."""
    repo = gated_repo(tmp_path / "mem", 2)
    record = invoke_json(repo, "run", "--force")
    assert record["skipped"] is False and record["merged"] is True
    assert record["sessions"] and record["ops"]
