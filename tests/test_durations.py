"""One duration parser: the rule language, `forget --older-than` and `--as-of` accept the
same durations (500ms, 90s, 90m, 1.5h, 3d, 2w) and read them the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.clock import format_time, parse_duration
from dreamgit.dsl import compile_expression
from dreamgit.history.asof import parse_when
from dreamgit.recall.forgetting import parse_age
from dreamgit.store.repo import MemoryRepo
from test_dsl_parser import SCHEMA

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)

SPELLINGS = [
    ("500ms", timedelta(milliseconds=500)),
    ("90s", timedelta(seconds=90)),
    ("90m", timedelta(minutes=90)),
    ("1.5h", timedelta(minutes=90)),
    ("36h", timedelta(hours=36)),
    ("3d", timedelta(days=3)),
    ("2w", timedelta(weeks=2)),
]


@pytest.mark.parametrize(("text", "value"), SPELLINGS)
def test_the_parser_reads_every_unit(text: str, value: timedelta) -> None:
    """Each unit, whole or with a fraction, is the duration it says."""
    assert parse_duration(text) == value


@pytest.mark.parametrize("text", ["", "5", "soon", "2 weeks", "3y", "-3d", "1e3s", "3d ago"])
def test_other_text_is_not_a_duration(text: str) -> None:
    """Text of another shape is None, for the caller to word its own error."""
    assert parse_duration(text) is None


def test_case_and_a_space_before_the_unit_are_allowed() -> None:
    """Flags were typed by people: ``12 H`` reads as twelve hours."""
    assert parse_duration(" 12 H ") == timedelta(hours=12)


@pytest.mark.parametrize(("text", "value"), SPELLINGS)
def test_the_rule_language_reads_the_same(text: str, value: timedelta) -> None:
    """A duration literal in a rule expression is the value the parser gives."""
    assert compile_expression(text, SCHEMA).evaluate({}) == value


@pytest.mark.parametrize(("text", "value"), SPELLINGS)
def test_forget_older_than_reads_the_same(text: str, value: timedelta) -> None:
    """`forget --older-than` takes every duration the rules take (90s was refused)."""
    assert parse_age(text) == value


@pytest.mark.parametrize(("text", "value"), SPELLINGS)
def test_as_of_reads_the_same(text: str, value: timedelta) -> None:
    """`--as-of` with an age is that long before now."""
    assert parse_when(text, now=NOW) == NOW - value


def test_forget_older_than_seconds_on_the_command_line(tmp_path: Path) -> None:
    """`dreamgit forget --older-than 90s` forgets what is older than ninety seconds."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    DreamEngine(repo, now=NOW).add_memory("Staging server is at 10.0.0.5", topic="infra")
    DreamEngine(repo, now=NOW + timedelta(seconds=60)).add_memory(
        "Staging moved to a new host", topic="infra"
    )
    later = format_time(NOW + timedelta(seconds=120))
    args = ["--repo", str(repo.store.workdir), "--now", later, "forget", "--dry-run"]
    out = CliRunner().invoke(cli, [*args, "--older-than", "90s"])
    assert out.exit_code == 0, out.output
    assert out.stdout.count("would forget ") == 1
    assert "staging-server-10-0-0-5.md" in out.stdout


def test_as_of_seconds_on_the_command_line(tmp_path: Path) -> None:
    """`dreamgit memories --as-of 90s` shows main as it was ninety seconds ago."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    DreamEngine(repo, now=NOW).add_memory("Prefers tea over coffee", topic="preferences")
    DreamEngine(repo, now=NOW + timedelta(seconds=100)).add_memory(
        "Prefers green tea", topic="preferences"
    )
    later = format_time(NOW + timedelta(seconds=120))
    args = ["--repo", str(repo.store.workdir), "--now", later, "memories", "--as-of", "90s"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert "Prefers tea over coffee" in out.stdout
    assert "green" not in out.stdout
