"""A setting renamed later is still one setting; a count of another thing is never it.

Through the installed command, on a real repository: a user names a bound one way ("the
500 daily upload limit") and a week later gives its new value under another name ("the new
daily upload quota is 800 uploads per day"): the older memory leaves, restorable. A bound
of another thing ("the 900 daily download limit") stays, and so does a count that only
shares a word with a newer count ("4 short films in my showreel" / "the number of students
I've coached has increased to 9", both said while working on the showreel).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

FIRST = (
    "User: I keep the nightly photo sync under the 500 daily upload limit, can you help me "
    "batch it?\n\n"
    "Assistant: Sure, here is a batching plan.\n\n"
    "User: I also stay under the 900 daily download limit for the archive.\n\n"
    "Assistant: Noted.\n\n"
    "User: I chose to feature 4 short films in my showreel.\n\n"
    "Assistant: Great choice.\n"
)
LATER = (
    "User: My host raised it, the new daily upload quota is 800 uploads per day, can you "
    "update the sync script?\n\n"
    "Assistant: Here is the updated script.\n\n"
    "User: I'm updating my showreel and I noticed the number of students I've coached has "
    "increased to 9, how should I show that?\n\n"
    "Assistant: Add a line about it.\n"
)


def _texts(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now)]


@pytest.mark.slow
def test_a_bound_named_anew_supersedes_and_other_counts_stay(tmp_path: Path) -> None:
    """ "500 daily upload limit" then "the new daily upload quota is 800": one current
    value, the old one restorable; the download limit and the showreel's films stay."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-02-02T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-02-02T10:00:00Z", "log", stdin=FIRST)
    dreamgit(repo, "2026-02-03T09:00:00Z", "run", "--force")
    (limit,) = [m for m in active(repo, "2026-02-03T09:00:00Z") if "500 daily" in m["text"]]
    dreamgit(repo, "2026-02-09T10:00:00Z", "log", stdin=LATER)
    dreamgit(repo, "2026-02-10T09:00:00Z", "run", "--force")
    texts = _texts(repo, "2026-02-10T09:00:00Z")
    assert not [t for t in texts if "500 daily upload" in t]
    assert [t for t in texts if "800 uploads" in t]
    assert [t for t in texts if "900 daily download limit" in t]  # another bound stays
    assert [t for t in texts if "4 short films" in t]  # shares "showreel", not the count
    assert [t for t in texts if "increased to 9" in t]
    dreamgit(repo, "2026-02-11T09:00:00Z", "restore", limit["id"])
    assert limit["text"] in _texts(repo, "2026-02-11T09:00:00Z")
    fsck(repo)
