"""How the project must be: specifications an agent's user lays down inside requests."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.momentary import momentary
from dreamgit.dream.gather.specs import choice, invariant_order, spec, without_note

_WHEN = datetime(2031, 4, 2, 9, 0, tzinfo=UTC)
_DAY = "2031-04-02T10:00:00Z"
_NIGHT = "2031-04-02T23:00:00Z"


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
    assert not invariant_order("make sure all the edits are committed, then merge main in")
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


def test_lets_use_is_a_decision_and_lets_add_a_task() -> None:
    assert choice("lets go with Postgres for the job queue") == "go with Postgres for the job queue"
    assert choice("let's add a flag for the dry run") is None
    found = _texts(
        "User: lets go with Postgres for the job queue. lets add a flag for the dry run.\n\n"
        "Assistant: ok\n"
    )
    assert found == [("decision", "The user decided to go with Postgres for the job queue.")]


def test_a_choice_said_after_what_it_is_for_is_a_decision_for_that() -> None:
    """ "for the X, let's use Y" makes the choice for X; a hedge after it is not part of
    it, and a task said after a frame stays a task."""
    assert choice("for the audit log, lets use append-only files, unless you object") == (
        "use append-only files for the audit log"
    )
    assert choice("for the release, lets add a flag") is None
    found = _texts(
        "User: For the audit log, let's go with append-only files, unless you see a problem."
        "\n\nAssistant: ok\n"
    )
    assert found == [
        ("decision", "The user decided to go with append-only files for the audit log.")
    ]


def test_a_choice_for_another_case_is_kept_with_it() -> None:
    """ "for X, let's use Y, and if C, use Z" is one decision with its other case; the
    hedge after it is not part of it, and no "and" is left dangling."""
    assert (
        choice(
            'for the cache key, lets use the tenant id, and if it is empty, use "anon" for the '
            "tenant perhaps, unless you have a better idea"
        )
        == 'use the tenant id for the cache key, and if it is empty, use "anon" for the tenant'
    )
    assert choice("for the cache key, lets use the tenant id, and if it is empty fall back") == (
        "use the tenant id for the cache key"
    )


def test_an_order_to_update_keeps_its_verb_and_stays_a_task() -> None:
    """ "update the changelog …" was read as news opened by "Update" and kept as a fact
    about the changelog; it is a task of the moment."""
    assert _texts("User: update the changelog with the new flags.\n\nAssistant: ok\n") == []


def test_news_opened_by_update_keeps_the_news() -> None:
    found = _texts("User: Update: we moved the staging cluster to Frankfurt.\n\nAssistant: ok\n")
    assert any("Frankfurt" in text for _, text in found)


def test_a_question_typed_without_its_mark_is_not_a_statement() -> None:
    said = "User: did you rebuild the search index after the import\n\nAssistant: no\n"
    assert _texts(said) == []


def test_a_code_line_pasted_with_its_number_is_code() -> None:
    assert momentary("42 | // the id looks like #123, so match it") == "code"


def test_a_dream_keeps_the_specs_of_a_cursor_session_and_leaves_its_tasks(
    tmp_path: Path,
) -> None:
    """End to end with the installed command: a SpecStory export logged and dreamt keeps
    how the project must be and what was chosen, and none of the tasks asked for."""
    repo = tmp_path / "mem"
    prepared(repo, _DAY, "init", str(repo))
    exported = tmp_path / "2031-04-02_09-00-exporter.md"
    exported.write_text(
        "<!-- Generated by SpecStory -->\n\n# Exporter (2031-04-02 09:00Z)\n\n"
        "_**User (2031-04-02 09:00Z)**_\n\nadd a csv exporter to the vault tool. each"
        " exporter should live in its own folder under plugins. make sure the exporter"
        " never writes outside the output folder.\n\n---\n\n"
        "_**Agent (model claude 2031-04-02 09:01Z)**_\n\nAdded the exporter.\n\n---\n\n"
        "_**User (2031-04-02 09:05Z)**_\n\nlets go with Parquet for the archive format."
        " update the changelog with the new exporter.\n\n---\n\n"
        "_**Agent (model claude 2031-04-02 09:06Z)**_\n\nDone.\n\n---\n\n",
        encoding="utf-8",
    )
    prepared(repo, _DAY, "log", "--file", str(exported))
    dreamgit(repo, _NIGHT, "run", "--force")
    texts = [m["text"] for m in active(repo, _NIGHT, in_process=True)]
    assert any("own folder under plugins" in t for t in texts), texts
    assert any("never writes outside the output folder" in t for t in texts), texts
    assert any(t.startswith("The user decided to go with Parquet") for t in texts), texts
    assert not any("csv exporter" in t or "changelog" in t for t in texts), texts
