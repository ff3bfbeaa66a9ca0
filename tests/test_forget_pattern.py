"""forget by pattern: --match (text or regex), --older-than, --topic, --session, --dry-run."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, subjects

LATER = NOW + timedelta(days=40)


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    old = DreamEngine(repo, now=NOW)
    old.add_memory("Staging server is at 10.0.0.5", topic="infra")
    old.add_memory("Staging database password rotates monthly", topic="infra")
    old.add_memory("Prefers tea over coffee", topic="preferences")
    old.add_memory("Name is Ada Lovelace", topic="identity")  # protected topic
    DreamEngine(repo, now=LATER - timedelta(days=1)).add_memory(
        "Staging moved to a new host", topic="infra"
    )
    return repo


def _forget(repo: MemoryRepo, *args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(
        cli, ["--repo", str(repo.store.workdir), "--now", format_time(LATER), "forget", *args]
    )
    return out.exit_code, out.stdout, out.stderr


def _texts(repo: MemoryRepo) -> set[str]:
    return {m.text for m in repo.memories(now=LATER)}


def test_dry_run_lists_and_changes_nothing(repo: MemoryRepo) -> None:
    """--dry-run prints 'would forget' lines and moves no ref."""
    tip = repo.tip()
    code, out, _err = _forget(repo, "--match", "staging", "--dry-run")
    assert code == 0
    assert out.count("would forget ") == 3
    assert repo.tip() == tip


def test_match_forgets_all_in_one_commit_and_each_is_restorable(repo: MemoryRepo) -> None:
    """Three memories go in one forget commit; restore brings one back byte for byte."""
    before = len(subjects(repo.store.workdir))  # type: ignore[arg-type]
    code, out, _err = _forget(repo, "--match", "Staging")
    assert code == 0 and out.count("forgot ") == 3
    assert len(subjects(repo.store.workdir)) == before + 1  # type: ignore[arg-type]
    assert not any("Staging" in t for t in _texts(repo))
    ident = out.split()[1]
    DreamEngine(repo, now=LATER).restore(ident)
    assert sum("Staging" in t for t in _texts(repo)) == 1


def test_regex_older_than_and_topic_combine(repo: MemoryRepo) -> None:
    """Every given condition must hold: old infra memories matching a regex."""
    code, out, _err = _forget(
        repo,
        "--match",
        r"^staging (server|moved)",
        "--regex",
        "--older-than",
        "30d",
        "--topic",
        "infra",
    )
    assert code == 0 and out.count("forgot ") == 1
    assert "Staging server is at 10.0.0.5" not in _texts(repo)
    assert "Staging moved to a new host" in _texts(repo)


def test_session_picks_memories_gathered_from_it(tmp_path: Path) -> None:
    """--session forgets what a dream gathered from that session only."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    session = eng.log_session("User: I prefer green tea over coffee in the mornings.")
    eng.dream(force=True)
    gathered = [m for m in repo.memories(now=NOW) if session.id in m.sources]
    assert gathered
    gone, kept = eng.forget_matching(session=session.id)
    assert [m.id for m in gone] == [m.id for m in gathered] and kept == []


def test_protected_memories_are_kept_and_said_so(repo: MemoryRepo) -> None:
    """A pattern never removes a protected memory; stderr says which it kept."""
    code, out, err = _forget(repo, "--match", "Ada")
    assert code == 0 and out == ""
    assert "warning: kept " in err and "protected; forget it by id if you mean it" in err
    assert "nothing matches" in err


def test_errors_name_what_is_wrong(repo: MemoryRepo) -> None:
    """No ids and no pattern, a bad duration, a bad regex, ids with a pattern."""
    code, _out, err = _forget(repo)
    assert code == 2 and err.endswith(
        "Error: forget needs ids or at least one of --match, --older-than, --topic, --session\n"
    )
    code, _out, err = _forget(repo, "--older-than", "soon")
    assert code == 1 and err.startswith("error: --older-than 'soon' is not a duration\n")
    code, _out, err = _forget(repo, "--match", "(unclosed", "--regex")
    assert code == 1 and err.startswith(
        "error: --match '(unclosed' is not a usable regular expression: bad regular expression"
    )
    code, _out, err = _forget(repo, "m-1", "--topic", "infra")
    assert code == 1 and err.startswith("error: forget takes ids or a pattern, not both\n")


def test_a_bad_regex_is_placed_in_the_pattern_as_written(repo: MemoryRepo) -> None:
    """The case-insensitive flag dreamgit adds does not shift the position reported."""
    code, _out, err = _forget(repo, "--match", "ab(", "--regex")
    assert code == 1 and err.startswith(
        "error: --match 'ab(' is not a usable regular expression: bad regular expression: "
        "missing ), unterminated subpattern at position 3\n"
    )


def test_json_lists_what_a_pattern_forgets(repo: MemoryRepo) -> None:
    """--json prints the ids and paths, as `forget ID --json` does."""
    code, out, _err = _forget(repo, "--match", "staging", "--dry-run", "--json")
    assert code == 0
    listed = json.loads(out)
    assert len(listed) == 3 and all(set(item) == {"id", "path"} for item in listed)
