"""The Action's dream step when a dream breaks a memory test: pushed, and the body names it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from memtestkit import SWITCH
from test_github import _dream_step, _git, tool


@pytest.mark.skipif(tool("dreamgit") is None, reason="the dreamgit command is not installed")
def test_action_pushes_a_dream_that_broke_a_test_and_its_body_names_the_test(
    tmp_path: Path,
) -> None:
    """Exit 5 is not a failed step: the branch is pushed, `tests-broken` counts the broken
    test and the pull-request body (and the step summary) name it."""
    origin, agent = tmp_path / "origin.git", tmp_path / "agent"
    _git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    _git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    repo = MemoryRepo.init(agent, now=now)
    operations.add_memory(repo, "Ada uses Neovim as her editor.", topic="tools", now=now)
    tests = "tests:\n  - query: which editor does Ada use\n    expect: uses Neovim\n"
    repo.commit_main("tests", lambda _t: {".dreamgit/tests.yaml": tests.encode()}, now=now)
    for n in range(3):
        operations.log_session(repo, SWITCH, now=now.replace(minute=n + 1))
    _git(agent, "push", "--quiet", "origin", "main")
    work = tmp_path / "night"
    _git(tmp_path, "clone", "--quiet", str(origin), str(work))
    out = _dream_step(work, tmp_path / "temp", "2026-11-23T03:17:00Z")
    assert out["tests-broken"] == "1"
    assert out["branch"].startswith("dream/") and out["operations"] != "0"
    remote = _git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/dream/")
    assert remote.split() == [out["branch"]]
    body = (tmp_path / "temp" / "dream-summary.md").read_text(encoding="utf-8")
    assert "- ❌ `which editor does Ada use`: missing 'uses Neovim'" in body
    assert "```mermaid\nxychart-beta" in body
    assert "which editor does Ada use" in (tmp_path / "temp" / "step-summary").read_text(
        encoding="utf-8"
    )
