"""status tells a dream running now from one a crash abandoned."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.dream.status import dream_lock_path
from dreamgit.gitstore import Identity
from dreamgit.gitstore.locks import exclusive
from dreamgit.store.repo import MemoryRepo

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def _status(path: Path) -> dict[str, list[str]]:
    result = CliRunner().invoke(
        cli, ["--repo", str(path), "--now", NOW.isoformat(), "status", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    return {k: report[k] for k in ("running", "abandoned", "awaiting_review")}


def test_branch_without_a_record_is_running_while_the_dream_lock_is_held(tmp_path: Path) -> None:
    """Lock held: the unfinished branch is a dream in progress; lock free: it was abandoned."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    store = repo.store
    tip = repo.tip() or ""
    tree = store.build_tree(tip, {"memories/notes/half-done.md": b"half a dream\n"})
    who = Identity("dreamgit", "dreamgit@localhost")
    store.commit(
        "dream/20261122T030000Z-abcd", parents=[tip], tree=tree, message="add", who=who, when=NOW
    )
    with exclusive(dream_lock_path(repo)):
        assert _status(tmp_path / "mem") == {
            "running": ["dream/20261122T030000Z-abcd"],
            "abandoned": [],
            "awaiting_review": [],
        }
    assert _status(tmp_path / "mem") == {
        "running": [],
        "abandoned": ["dream/20261122T030000Z-abcd"],
        "awaiting_review": [],
    }
