"""A change said as "from A to B" leaves the active set when a later value comes.

Through the installed command, on a real repository: a user says a goal of theirs went
from one value to another this month, and a week later names the next value without a
month. The active memory then says the value now and no earlier one; the record of the
change is in history, and ``show --history`` says what superseded it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

FIRST = "User: My daily swimming goal went from 20 to 30 lengths this month.\n"
LATER = "User: I raised my daily swimming goal to 40 lengths.\n"


@pytest.mark.slow
def test_a_change_record_leaves_when_a_later_value_comes(tmp_path: Path) -> None:
    """ "Went from 20 to 30 lengths" (dated by "this month"), then "raised to 40": one
    active memory of the goal, holding 40 and neither 20 nor 30; the history of the
    superseded record names the memory that took its place."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-03-02T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-03-02T10:00:00Z", "log", stdin=FIRST)
    dreamgit(repo, "2026-03-03T09:00:00Z", "run", "--force")
    (record,) = [m for m in active(repo, "2026-03-03T09:00:00Z") if "swimming" in m["text"]]
    assert "20" in record["text"] and "30 lengths" in record["text"]
    dreamgit(repo, "2026-03-09T10:00:00Z", "log", stdin=LATER)
    out = dreamgit(repo, "2026-03-10T09:00:00Z", "run", "--force")
    assert "supersede-newer-value" in out
    (now,) = [m for m in active(repo, "2026-03-10T09:00:00Z") if "swimming" in m["text"]]
    assert "40 lengths" in now["text"]
    assert not {"20", "30"} & set(now["text"].replace(".", " ").split())
    history = dreamgit(repo, "2026-03-10T09:00:00Z", "show", "--history", record["id"])
    assert f"superseded by {now['id']}" in history
    fsck(repo)
