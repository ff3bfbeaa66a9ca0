"""Per-run limits: the conservative rules change at most 3 memories, add 1, write 250 characters.

What did not fit is listed in the run record as deferred; the sessions behind
deferred candidates stay pending, and later runs work through them until the
memory settles.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.limits import LISTED_DEFERRED
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, Seed, build_repo, fixture_copy, invoke, invoke_json, set_config

MEMORY_OPS = {"add", "reinforce", "merge", "supersede", "prune"}
CONSERVATIVE = {"changes": 3, "adds": 1, "chars": 250}


def check_within_limits(record: dict[str, Any]) -> None:
    """Fail unless the run stayed within the conservative limits."""
    ops = [op for op in record["ops"] if op["op"] in MEMORY_OPS]
    adds = [op for op in ops if op["op"] == "add"]
    assert len(ops) <= CONSERVATIVE["changes"], ops
    assert len(adds) <= CONSERVATIVE["adds"], adds
    assert sum(len(op["after"][0]["text"]) for op in adds) <= CONSERVATIVE["chars"]


def conservative_repo(
    root: Path, factory: pytest.TempPathFactory, how: str
) -> tuple[MemoryRepo, tuple[str, ...]]:
    """The fixture under the conservative rules, by ``--rules`` or by ``extends:`` in config."""
    repo = fixture_copy(factory, root, bare=True)
    if how == "option":
        return repo, ("--rules", "conservative")
    set_config(repo, "extends: conservative\n", now=DREAM_AT - timedelta(hours=1))
    return repo, ()


@pytest.mark.parametrize("how", ["option", "config"])
def test_conservative_run_stays_within_its_limits_and_lists_the_rest_as_deferred(
    how: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """3 changes, 1 add, 250 characters at most; the remainder deferred, sessions pending."""
    repo, rules = conservative_repo(tmp_path / "mem", tmp_path_factory, how)
    record = invoke_json(repo, "run", "--force", *rules)
    check_within_limits(record)
    assert sum(op["op"] in MEMORY_OPS for op in record["ops"]) == 3  # there was more to do
    reasons = {item["reason"] for item in record["deferred"]}
    assert reasons == {"max_adds_per_run (1) reached", "max_changes_per_run (3) reached"}
    assert all(item["memories"] for item in record["deferred"])
    assert invoke_json(repo, "status")["pending_sessions"] > 0


def test_deferred_work_is_done_by_later_runs_until_the_memory_settles(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Nightly conservative runs consume every session, each within limits, then do nothing."""
    repo, rules = conservative_repo(tmp_path / "mem", tmp_path_factory, "option")
    pending = invoke_json(repo, "status")["pending_sessions"]
    gathered: list[str] = []
    for night in range(10):
        record = invoke_json(repo, "run", "--force", *rules, now=DREAM_AT + timedelta(days=night))
        check_within_limits(record)
        gathered += record["sessions"]
        if not record["ops"]:
            break
    assert record["ops"] == [] and record["deferred"] == []
    assert len(gathered) == len(set(gathered)) == pending
    assert invoke_json(repo, "status")["pending_sessions"] == 0


def test_new_characters_limit_defers_a_second_long_memory(tmp_path: Path) -> None:
    """Two adds of 150 characters under a 250-character limit: the second waits a night."""
    first = (
        "User: Remember that the billing service deploys need a signed migration plan from "
        "the finance team and a full regression run on the staging replica."
    )
    second = (
        "User: Remember that the payroll exports go to the accounting share every Friday "
        "afternoon and must be checked against the bank statement totals."
    )
    repo = build_repo(
        tmp_path / "mem",
        bare=True,
        memories=(),
        sessions=(first, second),
        config="extends: default\nlimits: {max_new_chars_per_run: 250}\n",
    )
    record = invoke_json(repo, "run", "--force")
    adds = [op for op in record["ops"] if op["op"] == "add"]
    assert len(adds) == 1 and len(adds[0]["after"][0]["text"]) > 100
    assert [d["reason"] for d in record["deferred"]] == ["max_new_chars_per_run (250) reached"]
    assert invoke_json(repo, "status")["pending_sessions"] == 1
    later = invoke_json(repo, "run", "--force", now=DREAM_AT + timedelta(days=1))
    assert [op["op"] for op in later["ops"]].count("add") == 1 and later["deferred"] == []
    assert invoke_json(repo, "status")["pending_sessions"] == 0


