"""A day said without its year, through the installed command: the year its clause means.

"I've signed the lease and have a viewing on April 21 at 3 PM" said on 12 April looks
ahead: the memory names 21 April of that year, and the plan leaves after its day for the
note of the day it was said (had "signed" set the year, it would name the year before,
never be due, and stay for good).
"I visited Porto on July 2" tells what was: last July; "enrolled in a course starting
Nov 2" is what the course is set for: this November, though last November is nearer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

SAID = (
    "User: I've signed the lease and have a viewing with the agent on April 21 at 3 PM.\n\n"
    "Assistant: Good luck with the viewing.\n\n"
    "User: I visited Porto on July 2 and loved the tiles.\n"
)
ENROLLED = "User: I've enrolled in an evening pottery course starting Nov 2.\n"


def _texts(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now)]


@pytest.mark.slow
def test_a_plan_said_without_its_year_is_dated_ahead_and_leaves_after_its_day(
    tmp_path: Path,
) -> None:
    """The viewing is dated 21 April 2026 and leaves after it; Porto stays in July 2025;
    the course starts in November 2026."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-04-12T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-04-12T10:00:00Z", "log", stdin=SAID)
    dreamgit(repo, "2026-04-12T11:00:00Z", "log", stdin=ENROLLED)
    dreamgit(repo, "2026-04-13T09:00:00Z", "run", "--force")
    texts = _texts(repo, "2026-04-13T09:00:00Z")
    assert [t for t in texts if "viewing" in t and "21 April 2026" in t], texts
    assert [t for t in texts if "Porto" in t and "2 July 2025" in t], texts
    assert [t for t in texts if "pottery" in t and "2 November 2026" in t], texts
    dreamgit(repo, "2026-04-23T09:00:00Z", "run", "--force")
    texts = _texts(repo, "2026-04-23T09:00:00Z")
    # its day is over: no plan, only the note of the day it was said
    viewing = [t for t in texts if "viewing" in t]
    assert len(viewing) == 1 and viewing[0].startswith("12 April 2026 \u2014 "), texts
    assert [t for t in texts if "Porto" in t], texts
    fsck(repo)
