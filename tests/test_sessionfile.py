"""Session files: binary or non-UTF-8 ones are named, kept pending and recorded, never consumed."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.errors import MemoryFileError
from dreamgit.store.sessionfile import read_session
from gitcheck import NOW_TEXT, git

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
KEEP = (
    "hint: it stays pending and is not dreamed: convert it to UTF-8 text (or delete it) and commit"
)
BINARY = "sessions/2026/11/20/s-20261120-aaaaaa.md"
LATIN1 = "sessions/2026/11/20/s-20261120-bbbbbb.md"


def run(repo: Path, *args: str) -> Result:
    """Invoke dreamgit on ``repo`` at the fixed time."""
    return CliRunner().invoke(cli, ["--now", NOW_TEXT, "--repo", str(repo), *args])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PNG\x00\x01\x02", "s.md: session file is binary data, not text"),
        (
            b"line one\ncaf\xe9\n",
            "s.md:2: session file is not UTF-8 text (bad byte 0xe9 at offset 12)",
        ),
    ],
)
def test_unreadable_session_bytes_are_an_error_naming_the_file(data: bytes, message: str) -> None:
    """read_session refuses binary and non-UTF-8 data instead of decoding it with U+FFFD."""
    with pytest.raises(MemoryFileError) as info:
        read_session(data, path="s.md", fallback_time=NOW)
    assert info.value.render() == f"{message}\n{KEEP}"


def test_a_dream_reports_unreadable_sessions_and_leaves_them_pending(tmp_path: Path) -> None:
    """A run gathers the good session, names the two bad ones in its record; they stay pending."""
    repo = tmp_path / "mem"
    assert run(repo, "init").exit_code == 0
    assert run(repo, "log", "I prefer tabs over spaces in every project.").exit_code == 0
    (repo / BINARY).parent.mkdir(parents=True, exist_ok=True)
    (repo / BINARY).write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (repo / LATIN1).write_bytes(b"User: I moved to M\xfcnchen.\n")
    git(repo, "add", "sessions")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hand")
    result = run(repo, "run", "--force", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["broken"] == [
        f"{BINARY}: session file is binary data, not text\n{KEEP}",
        f"{LATIN1}:1: session file is not UTF-8 text (bad byte 0xfc at offset 18)\n{KEEP}",
    ]
    assert len(record["sessions"]) == 1
    status = json.loads(run(repo, "status", "--json").stdout)
    assert status["pending_sessions"] == 2
    again = run(repo, "review", "--force")
    assert f"warning: {BINARY}: session file is binary data, not text" in again.stderr


def test_a_session_file_without_an_id_anywhere_is_named() -> None:
    """No id in the front matter and a path that names none: the file is reported."""
    with pytest.raises(MemoryFileError) as info:
        read_session(b"just text\n", path="sessions/notes.md", fallback_time=NOW)
    assert info.value.render() == "sessions/notes.md: session file has no id\nhint: name it <id>.md"


def test_a_session_with_a_bad_date_is_reported_not_blamed_on_now(tmp_path: Path) -> None:
    """`created: yesterday` names the file and line; the other sessions still dream."""
    repo = tmp_path / "mem"
    assert run(repo, "init").exit_code == 0
    assert run(repo, "log", "I prefer tabs over spaces in every project.").exit_code == 0
    bad = "sessions/2026/11/20/s-20261120-dddddd.md"
    (repo / bad).parent.mkdir(parents=True, exist_ok=True)
    (repo / bad).write_text(
        "---\ndream:\n  id: s-20261120-dddddd\n  created: yesterday\n---\nUser: I like tea.\n"
    )
    git(repo, "add", "sessions")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hand")
    result = run(repo, "run", "--force", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["broken"] == [
        f"{bad}:4: dream.created: 'yesterday' is not an ISO-8601 time\n"
        "hint: write it like 2026-11-22T03:00:00Z; the session stays pending until then"
    ]
    assert len(record["sessions"]) == 1
