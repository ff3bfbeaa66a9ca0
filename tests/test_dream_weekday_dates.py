"""A weekday said in a chat is kept as said, with its date beside it, through a real dream.

Everything goes through the installed command as a process, on a real repository: a chat
between two people logged on a Monday, one dream. "last Friday" stays in the memory with
the day it meant beside it ("last Friday (5 June 2026)"), so a reader sees both the
weekday and the date; a name that is also a weekday, and a habit "on Sundays", get no date.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from gitcheck import fsck

CHAT = (
    "Ines: I ran my first half marathon in Porto last Friday.\n"
    "Omar: That sounds wonderful, congratulations!\n"
    "Ines: My cousin Friday Adeyemi painted the lettering on the mural with me.\n"
    "Omar: What a team.\n"
    "Ines: I swim in the river on Sundays with my climbing club.\n"
    "Omar: Brave of you.\n"
)


@pytest.mark.slow
def test_a_weekday_keeps_its_words_with_the_date_beside_and_a_name_gets_none(
    tmp_path: Path,
) -> None:
    """On Monday 8 June 2026, "last Friday" is kept with "(5 June 2026)" beside it; the
    cousin named Friday and the swim "on Sundays" are left as said."""
    repo = tmp_path / "mem"
    prepared(repo, "2026-06-08T08:00:00Z", "init", str(repo))
    prepared(repo, "2026-06-08T10:00:00Z", "log", CHAT)
    dreamgit(repo, "2026-06-09T03:00:00Z", "run", "--force")
    texts = " ".join(m["text"] for m in active(repo, "2026-06-09T04:00:00Z"))
    assert "ran their first half marathon in Porto last Friday (5 June 2026)" in texts
    assert "Friday Adeyemi painted the lettering" in texts
    assert "on Sundays" in texts
    # one date beside a weekday, no more (a session note's lead names its session's day)
    assert texts.replace("Ines (8 June 2026) — ", "").count("(") == 1
    fsck(repo)
