"""One noun, two settings: a change of the weekly goal leaves the daily goal alone.

Everything goes through the installed command as a process, on real repositories:
settings said as a change from one value to another, in sessions of one day, one dream.
A newer value of the same setting retires the older one; a setting that names a word of
its own ("weekly" against "daily") is another thing, and both stay.
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
def test_a_change_of_another_setting_with_the_same_noun_retires_nothing(
    tmp_path: Path,
) -> None:
    """ "raised my daily push-up goal from 20 to 25", then the weekly goal "from 100 to
    140": two goals, both stay; the daily goal raised again retires its older value."""
    repo = tmp_path / "mem"
    texts = _day(
        repo,
        "I've raised my daily push-up goal from 20 to 25 push-ups.",
        "I've raised my weekly push-up goal from 100 to 140 push-ups.",
        "I've raised my daily sit-up goal from 30 to 35 sit-ups.",
        "I've raised my daily sit-up goal from 35 to 40 sit-ups.",
    )
    assert {t: n for t, n in texts.items() if "goal" in t} == {
        "The user has raised their daily push-up goal from 20 to 25 push-ups.": 0,
        "The user has raised their weekly push-up goal from 100 to 140 push-ups.": 0,
        "The user has raised their daily sit-up goal from 35 to 40 sit-ups.": 1,
    }
    fsck(repo)