def test_a_candidate_that_can_never_fit_does_not_keep_its_session_pending(
    tmp_path: Path,
) -> None:
    """A 270-character statement under a 250-character limit must not block its session."""
    long = (
        "User: Remember that the release checklist for the billing service needs a signed "
        "migration plan from the finance team, a full regression run against the staging "
        "replica, a check of the currency rounding rules for every supported market, and a "
        "note to the on-call rotation before the deploy."
    )
    repo = build_repo(tmp_path / "mem", bare=True, memories=(), sessions=(long,))
    for night in range(2):
        invoke_json(
            repo, "run", "--force", "--rules", "conservative", now=DREAM_AT + timedelta(days=night)
        )
    assert invoke_json(repo, "status")["pending_sessions"] == 0


def test_a_deferred_supersession_by_change_is_applied_by_a_later_run(tmp_path: Path) -> None:
    """A change statement while the limits are used up: the old tool must go on a later run."""
    repo = build_repo(
        tmp_path / "mem",
        bare=True,
        sessions=("User: I switched from Flask to FastAPI for all new services.",),
    )
    first = invoke_json(repo, "run", "--force", "--rules", "conservative")
    assert "supersede-by-change" in {item["rule"] for item in first["deferred"]}
    for night in range(1, 4):
        invoke_json(
            repo, "run", "--force", "--rules", "conservative", now=DREAM_AT + timedelta(days=night)
        )
    texts = {m.text for m in repo.memories(now=DREAM_AT)}
    assert "Uses Flask for the web services at work." not in texts


def test_prunes_past_the_change_limit_are_deferred_oldest_first_with_rule_and_reason(
    tmp_path: Path,
) -> None:
    """Five expired notes, two changes: two pruned, three listed as deferred, each by name."""
    notes = [
        Seed(f"Has a call with supplier {k} on 2026-11-0{k + 1}.", "schedule", "ephemeral", hours=k)
        for k in range(5)
    ]
    config = "extends: default\nlimits: {max_changes_per_run: 2}\n"
    repo = build_repo(tmp_path / "mem", bare=True, memories=notes, sessions=(), config=config)
    oldest_first = [
        m.id for m in sorted(repo.memories(now=DREAM_AT), key=lambda m: (m.created, m.id))
    ]
    record = invoke_json(repo, "run", "--force")
    pruned = [op["memories"] for op in record["ops"] if op["op"] == "prune"]
    reason = "max_changes_per_run (2) reached"
    assert pruned == [[memory] for memory in oldest_first[:2]]
    assert record["deferred"] == [
        {"op": "prune", "rule": "expire-ephemeral", "memories": [memory], "reason": reason}
        for memory in oldest_first[2:]
    ]


def test_prunes_deferred_past_the_listed_ones_are_counted_on_one_item(tmp_path: Path) -> None:
    """Twenty-four expired notes, one change: twenty deferred prunes named, three counted."""
    notes = [
        Seed(f"Has a call with supplier {k} on 2026-11-01.", "schedule", "ephemeral", hours=k)
        for k in range(LISTED_DEFERRED + 4)
    ]
    config = "extends: default\nlimits: {max_changes_per_run: 1}\n"
    repo = build_repo(tmp_path / "mem", bare=True, memories=notes, sessions=(), config=config)
    oldest_first = [
        m.id for m in sorted(repo.memories(now=DREAM_AT), key=lambda m: (m.created, m.id))
    ]
    record = invoke_json(repo, "run", "--force")
    reason = "max_changes_per_run (1) reached"
    listed = [
        {"op": "prune", "rule": "expire-ephemeral", "memories": [memory], "reason": reason}
        for memory in oldest_first[1 : LISTED_DEFERRED + 1]
    ]
    counted = {"op": "prune", "rule": "expire-ephemeral", "memories": [], "reason": reason}
    assert record["deferred"] == [*listed, {**counted, "more": 3}]
    review = invoke(repo, "review", "--force")
    assert review.exit_code == 0, review.output
    assert f"deferred: prune 2 more ({reason})" in review.output.splitlines()
