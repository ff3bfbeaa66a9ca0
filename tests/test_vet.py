"""Memories a rule cannot evaluate are reported (memory, rule, where) and left out."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.dream.vet import vet_memories
from dreamgit.model import Memory
from dreamgit.ruleset import load_ruleset
from gitcheck import NOW_TEXT, git

#: The line of the bundled rank expression (other knobs above it come and go).
RANK_LINE = next(
    number
    for number, line in enumerate(
        files("dreamgit.rules").joinpath("default.yaml").read_text(encoding="utf-8").splitlines(),
        start=1,
    )
    if line.startswith("rank:")
)

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
HINT = (
    "hint: check the memory's front matter (dates, numbers) or make the rule safe for it;"
    " the memory is left out of dreams until then\n"
)


def run(repo: Path, *args: str) -> Result:
    """Invoke dreamgit on ``repo`` at the fixed time."""
    return CliRunner().invoke(cli, ["--now", NOW_TEXT, "--repo", str(repo), *args])


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A memory repository with a good memory and one whose dates a hand edit will set."""
    path = tmp_path / "mem"
    assert run(path, "init").exit_code == 0
    assert run(path, "add", "A good fact about tests", "--topic", "t").exit_code == 0
    assert run(path, "add", "An odd memory", "--topic", "t").exit_code == 0
    return path


def _set_dates(repo: Path, when: str) -> str:
    """Give the odd memory `when` as created and updated, committed by hand; its id."""
    path = repo / "memories/t/odd-memory.md"
    text = path.read_text()
    text = re.sub(r"(created|updated): .*", rf"\1: {when}", text)
    path.write_text(text)
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qam", "hand")
    found = re.search(r"id: (m-\w+)", text)
    assert found is not None
    return found[1]


def test_a_memory_far_in_the_future_is_reported_and_the_dream_goes_on(repo: Path) -> None:
    """`created: 9999-12-31` overflows rank's exp(): named memory, rule and file:line:col."""
    odd = _set_dates(repo, "9999-12-31T00:00:00Z")
    before = (repo / "memories/t/odd-memory.md").read_text()
    result = run(repo, "run", "--force", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["broken"] == [
        f"memories/t/odd-memory.md: rule rank (default.yaml:{RANK_LINE}:7) "
        f"cannot be evaluated for {odd}:"
        " exp() failed: math range error\n" + HINT.rstrip("\n")
    ]
    assert (repo / "memories/t/odd-memory.md").read_text() == before
    assert "A good fact about tests" in (repo / "MEMORY.md").read_text()
    assert record["memories_before"] == record["memories_after"] == 2


def test_a_memory_from_the_year_one_is_listed_and_dreamed(repo: Path) -> None:
    """`created: 0001-01-01` neither breaks `memories` nor blames --now."""
    odd = _set_dates(repo, "0001-01-01T00:00:00Z")
    listed = run(repo, "memories", "--json")
    assert listed.exit_code == 0, listed.output
    by_id = {m["id"]: m for m in json.loads(listed.stdout)}
    assert by_id[odd]["created"] == "0001-01-01T00:00:00Z"
    result = run(repo, "review", "--force")
    assert result.exit_code == 0, result.output


def test_division_by_zero_in_a_prune_rule_names_rule_location_and_memory() -> None:
    """A prune rule dividing by zero for one memory reports it; the other memory passes."""
    ruleset = load_ruleset(
        'prune:\n  - name: ratio\n    when: "chars / recalls > 100"\n', filename="config.yaml"
    )
    base = Memory(
        id="m-aaaaaaaa",
        topic="t",
        slug="a",
        text="some text",
        created=NOW,
        updated=NOW,
        recalls=0,
    )
    good, broken = vet_memories(
        [base, replace(base, id="m-bbbbbbbb", slug="b", recalls=2)], ruleset, NOW
    )
    assert [m.id for m in good] == ["m-bbbbbbbb"]
    assert [b.message for b in broken] == [
        "memories/t/a.md: rule ratio (config.yaml:2:5) cannot be evaluated for m-aaaaaaaa:"
        " division by zero"
    ]


def test_a_session_dated_far_ahead_gives_no_memory_and_says_why(repo: Path) -> None:
    """A candidate whose rank overflows is rejected with the rule's place; the run goes on."""
    session = repo / "sessions/2026/11/20/s-20261120-cccccc.md"
    session.parent.mkdir(parents=True)
    session.write_text(
        "---\ndream:\n  id: s-20261120-cccccc\n  created: 9999-12-31T00:00:00Z\n---\n"
        "User: I prefer dark roast coffee in the morning.\n"
    )
    git(repo, "add", "sessions")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hand")
    result = run(repo, "run", "--force", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    reasons = [d["reason"] for d in record["decisions"] if not d["accepted"]]
    assert (
        f"rejected by rule rank (default.yaml:{RANK_LINE}:7), which cannot be evaluated for it:"
        " exp() failed: math range error"
    ) in reasons


def test_a_memory_naming_the_last_day_of_the_calendar_is_reported_for_its_dates() -> None:
    """A day no time can follow (31 December 9999) is reported for its dates, whether a rule
    reads that day for this memory or not (no rule's condition reaches it here)."""
    base = Memory(
        id="m-aaaaaaaa",
        topic="t",
        slug="a",
        text="The launch is on 2026-12-01.",
        created=NOW,
        updated=NOW,
    )
    last = replace(base, id="m-bbbbbbbb", slug="b", text="The launch is on 31 December 9999.")
    good, broken = vet_memories([base, last], load_ruleset("{}"), NOW)
    assert [m.id for m in good] == ["m-aaaaaaaa"]
    assert [b.message for b in broken] == [
        "memories/t/b.md: rule rank cannot be evaluated for m-bbbbbbbb:"
        " its dates: date value out of range"
    ]
