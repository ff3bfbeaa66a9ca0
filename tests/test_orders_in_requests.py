"""Durable statements said inside a request: a standing order carried by a purpose
("… so that you always …"), a choice weighed against another way ("let's X instead of
Y"), and the attribution's words kept out of the repeat check."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.compact import compact
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.orders_in_requests import orders_in_request
from dreamgit.dream.gather.specs import choice

_WHEN = datetime(2031, 5, 6, 9, 0, tzinfo=UTC)
_DAY = "2031-05-06T10:00:00Z"
_NIGHT = "2031-05-06T23:00:00Z"


def _texts(transcript: str) -> list[tuple[str, str]]:
    found = extract_candidates(transcript, session_id="s-20310506-a1b2c3", created=_WHEN)
    return [(c.kind, c.text) for c in found]


@pytest.mark.parametrize(
    ("sentence", "order"),
    [
        (
            "could we tweak the release checklist so you always bump the version before tagging?",
            "Always bump the version before tagging.",
        ),
        (
            "update the style guide to make sure you never leave print statements in library"
            " code, then commit it",
            "Never leave print statements in library code.",
        ),
        (
            "rewrite the hook so that you don't ever skip the schema check; thanks",
            "Never skip the schema check.",
        ),
    ],
)
def test_a_purpose_said_of_the_agent_carries_a_standing_order(sentence: str, order: str) -> None:
    assert orders_in_request(sentence) == [order]


@pytest.mark.parametrize(
    "sentence",
    [
        "make sure you always bump the version before tagging",  # the order itself
        "update the checklist so you can bump the version",  # no always or never
        "fix the hook so that it always runs",  # the subject is not the agent
        "tweak it so you always win",  # too short to say how to work
        "update the rule to make sure you always do this going forward",  # "this" is elsewhere
    ],
)
def test_no_standing_order_without_its_shape(sentence: str) -> None:
    assert orders_in_request(sentence) == []


def test_the_order_inside_a_question_becomes_the_users_instruction() -> None:
    found = _texts(
        "User: is there a way we could tweak the release checklist so you always bump the"
        " version before tagging?\n\nAssistant: Yes.\n"
    )
    assert found == [
        ("instruction", "The user wants the agent to always bump the version before tagging.")
    ]


def test_a_lets_order_weighed_against_another_way_is_a_decision() -> None:
    assert choice("lets keep one shared retry helper instead of copying it") == (
        "keep one shared retry helper instead of copying it"
    )
    assert choice("let's add a flag for verbose output") is None  # a task, no other way
    found = _texts(
        "User: lets build the parser by hand rather than pulling in a grammar library.\n\n"
        "Assistant: ok\n"
    )
    assert found == [
        (
            "decision",
            "The user decided to build the parser by hand rather than pulling in a grammar"
            " library.",
        )
    ]


def test_between_people_lets_instead_of_is_no_decision_of_a_user() -> None:
    found = _texts(
        "Dana: hey Ben, how was the week?\nBen: good, busy at the bakery.\n"
        "Dana: let's take the train instead of driving to the coast.\nBen: sure, sounds good.\n"
    )
    assert not any("train" in text for _, text in found), found


def test_the_words_reporting_who_said_it_are_no_shared_content() -> None:
    """Two reported statements share "says" and the user; only what was said counts."""
    known = ["The user says the ledger service runs on Go, deployed by the infra team."]
    found = extract_candidates(
        "User: the ledger service is called tally, built with Rust.\n\nAssistant: ok\n",
        session_id="s-20310506-a1b2c3",
        created=_WHEN,
    )
    said = "The user says the ledger service is called tally, built with Rust."
    assert [(c.text, c.attribution) for c in found] == [(said, "The user says")]
    kept, _over, repeats = compact(found, 10_000, known, min_novelty=0.32)
    assert [c.text for c in kept] == [said] and repeats == []


def test_between_people_a_reported_statement_is_read_whole() -> None:
    """The look-alike in a chat between people: "Ben says …" keeps its words in the check."""
    found = extract_candidates(
        "Dana: hey Ben, how was the week?\nBen: good, busy at the bakery.\n",
        session_id="s-20310506-a1b2c3",
        created=_WHEN,
    )
    assert [(c.text, c.attribution) for c in found] == [("Ben says good, busy at the bakery.", "")]


def test_a_dream_keeps_the_order_and_the_choice_said_inside_requests(tmp_path: Path) -> None:
    """End to end with the installed command: a Cursor export whose user asks for work
    keeps the standing order and the choice it carried, and not the tasks."""
    repo = tmp_path / "mem"
    prepared(repo, _DAY, "init", str(repo))
    exported = tmp_path / "2031-05-06_09-00-release.md"
    exported.write_text(
        "<!-- Generated by SpecStory -->\n\n# Release (2031-05-06 09:00Z)\n\n"
        "_**User (2031-05-06 09:00Z)**_\n\nis there a way we could tweak the release checklist"
        " so you always bump the version before tagging?\n\n---\n\n"
        "_**Agent (model claude 2031-05-06 09:01Z)**_\n\nUpdated the checklist.\n\n---\n\n"
        "_**User (2031-05-06 09:05Z)**_\n\nlets move the retry logic into one shared helper"
        " that every client calls, instead of copying it around\n\n---\n\n"
        "_**Agent (model claude 2031-05-06 09:06Z)**_\n\nDone.\n\n---\n\n",
        encoding="utf-8",
    )
    prepared(repo, _DAY, "log", "--file", str(exported))
    dreamgit(repo, _NIGHT, "run", "--force")
    texts = [m["text"] for m in active(repo, _NIGHT, in_process=True)]
    assert "The user wants the agent to always bump the version before tagging." in texts, texts
    assert any(t.startswith("The user decided to move the retry logic") for t in texts), texts
    assert not any("tweak" in t for t in texts), texts


def test_a_rule_of_the_same_frame_with_another_object_is_no_repeat() -> None:
    """ "The deploy job should read the tag, never the branch" beside a memory that says
    it must read the commit hash from CI, never the branch: each has words the other lacks,
    so it is a rule of its own; the memory's rule said again is still a repeat."""
    known = [
        "The user wants the deploy job to always read the commit hash from CI, never the branch."
    ]

    def repeats(text: str) -> list[str]:
        found = extract_candidates(f"User: {text}\n", session_id="s-1", created=_WHEN)
        assert found and found[0].kind in ("instruction", "decision"), found
        return [c.text for c in compact(found, 10_000, known, min_novelty=0.32)[2]]

    assert repeats("The deploy job should read the tag, never the branch.") == []
    assert repeats("The deploy job must always read the commit hash from CI, never the branch.")
