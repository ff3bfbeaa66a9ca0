"""How the project must be: specifications an agent's user lays down inside requests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.specs import invariant_order, spec, without_note

_WHEN = datetime(2031, 4, 2, 9, 0, tzinfo=UTC)


def _texts(transcript: str) -> list[tuple[str, str]]:
    found = extract_candidates(transcript, session_id="s-20310402-a1b2c3", created=_WHEN)
    return [(c.kind, c.text) for c in found]


@pytest.mark.parametrize(
    "clause",
    [
        "each exporter should live in its own folder under plugins",
        "there should be no network calls in the unit tests",
        "the `sync` command must not touch files outside the vault",
        "config files shouldn't hold any credentials",
    ],
)
def test_a_thing_that_should_or_must_be_so_is_a_spec(clause: str) -> None:
    assert spec(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "it should work now",
        "the nightly build should be fixed now",
        "we should grab lunch after the demo",
        "maybe the cache should move to redis",
        "you should check the logs",
        "the parser might need a rewrite",
    ],
)
def test_status_a_guess_a_plan_or_advice_is_not_a_spec(clause: str) -> None:
    assert not spec(clause)


def test_make_sure_is_a_rule_when_it_states_an_invariant_and_a_check_otherwise() -> None:
    assert invariant_order("make sure the importer never rewrites a file it did not create")
    assert invariant_order("ensure each handler has its own test module")
    assert not invariant_order("make sure the build passes")
    assert not invariant_order("keep each handler in its own module")  # not a "make sure"


def test_note_that_leaves_the_statement_it_announces() -> None:
    assert without_note("note that the vault is synced by a cron job") == (
        "the vault is synced by a cron job"
    )
    assert without_note("Keep in mind that staging shares the prod queue") == (
        "staging shares the prod queue"
    )
    assert without_note("the notes are plain markdown") == "the notes are plain markdown"


def test_an_agent_session_keeps_the_specs_said_inside_a_request() -> None:
    """The request is a task of the moment; how the thing must be outlives it."""
    found = _texts(
        "User: add a csv exporter. each exporter should live in its own folder under"
        " plugins. make sure the exporter never writes outside the output folder.\n\n"
        "Assistant: Added.\n\n"
        "User: there should be no network calls in the unit tests.\n\nAssistant: Ok.\n"
    )
    assert found == [
        ("instruction", "The user says each exporter should live in its own folder under plugins."),
        (
            "instruction",
            "The user wants the agent to make sure the exporter never writes outside the"
            " output folder.",
        ),
        ("instruction", "The user says there should be no network calls in the unit tests."),
    ]


def test_a_check_of_the_moment_and_a_guess_leave_nothing() -> None:
    assert (
        _texts(
            "User: make sure the build passes. maybe the cache should move to redis.\n\n"
            "Assistant: Will do.\n"
        )
        == []
    )


def test_between_people_should_stays_a_guess() -> None:
    """Only to an agent is "X should be Y" a specification; between friends it is not kept."""
    found = _texts(
        "Noor: The new bakery should open by the station soon.\n"
        "Rui: Oh nice, which station?\n"
        "Noor: The one by the old market, I pass it on Tuesdays.\n"
        "Rui: Cool.\n"
    )
    assert found
    assert all("bakery" not in text for _, text in found)


def test_note_that_keeps_the_project_fact_it_announces() -> None:
    found = _texts(
        "User: note that the vault is synced to the NAS by a nightly cron job.\n\n"
        "Assistant: Good to know.\n"
    )
    assert any("NAS" in text and "nightly cron" in text for _, text in found)
