"""The dream's test gate: a run that breaks a memory test passing on main is left for review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clikit import dreamgit_process, prepared
from dreamgit import DreamEngine
from dreamgit.history.runrecords import read_runs
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, T0, dream_branches, invoke, iso
from memtestkit import EDITOR_QUERY, editor_repo

NOW = iso(DREAM_AT)


def _with_test(root: Path, *, config: str | None = None) -> MemoryRepo:
    repo = editor_repo(root, config=config)
    added = invoke(repo, "test", "add", EDITOR_QUERY, "--expect", "uses Neovim", now=T0)
    assert added.exit_code == 0, added.output
    return repo


def test_a_run_that_breaks_a_passing_test_is_left_for_review_end_to_end(tmp_path: Path) -> None:
    """The installed command: exit 5 naming the test; main stays; the branch, its record, its
    diary, `history` and the --summary body all say which test broke."""
    repo = _with_test(tmp_path / "mem")
    main_before = repo.tip()
    summary = tmp_path / "pr.md"
    done = dreamgit_process(tmp_path / "mem", NOW, "run", "--summary", str(summary))
    assert done.returncode == 5, done.stderr
    assert "memory tests (block): 2 passed, 1 failed, 1 new" in done.stdout
    assert f"  broke: {EDITOR_QUERY} — missing 'uses Neovim'" in done.stdout
    assert "left for review (dream/" in done.stdout
    assert f"broke memory tests that pass on main ('{EDITOR_QUERY}')" in done.stderr
    assert "if the change is right, fix the tests and `dreamgit merge RUN`" in done.stderr
    assert repo.tip() == main_before
    (branch,) = dream_branches(repo)
    tip = repo.store.tip(branch)
    (record,) = [r for r in read_runs(repo.store, tip) if r["branch"] == branch]
    assert record["merge_requested"] is False
    assert record["tests"]["held"] is True
    assert record["tests"]["broken"] == [{"name": EDITOR_QUERY, "why": "missing 'uses Neovim'"}]
    diary = repo.read_text("DREAMS.md", tip) or ""
    assert f"· broke: `{EDITOR_QUERY}` (missing 'uses Neovim')" in diary
    assert f"Left on `{branch}` for review" in diary
    # What `history` then lists, read in this process (the same command's code).
    history = json.loads(prepared(tmp_path / "mem", NOW, "history", "--json"))
    assert history[0]["status"] == "awaiting review"
    assert history[0]["tests"] == {
        "passed": 2,
        "failed": 1,
        "new": 1,
        "broken": [EDITOR_QUERY],
        "held": True,
    }
    listing = prepared(tmp_path / "mem", NOW, "history")
    assert "2 ok, 1 FAIL" in listing
    body = summary.read_text(encoding="utf-8")
    assert "**This run broke 1 test(s) that pass on main.** It was left for review" in body
    assert f"- ❌ `{EDITOR_QUERY}`: missing 'uses Neovim'" in body


def test_advisory_gate_merges_and_records_the_broken_test(tmp_path: Path) -> None:
    """`tests: {gate: advisory}`: the run merges, the record still names the broken test."""
    repo = _with_test(tmp_path / "mem", config="extends: default\ntests: {gate: advisory}\n")
    result = invoke(repo, "run")
    assert result.exit_code == 0, result.output
    assert "memory tests (advisory): 2 passed, 1 failed, 1 new" in result.stdout
    assert "merged into main" in result.stdout
    (record,) = read_runs(repo.store, repo.tip())
    assert record["tests"]["held"] is False
    assert [b["name"] for b in record["tests"]["broken"]] == [EDITOR_QUERY]


def test_gate_off_runs_no_tests(tmp_path: Path) -> None:
    """`tests: {gate: off}`: no tests, no verdict in the record, merged as before."""
    repo = _with_test(tmp_path / "mem", config="extends: default\ntests: {gate: off}\n")
    result = invoke(repo, "run")
    assert result.exit_code == 0, result.output
    (record,) = read_runs(repo.store, repo.tip())
    assert "tests" not in record


def test_a_wrong_gate_setting_is_refused_before_the_dream_starts(tmp_path: Path) -> None:
    """A misspelt gate is a rule error with its line; nothing is written."""
    repo = _with_test(tmp_path / "mem", config="extends: default\ntests: {gate: maybe}\n")
    tip = repo.tip()
    result = invoke(repo, "run")
    assert result.exit_code == 1
    assert "tests.gate: must be one of block, advisory, off, not 'maybe'" in result.stderr
    assert repo.tip() == tip and dream_branches(repo) == []
    unknown = "extends: default\ntests: {gates: off}\n"
    repo.commit_main("config", lambda _t: {".dreamgit/config.yaml": unknown.encode()}, now=T0)
    assert "tests: unknown key 'gates' (only gate:)" in invoke(repo, "run").stderr
    listed = "extends: default\ntests: [off]\n"
    repo.commit_main("config", lambda _t: {".dreamgit/config.yaml": listed.encode()}, now=T0)
    assert "tests: must be a mapping, not a list" in invoke(repo, "run").stderr


def test_passing_tests_let_the_run_merge_and_are_counted(tmp_path: Path) -> None:
    """With nothing broken the run merges as before, its record counting the tests."""
    repo = editor_repo(tmp_path / "mem")
    result = invoke(repo, "run")
    assert result.exit_code == 0, result.output
    (record,) = read_runs(repo.store, repo.tip())
    assert record["tests"]["held"] is False and record["tests"]["failed"] == 0
    assert record["tests"]["new"] == 1  # the supersession this run made brings its test


@pytest.mark.parametrize("merge", [True, False])
def test_the_api_dream_runs_the_gate_too(tmp_path: Path, merge: bool) -> None:
    """`DreamEngine.dream` holds a run that broke a test, whatever ``merge`` asked."""
    repo = _with_test(tmp_path / "mem")
    result = DreamEngine(repo, now=DREAM_AT).dream(merge=merge)
    assert result.merged is False
    assert result["tests"]["held"] is True
    assert dream_branches(repo) == [result["branch"]]


def test_gate_mode_refuses_a_value_the_rule_loader_did_not_see(tmp_path: Path) -> None:
    """With `--rules FILE` the config's own rules are not loaded: the gate checks its value."""
    from dreamgit.errors import ConfigError
    from dreamgit.report.gate import gate_mode

    repo = editor_repo(tmp_path / "mem", config="extends: default\ntests: {gate: maybe}\n")
    with pytest.raises(ConfigError) as raised:
        gate_mode(repo, repo.tip())
    assert raised.value.message == (
        ".dreamgit/config.yaml: tests.gate must be one of block, advisory, off, not 'maybe'"
    )
