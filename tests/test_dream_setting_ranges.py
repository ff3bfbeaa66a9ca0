"""A setting changed by a range ("raised my goal from 20 to 25") is a slot a newer value fills.

Everything goes through the installed command as a process, on real repositories: a
setting said as a change from one value to another in one session, its newer value said
in a later one, one dream. The range leaves; a setting of another name stays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck


def _day(repo: Path, *said: str) -> dict[str, int]:
    """``said`` logged as sessions of one day, hours apart, then a dream the next night;
    each active memory's text with how many memories it superseded."""
    dreamgit(repo, "2026-07-06T08:00:00Z", "init", str(repo))
    for hour, turn in enumerate(said, start=9):
        dreamgit(repo, f"2026-07-06T{hour:02d}:00:00Z", "log", f"User: {turn}")
    dreamgit(repo, "2026-07-07T03:00:00Z", "run", "--force")
    return {m["text"]: len(m["supersedes"]) for m in active(repo, "2026-07-07T04:00:00Z")}


@pytest.mark.slow
def test_a_newer_value_retires_a_setting_said_as_a_range_and_another_setting_stays(
    tmp_path: Path,
) -> None:
    """ "raised my daily push-up goal from 20 to 25" then "… was lowered to 22": one memory,
    the newer one; the weekly goal, said the same way, is another setting: it stays, and
    it retires nothing of the daily one."""
    repo = tmp_path / "mem"
    texts = _day(
        repo,
        "I've raised my daily push-up goal from 20 to 25 push-ups.",
        "I've raised my weekly push-up goal from 100 to 140 push-ups.",
        "My daily push-up goal was lowered to 22 push-ups.",
    )
    assert {t: n for t, n in texts.items() if "push-up" in t} == {
        "The user has raised their weekly push-up goal from 100 to 140 push-ups.": 0,
        "The user's daily push-up goal was lowered to 22 push-ups.": 1,
    }
    fsck(repo)
