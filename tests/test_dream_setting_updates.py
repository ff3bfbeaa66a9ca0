"""A setting's newer value, said in a later session, retires the older one.

Through the installed command, on a real repository: a user states a setting of theirs
one day and its new value a week later, in the shapes chats use — the new value said
inside a request ("can you help me … now that the daily upload cap is 800 files?"), a
change said with another verb ("was adjusted to 25 drawings" after "raised … from 20 to
30 drawings"). A setting of another name ("download cap") is another setting and stays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

FIRST = (
    "User: I've raised my weekly sketching goal from 20 to 30 drawings, and I'm happy with "
    "the pace.\n"
    "User: My daily upload cap is 500 files for the photo archive.\n"
    "User: My daily download cap is 900 files.\n"
)
LATER = (
    "User: I'm planning next week, and I just found out my weekly sketching goal was "
    "adjusted to 25 drawings, can you help me spread them out?\n"
    "User: Can you help me script the sync now that the daily upload cap is 800 files?\n"
)


def _texts(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now)]


@pytest.mark.slow
def test_a_setting_changed_in_a_later_session_leaves_one_current_value(tmp_path: Path) -> None:
    """ "Raised from 20 to 30" then "adjusted to 25"; "cap is 500" then "now that the cap
    is 800": one memory each holds the value now, the old one is restorable, and the
    download cap (another setting) stays."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-01-05T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-01-05T10:00:00Z", "log", stdin=FIRST)
    dreamgit(repo, "2026-01-06T09:00:00Z", "run", "--force")
    before = active(repo, "2026-01-06T09:00:00Z")
    (upload,) = [m for m in before if "upload cap" in m["text"]]
    assert "500 files" in upload["text"]
    assert [m for m in before if "30 drawings" in m["text"]]
    dreamgit(repo, "2026-01-12T10:00:00Z", "log", stdin=LATER)
    out = dreamgit(repo, "2026-01-13T09:00:00Z", "run", "--force")
    assert out.count("supersede-newer-value") == 2
    texts = _texts(repo, "2026-01-13T09:00:00Z")
    assert not [t for t in texts if "30 drawings" in t or "500 files" in t]
    assert [t for t in texts if "upload cap" in t] == [t for t in texts if "800 files" in t] != []
    assert [t for t in texts if "25 drawings" in t]
    assert [t for t in texts if "download cap is 900 files" in t]  # another setting stays
    dreamgit(repo, "2026-01-14T09:00:00Z", "restore", upload["id"])
    assert upload["text"] in _texts(repo, "2026-01-14T09:00:00Z")
    fsck(repo)


def _log_at(repo: Path, now: str, *turns: str) -> None:
    for turn in turns:
        dreamgit(repo, now, "log", stdin=f"User: {turn}\n\nAssistant: Noted.\n")


@pytest.mark.slow
def test_said_at_one_time_a_count_said_as_a_change_retires_the_other(tmp_path: Path) -> None:
    """Sessions logged at one time: "raised my practice set to 12 endgames" is the count
    now, so "solved 8 endgames" leaves (the rest of its statement stays); two counts said
    with no word of change ("has 3 ferns", "has 4 ferns") both stay."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-01-05T09:00:00Z", "init", str(repo))
    now = "2026-01-05T10:00:00Z"
    _log_at(
        repo,
        now,
        "I've raised my practice set to 12 chess endgames, which has helped my calculation.",
        "I've solved 8 chess endgames with a timer and my accuracy went up.",
        "My balcony has 3 ferns.",
        "My balcony has 4 ferns.",
    )
    out = dreamgit(repo, "2026-01-06T09:00:00Z", "run", "--force")
    assert "supersede-newer-value" in out
    texts = _texts(repo, "2026-01-06T09:00:00Z")
    assert not [t for t in texts if "8 chess endgames" in t]
    assert [t for t in texts if "12 chess endgames" in t]
    assert [t for t in texts if "accuracy went up" in t]
    assert [t for t in texts if "3 ferns" in t] and [t for t in texts if "4 ferns" in t]
    fsck(repo)
