"""Ten days of an agent's sessions, one dream, and the memory a user should end up with."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

START = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
DREAM_AT = datetime(2026, 11, 10, 20, 0, tzinfo=UTC)

#: (day, hour, transcript): 12 sessions over 10 days.
SESSIONS = [
    (
        0,
        9,
        "User: Hi! I'm setting up the new billing service.\n"
        "Assistant: Great, what stack?\n"
        "User: I use Flask for all my web services.\n"
        "User: I prefer pytest over unittest for Python tests.",
    ),
    (1, 10, "User: I prefer spaces over tabs in Python code.\nAssistant: Noted."),
    (
        2,
        14,
        "User: We decided to use PostgreSQL for the billing database.\nAssistant: Good choice.",
    ),
    (
        3,
        11,
        "User: I prefer pytest over unittest for Python tests.\nAssistant: Sure, pytest it is.",
    ),
    (4, 16, "User: Remember that the staging deploy needs the VPN.\nAssistant: I will."),
    (
        5,
        9,
        "User: I switched from Flask to FastAPI for all my web services.\n"
        "Assistant: Nice, FastAPI is fast.",
    ),
    (6, 13, "User: I prefer dark mode in every editor.\nAssistant: Dark mode on."),
    (7, 15, "User: I prefer spaces over tabs in Python code.\nAssistant: Yes, you said so."),
    (8, 10, "User: My name is Dana Reyes, by the way.\nAssistant: Nice to meet you, Dana."),
    (9, 8, "User: I prefer dark mode in every editor.\nAssistant: Sure."),
    (
        9,
        12,
        "User: Tomorrow I have a dentist appointment at 10.\n"
        "Assistant: I'll keep your morning free.",
    ),
    (9, 17, "Assistant: I prefer to answer briefly.\nUser: Thanks, that's all for today."),
]

#: The active memories after the dream: (topic, priority, text, number of sources).
# Issue 11: memories name their subject ("The user", then the name once it is said),
# dates read as people write them, and a plain statement ("I'm setting up the new
# billing service") is a fact too.
EXPECTED = {
    (
        "decisions",
        "normal",
        "The user's team decided to use PostgreSQL for the billing database.",
        1,
    ),
    ("facts", "normal", "The user is setting up the new billing service.", 1),
    ("identity", "high", "The user's name is Dana Reyes.", 1),
    ("identity", "core", "Works as a backend engineer at Northwind.", 0),
    ("notes", "high", "The staging deploy needs the VPN.", 1),
    ("preferences", "normal", "The user prefers dark mode in every editor.", 2),
    ("preferences", "normal", "The user prefers pytest over unittest for Python tests.", 2),
    ("preferences", "normal", "The user prefers spaces over tabs in Python code.", 2),
    ("schedule", "ephemeral", "Dana has a dentist appointment at 10 on 11 November 2026.", 1),
    (
        "tools",
        "normal",
        "The user uses FastAPI for all their web services (switched from Flask).",
        1,
    ),
}


def _invoke(repo: Path, *args: str, now: datetime = DREAM_AT) -> str:
    result = CliRunner().invoke(
        cli, ["--repo", str(repo), "--now", now.isoformat(), *args], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def scenario(tmp_path: Path) -> tuple[Path, str]:
    """A repository with a core identity memory and the twelve sessions; returns (path, id)."""
    path = tmp_path / "memory"
    repo = MemoryRepo.init(path, now=START)
    core = operations.add_memory(
        repo,
        "Works as a backend engineer at Northwind.",
        topic="identity",
        priority="core",
        now=START,
    )
    for day, hour, text in SESSIONS:
        operations.log_session(repo, text, now=START.replace(day=1 + day, hour=hour))
    return path, core.id


def _active(path: Path, now: datetime) -> set[tuple[str, str, str, int]]:
    listed = json.loads(_invoke(path, "memories", "--json", now=now))
    return {(m["topic"], m["priority"], m["text"], len(m["sources"])) for m in listed}


def test_dream_over_ten_days_keeps_exactly_the_expected_memories(
    scenario: tuple[Path, str],
) -> None:
    """Repeats fold into one memory with every session as a source; nothing else is kept."""
    path, _ = scenario
    record = json.loads(_invoke(path, "run", "--json"))
    assert record["merged"] is True
    assert len(record["sessions"]) == len(SESSIONS)
    assert _active(path, DREAM_AT) == EXPECTED


def test_switch_statement_supersedes_the_old_tool_and_old_one_is_restorable(
    scenario: tuple[Path, str],
) -> None:
    """FastAPI is current; the Flask memory left the active set and restore brings it back."""
    path, _ = scenario
    record = json.loads(_invoke(path, "run", "--json"))
    supersede = [op for op in record["ops"] if op["op"] == "supersede"]
    assert [op["rule"] for op in supersede] == ["supersede-by-change"]
    flask_id = supersede[0]["memories"][1]
    assert "Flask for all their web services" in supersede[0]["before"][0]["text"]
    texts = {m[2] for m in _active(path, DREAM_AT)}
    assert not any(t.startswith("The user uses Flask") for t in texts)
    _invoke(path, "restore", flask_id)
    restored = {m[2] for m in _active(path, DREAM_AT)}
    assert "The user uses Flask for all their web services." in restored


def test_identity_memories_are_untouched_by_the_dream(scenario: tuple[Path, str]) -> None:
    """The core identity file is byte for byte what it was before the dream."""
    path, core_id = scenario
    repo = MemoryRepo.open(path)
    core = repo.get_memory(core_id, now=DREAM_AT)
    before = repo.read_text(core.path)
    record = json.loads(_invoke(path, "run", "--json"))
    assert core_id not in {i for op in record["ops"] for i in op["memories"]}
    assert MemoryRepo.open(path).read_text(core.path) == before


def test_near_date_note_is_pruned_a_day_later_and_the_store_then_settles(
    scenario: tuple[Path, str],
) -> None:
    """The ephemeral dentist note goes once it is a day old; a further run changes nothing."""
    path, _ = scenario
    _invoke(path, "run")
    later = DREAM_AT + timedelta(days=1)
    record = json.loads(_invoke(path, "run", "--force", "--json", now=later))
    pruned = [op for op in record["ops"] if op["op"] == "prune"]
    assert [(op["rule"], op["before"][0]["text"]) for op in pruned] == [
        ("expire-ephemeral", "Dana has a dentist appointment at 10 on 11 November 2026.")
    ]
    again = json.loads(_invoke(path, "run", "--force", "--json", now=later))
    assert again["ops"] == [] and again["branch"] is None


def test_memory_index_lists_every_memory_within_its_budget(scenario: tuple[Path, str]) -> None:
    """MEMORY.md links each durable memory, every line within 150 characters, all within 8000;
    short-term (low, ephemeral) memories enter it only once promoted (issue 13)."""
    path, _ = scenario
    _invoke(path, "run")
    repo = MemoryRepo.open(path)
    index = repo.read_text("MEMORY.md") or ""
    assert len(index) <= 8000
    assert all(len(line) <= 150 for line in index.splitlines())
    for memory in repo.memories(now=DREAM_AT):
        staged = memory.priority in ("ephemeral", "low")
        assert (f"({memory.path})" in index) is not staged
