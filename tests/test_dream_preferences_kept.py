"""What a dream keeps of a preference said to an agent, through the installed command.

A preference said inside a request is kept with what it is for, a wish for the task at
hand is not; a switch to a third thing leaves a preference that ranks two others, a switch
to the thing it ranked below ends it; "pls always …" is the same standing preference as
"Please always …". Every sentence here was written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared

DAY = "2026-03-02T10:00:00Z"
NEXT_DAY = "2026-03-03T09:00:00Z"


def _dreamt(repo: Path, *sessions: tuple[str, str]) -> list[str]:
    """The active memories' texts after each (time, session) is logged and a forced run."""
    prepared(repo, "2026-03-01T09:00:00Z", "init", str(repo))
    for when, session in sessions:
        prepared(repo, when, "log", stdin=session)
    dreamgit(repo, NEXT_DAY, "run", "--force")
    return [m["text"] for m in active(repo, NEXT_DAY)]


def _said(user: str) -> str:
    return f"User: {user}\n\nAssistant: Sure, let us start there.\n"


@pytest.mark.slow
def test_a_wish_for_the_task_at_hand_is_not_kept_as_a_preference(tmp_path: Path) -> None:
    """ "I'd rather you not … right now" leaves with the task; a standing wish is kept."""
    texts = _dreamt(
        tmp_path / "mem",
        (DAY, _said("I'd rather you not rebuild the search index right now, can you help?")),
        (DAY, _said("I prefer to leave the cron file alone for now, can you patch the importer?")),
        (DAY, _said("I'd rather you never rebuild the search index without asking.")),
    )
    assert not [t for t in texts if "right now" in t or "for now" in t or "cron" in t], texts
    assert "The user would rather the agent never rebuild the search index without asking." in (
        texts
    ), texts


@pytest.mark.slow
def test_a_preference_keeps_the_aim_its_doubt_names(tmp_path: Path) -> None:
    """ "…, but I'm not sure if it's the best choice for X": the preference, for X."""
    texts = _dreamt(
        tmp_path / "mem",
        (
            DAY,
            _said(
                "I'm trying to decide where to record the podcast, and I prefer the small booth"
                " at the community radio station, but I'm not sure if it's the best choice for"
                " cutting echo"
            ),
        ),
    )
    assert (
        "The user prefers the small booth at the community radio station, for cutting echo."
        in texts
    ), texts


@pytest.mark.slow
def test_a_preference_given_as_the_reason_for_a_choice_leaves_no_dangling_because(
    tmp_path: Path,
) -> None:
    """ "Let's … because I prefer X": X is kept; nothing ends in "because"."""
    texts = _dreamt(
        tmp_path / "mem",
        (DAY, _said("Let's use Ninja for the firmware build because I prefer fast rebuilds.")),
    )
    assert "The user prefers fast rebuilds." in texts, texts
    assert not [t for t in texts if t.rstrip(".").endswith(("because", "since"))], texts


RANKED = _said(
    "I'm setting up the wiki for the lab and I prefer Fossil over Mercurial because of its"
    " built-in tickets, can you show me how to import the old pages?"
)


@pytest.mark.slow
def test_a_switch_to_a_third_tool_leaves_a_preference_that_ranks_two_others(
    tmp_path: Path,
) -> None:
    """ "switched from Fossil to Pijul" says nothing of Fossil against Mercurial."""
    switched = _said("I switched from Fossil to Pijul on March 2, can you help me move the hooks?")
    texts = _dreamt(tmp_path / "mem", ("2026-02-20T10:00:00Z", RANKED), (DAY, switched))
    assert [t for t in texts if "Fossil over Mercurial" in t], texts
    assert [t for t in texts if "switched from Fossil to Pijul" in t], texts


@pytest.mark.slow
def test_a_switch_to_the_tool_ranked_below_ends_the_preference(tmp_path: Path) -> None:
    """ "switched from Fossil to Mercurial" reverses "prefers Fossil over Mercurial"."""
    switched = _said("I switched from Fossil to Mercurial on March 2, can you move the hooks?")
    texts = _dreamt(tmp_path / "mem", ("2026-02-20T10:00:00Z", RANKED), (DAY, switched))
    assert not [t for t in texts if "Fossil over Mercurial" in t], texts
    assert [t for t in texts if "switched from Fossil to Mercurial" in t], texts


@pytest.mark.slow
@pytest.mark.parametrize("please", ["pls", "plz", "Please"])
def test_an_informal_please_sets_the_same_standing_preference(tmp_path: Path, please: str) -> None:
    """ "pls always use uv, thx" is kept as "Please always use uv" is, without the thanks;
    "pls rerun it" is a task."""
    texts = _dreamt(
        tmp_path / "mem",
        (DAY, _said(f"{please} always use uv to install packages in this repo, thx")),
        (DAY, _said(f"{please} rerun the flaky test in the importer")),
    )
    assert texts == ["The user wants the agent to always use uv to install packages in this repo."]
