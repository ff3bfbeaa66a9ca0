"""`dreamgit test`: written and derived memory tests through recall, like a test runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.report.memtests import TESTS_PATH
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, T0, git, invoke, invoke_json
from memtestkit import EDITOR_QUERY, editor_repo


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """Ada's repository (tests/memtestkit.py) with one written test expecting Neovim."""
    made = editor_repo(tmp_path / "mem")
    result = invoke(made, "test", "add", EDITOR_QUERY, "--expect", "uses Neovim", now=T0)
    assert result.exit_code == 0, result.output
    assert result.output == f"added test {EDITOR_QUERY!r}\n"
    return made


def test_add_commits_the_test_to_tests_yaml_on_main(repo: MemoryRepo) -> None:
    """`test add` writes `.dreamgit/tests.yaml` in one commit on main."""
    text = repo.read_text(TESTS_PATH)
    assert text is not None and "query: which editor does Ada use" in text
    assert "uses Neovim" in text
    assert git(repo, "log", "-1", "--format=%s", "main").strip() == f"test: add {EDITOR_QUERY!r}"


def test_written_and_derived_tests_pass_on_main_like_a_test_runner(repo: MemoryRepo) -> None:
    """Each test is one PASS/FAIL line, the core memory's derived test among them; exit 0."""
    result = invoke(repo, "test")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"PASS  {EDITOR_QUERY}"
    assert any(
        line.startswith("PASS  m-") and "stays recallable (core, identity)" in line
        for line in lines
    )
    assert lines[-1] == "2 passed, 0 failed (main)"


def test_json_gives_each_test_with_its_answer_size_in_characters_and_tokens(
    repo: MemoryRepo,
) -> None:
    """`--json`: counts, and per test its origin, verdict, and the answer's size."""
    data = invoke_json(repo, "test")
    assert (data["passed"], data["failed"], data["problems"]) == (2, 0, [])
    written = data["tests"][0]
    assert written["origin"] == "written" and written["passed"] is True
    assert written["chars"] > 0 and written["tokens"] == -(-written["chars"] // 4)
    assert {t["origin"] for t in data["tests"]} == {"written", "protected"}


def test_a_failing_test_prints_why_and_exits_1(repo: MemoryRepo) -> None:
    """A test whose expected text is absent fails with what was missing; the exit is 1."""
    added = invoke(
        repo, "test", "add", "what does Ada drink", "--expect", "espresso", "--not", "tea"
    )
    assert added.exit_code == 0
    result = invoke(repo, "test")
    assert result.exit_code == 1
    assert "FAIL  what does Ada drink — missing 'espresso'; still says 'tea'" in result.stdout
    assert "2 passed, 1 failed (main)" in result.stdout
    assert "error: 1 of 3 memory tests failed" in result.stderr
    assert "`dreamgit test --json` shows each test's answer size and why" in result.stderr


def test_a_broken_tests_file_is_reported_and_the_derived_tests_still_run(
    repo: MemoryRepo,
) -> None:
    """A tests file that is not YAML is named with its line; the other tests run; exit 1."""
    repo.commit_main("break", lambda _tip: {TESTS_PATH: b"tests: [\n"}, now=T0)
    result = invoke(repo, "test")
    assert result.exit_code == 1
    assert "warning: .dreamgit/tests.yaml:2: not valid YAML" in result.stderr
    assert "PASS  m-" in result.stdout
    assert "the tests file has 1 problem(s)" in result.stderr
    refused = invoke(repo, "test", "add", "q", "--expect", "x")
    assert refused.exit_code == 1
    assert "fix .dreamgit/tests.yaml first; nothing was added" in refused.stderr


def test_add_refuses_a_test_that_expects_nothing_or_has_no_query(repo: MemoryRepo) -> None:
    """A test needs a query and something to expect or forbid."""
    nothing = invoke(repo, "test", "add", "which editor")
    assert nothing.exit_code == 1
    assert "error: the test expects nothing" in nothing.stderr
    blank = invoke(repo, "test", "add", "  ", "--expect", "x")
    assert blank.exit_code == 1
    assert "error: the test's query is empty" in blank.stderr


def test_rev_runs_the_tests_on_a_dream_branch_that_supersedes_the_expected_value(
    repo: MemoryRepo,
) -> None:
    """On the branch of a run that superseded Neovim by Helix the written test fails, while
    the new supersession's derived test passes there; main still passes."""
    record = invoke(repo, "run", "--no-merge", "--json")
    assert record.exit_code == 5, record.output
    run_id = invoke_json(repo, "history")[0]["run_id"]
    on_branch = invoke(repo, "test", "--rev", run_id, now=DREAM_AT)
    assert on_branch.exit_code == 1
    assert f"FAIL  {EDITOR_QUERY} — missing 'uses Neovim'" in on_branch.stdout
    assert any(
        line.startswith("PASS  m-") and " supersedes m-" in line
        for line in on_branch.stdout.splitlines()
    )
    assert invoke(repo, "test").exit_code == 0


def test_rev_that_names_nothing_says_so(repo: MemoryRepo) -> None:
    """An unknown revision is a clear error, as `diff` gives it."""
    result = invoke(repo, "test", "--rev", "no-such-run")
    assert result.exit_code == 1
    assert "'no-such-run' is neither a run nor a revision" in result.stderr
