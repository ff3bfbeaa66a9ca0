"""A moved deadline: the old day leaves at once, the new one stays until its own day,
then is no plan but the note of the day it was said.

Everything goes through the installed command as a process, on a real repository: the
user names a deadline in one session and moves it in a later one; dreams run before the
old day, between the two days and after the new one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from gitcheck import fsck


def _deadlines(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now) if "grant report" in m["text"]]


@pytest.mark.slow
def test_a_moved_deadline_retires_the_old_day_at_once_and_keeps_the_new_one_until_it_passes(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "mem"
    prepared(repo, "2026-03-01T08:00:00Z", "init", str(repo))
    prepared(
        repo,
        "2026-03-01T09:00:00Z",
        "log",
        "User: The grant report deadline is 10 March 2026 at 5pm.\nAssistant: Noted.",
    )
    prepared(
        repo,
        "2026-03-02T09:00:00Z",
        "log",
        "User: The grant report deadline moved to 20 March 2026 at 5pm.\nAssistant: Noted.",
    )
    dreamgit(repo, "2026-03-03T03:00:00Z", "run", "--force")
    (before,) = _deadlines(repo, "2026-03-03T04:00:00Z")  # the old day left at once
    assert "20 March 2026" in before and "10 March" not in before
    dreamgit(repo, "2026-03-15T03:00:00Z", "run", "--force")
    assert _deadlines(repo, "2026-03-15T04:00:00Z") == [before]  # its day is ahead
    dreamgit(repo, "2026-03-21T03:00:00Z", "run", "--force")
    # its day is over: the plan is in history, what was said that day in its note
    assert _deadlines(repo, "2026-03-21T04:00:00Z") == [f"2 March 2026 \u2014 {before}"]
    fsck(repo)
