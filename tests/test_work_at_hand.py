"""A request for one change to the work at hand is of the moment; a rule said as a request,
or the speaker's own way of working said before one, is kept."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.to_the_agent import STANDING_ORDER
from dreamgit.dream.gather.work_at_hand import wanted_order, without_request

_WHEN = datetime(2031, 5, 6, 9, 0, tzinfo=UTC)
_DAY = "2031-05-06T10:00:00Z"
_NIGHT = "2031-05-06T23:00:00Z"


def _kept(said: str) -> list[tuple[str, str]]:
    found = extract_candidates(
        f"User: {said}\n\nAssistant: On it.\n", session_id="s-20310506-a1b2c3", created=_WHEN
    )
    return [(c.kind, c.text) for c in found]


@pytest.mark.parametrize(
    "said",
    [
        "I'd like the upload button to sit under the file list.",
        "i would love it if the sidebar folded away on narrow screens",
        "I want them to line up with the grid exactly.",
        "I'd like to please try the new build first.",
        "After running the migration, print the tables it created.",
        "Use the staging token for each.",
        "The graph on the reports page is clipped at the top, also please move the key below it.",
        "The counts look off, please rebuild them from the raw events.",
        "I would like you to rename the loader in the config module to read_settings.",
        "i thought that ran only on the nightly build",
        "right now it is slow and flaky for me",
    ],
)
def test_a_request_for_one_change_to_the_work_at_hand_is_not_kept(said: str) -> None:
    assert _kept(said) == []


@pytest.mark.parametrize(
    ("said", "kind", "text"),
    [
        (
            "I'd like you to always add a changelog line with each fix.",
            "instruction",
            "The user wants the agent to always add a changelog line with each fix.",
        ),
        (
            "I want you to use yarn, not npm, in this repository.",
            "instruction",
            "The user wants the agent to use yarn, not npm, in this repository.",
        ),
        (
            "I'd like release notes to be short and written for end users.",
            "preference",
            "The user would like release notes to be short and written for end users.",
        ),
        (
            "In this repository we keep every migration in the db folder, please put the new"
            " one there.",
            "fact",
            "In this repository the user's team keeps every migration in the db folder.",
        ),
        (
            "From now on, please run the type checker before every push.",
            "instruction",
            "The user wants the agent to run the type checker before every push from now on.",
        ),
        (
            "After touching any schema file, regenerate the client before you push.",
            "instruction",
            "The user wants the agent to regenerate the client before the agent pushes after"
            " touching any schema file.",
        ),
        (
            "Before a release, tag the commit with the date.",
            "instruction",
            "The user wants the agent to tag the commit with the date before a release.",
        ),
        (
            "Please keep log lines short and in lower case.",
            "instruction",
            "The user wants the agent to keep log lines short and in lower case.",
        ),
    ],
)
def test_a_rule_said_as_a_request_is_kept(said: str, kind: str, text: str) -> None:
    assert (kind, text) in _kept(said), _kept(said)


def test_a_moment_of_a_kind_with_no_order_after_it_is_no_rule() -> None:
    kept = _kept("After a long week, I usually sleep in on a Saturday.")
    assert kept and all(kind != "instruction" for kind, _ in kept), kept


def test_a_thing_kept_as_it_is_is_a_constraint_not_a_change() -> None:
    said = "I want the public client to stay compatible with the old server."
    assert without_request(said, standing_order=STANDING_ORDER) == said


def test_a_value_or_more_said_around_a_request_is_still_read() -> None:
    """A number said in a wish is a value a later question may ask for; a request asked as
    "can you please …", or one the speaker goes on after, is read whole as before."""
    kept = _kept("I'd like the thumbnail to be 200x200px and under 40KB, as the spec says.")
    assert any("200x200px" in text for _, text in kept), kept
    said = (
        "I'm unsure about the sum, so can you please check my answer, I've solved 6 of the 10"
        " exercises and my score went from 50% to 70% in a week"
    )
    assert without_request(said, standing_order=STANDING_ORDER) == said
    said = "please look at the plot, I've rerun it 4 times and the axis is still cut"
    assert without_request(f"the axis is cut, {said}", standing_order=STANDING_ORDER) == (
        f"the axis is cut, {said}"
    )


def test_the_speakers_own_report_before_a_request_stays_anothers_goes() -> None:
    assert (
        without_request(
            "we ship from the release branch, please bump the version file",
            standing_order=STANDING_ORDER,
        )
        == "we ship from the release branch"
    )
    assert (
        without_request(
            "the footer overlaps the form, please fix that", standing_order=STANDING_ORDER
        )
        is None
    )
    # "please remember": what follows is what to keep, no request
    said = "the staging box resets nightly, please remember that"
    assert without_request(said, standing_order=STANDING_ORDER) == said


def test_a_wish_that_the_agent_do_something_is_the_order_it_says() -> None:
    assert wanted_order("I need you to pin every dependency") == "Pin every dependency"
    assert wanted_order("I'd like to try it") is None
    assert wanted_order("I want you to please look") is None  # a request, read as one


def test_a_dream_keeps_the_rules_and_leaves_the_requests(tmp_path: Path) -> None:
    """End to end with the installed command: a Cursor export whose user asks politely for
    changes and states two rules keeps the rules, not the changes."""
    repo = tmp_path / "mem"
    prepared(repo, _DAY, "init", str(repo))
    exported = tmp_path / "2031-05-06_09-00-layout.md"
    exported.write_text(
        "<!-- Generated by SpecStory -->\n\n# Layout (2031-05-06 09:00Z)\n\n"
        "_**User (2031-05-06 09:00Z)**_\n\nI'd like the upload button to sit under the file"
        " list. The graph on the reports page is clipped at the top, also please move the key"
        " below it.\n\n---\n\n"
        "_**Agent (model claude 2031-05-06 09:01Z)**_\n\nMoved both.\n\n---\n\n"
        "_**User (2031-05-06 09:05Z)**_\n\nI want you to use yarn, not npm, in this"
        " repository. I'd like you to always add a changelog line with each fix.\n\n---\n\n"
        "_**Agent (model claude 2031-05-06 09:06Z)**_\n\nNoted.\n\n---\n\n",
        encoding="utf-8",
    )
    prepared(repo, _DAY, "log", "--file", str(exported))
    dreamgit(repo, _NIGHT, "run", "--force")
    texts = [m["text"] for m in active(repo, _NIGHT, in_process=True)]
    assert any("yarn, not npm" in t for t in texts), texts
    assert any("always add a changelog line" in t for t in texts), texts
    assert not any("upload button" in t or "graph" in t for t in texts), texts
