"""A change said as "from A to B" leaves the active set when a later value comes.

Through the installed command, on a real repository: a user says something of theirs
went from one value to another this month, and a week later names the next value without
a month. The active memory then says the value now and no earlier one; the record of the
change is in history, and ``show --history`` says what superseded it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck


@pytest.mark.slow
@pytest.mark.parametrize(
    ("subject", "first", "later", "now", "before"),
    [
        # a goal said with how often ("daily"): no second day beside "this month"
        (
            "swimming",
            "User: My daily swimming goal went from 20 to 30 lengths this month.\n",
            "User: I raised my daily swimming goal to 40 lengths.\n",
            "40 lengths",
            ("20", "30"),
        ),
        # an amount with no counted noun: "went up from A to B" says the fee's value
        (
            "parking",
            "User: My parking fee went up from $80 to $95 this month.\n",
            "User: My parking fee is now $110.\n",
            "$110",
            ("$80", "$95"),
        ),
    ],
)
def test_a_change_record_leaves_when_a_later_value_comes(
    tmp_path: Path, subject: str, first: str, later: str, now: str, before: tuple[str, ...]
) -> None:
    """ "Went from A to B" (dated by "this month"), then the next value: one active memory
    of the thing, holding the value now and no earlier one; the history of the superseded
    record names the memory that took its place."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-03-02T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-03-02T10:00:00Z", "log", stdin=first)
    dreamgit(repo, "2026-03-03T09:00:00Z", "run", "--force")
    (record,) = [m for m in active(repo, "2026-03-03T09:00:00Z") if subject in m["text"]]
    assert all(value in record["text"] for value in before)
    dreamgit(repo, "2026-03-09T10:00:00Z", "log", stdin=later)
    out = dreamgit(repo, "2026-03-10T09:00:00Z", "run", "--force")
    assert "supersede-newer-value" in out
    (current,) = [m for m in active(repo, "2026-03-10T09:00:00Z") if subject in m["text"]]
    assert now in current["text"]
    assert not set(before) & set(current["text"].replace(".", " ").split())
    history = dreamgit(repo, "2026-03-10T09:00:00Z", "show", "--history", record["id"])
    assert f"superseded by {current['id']}" in history
    fsck(repo)
