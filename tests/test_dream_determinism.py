"""Same input and --now give the same dream; a dream settles the memory it dreamt about.

Determinism is checked across two repositories built from scratch (one bare,
one with a work tree), so nothing can come from a shared cache or a copy.
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
    build_repo,
    dream_branches,
    fixture_copy,
    git,
    invoke,
    invoke_json,
    refs,
    tree_of,
)


def dreamt(root: Path, *, bare: bool) -> tuple[MemoryRepo, dict[str, Any]]:
    """A fresh fixture repository after one forced dream at DREAM_AT."""
    repo = build_repo(root, bare=bare)
    return repo, invoke_json(repo, "run", "--force")


def test_same_input_and_now_give_the_same_operations_trees_and_commits(tmp_path: Path) -> None:
    """Two fresh builds dream alike: ops, run id, every commit and tree id on main."""
    a, first = dreamt(tmp_path / "a", bare=True)
    b, second = dreamt(tmp_path / "b", bare=False)
    assert first["ops"] and first == second
    assert tree_of(a) == tree_of(b)
    log = ["log", "--format=%H %T", "main"]
    assert git(a, *log) == git(b, *log)


def test_review_of_the_same_input_is_the_same_on_every_call(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Planning twice (review, review again) gives the identical record."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    first = invoke_json(repo, "review", "--force")
    assert first["ops"] and invoke_json(repo, "review", "--force") == first


# -- settling ------------------------------------------------------------------------------


@pytest.fixture
def settled(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryRepo:
    """The fixture after one dream that did something."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    assert invoke_json(repo, "run", "--force")["ops"]
    return repo


def test_second_run_without_new_sessions_makes_no_operation_commit_or_branch(
    settled: MemoryRepo,
) -> None:
    """An hour later, nothing new: zero operations, no run id, no ref moved or created."""
    before = refs(settled)
    record = invoke_json(settled, "run", "--force", now=DREAM_AT + timedelta(hours=1))
    assert (record["ops"], record["run_id"], record["branch"], record["sessions"]) == (
        [],
        None,
        None,
        [],
    )
    assert record["reason"] == "nothing to do"
    assert refs(settled) == before and dream_branches(settled) == []


def test_settled_run_says_so_in_text(settled: MemoryRepo) -> None:
    """The text form of a run with nothing to do says the memory is settled."""
    result = invoke(settled, "run", "--force", now=DREAM_AT + timedelta(hours=1))
    assert result.exit_code == 0, result.output
    assert result.stdout == "nothing to do: the memory is settled\n"


def test_compact_on_a_settled_repository_makes_no_operation(settled: MemoryRepo) -> None:
    """compact (consolidate and prune only) finds nothing either, and writes nothing."""
    before = refs(settled)
    record = invoke_json(settled, "compact", now=DREAM_AT + timedelta(hours=1))
    assert record["ops"] == [] and record["run_id"] is None
    assert refs(settled) == before


def test_run_with_a_repeated_fact_settles_after_one_more_dream(settled: MemoryRepo) -> None:
    """A new session repeating known facts is gathered once; the run after it does nothing."""
    operations.log_session(
        settled,
        "User: I use Neovim as my editor.\nUser: I prefer dark mode in every editor.",
        now=DREAM_AT + timedelta(hours=1),
    )
    first = invoke_json(settled, "run", "--force", now=DREAM_AT + timedelta(hours=2))
    assert first["sessions"] and first["memories_after"] == first["memories_before"]
    again = invoke_json(settled, "run", "--force", now=DREAM_AT + timedelta(hours=3))
    assert again["ops"] == [] and again["run_id"] is None
