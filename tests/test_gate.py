"""The gate: a gate that fails on the run's figures is reported with where it is written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT


def test_a_gate_dividing_by_zero_names_itself_and_the_figures(tmp_path: Path) -> None:
    """`pending_chars / memories` with no memories: the gate's file:line:col and the figures."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    config = b'extends: default\ngate: "pending_chars / memories > 10"\n'
    repo.commit_main("gate", lambda _tip: {".dreamgit/config.yaml": config}, now=NOW)
    result = CliRunner().invoke(cli, ["--now", NOW_TEXT, "--repo", str(tmp_path / "mem"), "run"])
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the gate (.dreamgit/config.yaml:2:7) cannot be evaluated with 0 new session(s),"
        " last dream never: division by zero\n"
        "hint: make the gate safe for every figure (a count may be 0)\n"
    )
