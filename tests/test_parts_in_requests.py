"""What a request says the project is, or what a named part of it does, is the user's
statement (dream/gather/parts_in_requests.py).

A relative clause whose antecedent is a named part ("a `sync` command that …", "a rule
called lint.mdc, which …"), a purpose clause after a request to change a part ("update
the deploy command to …") and a request to set a project up that names it are lifted by
their structure and read like any other statement; the request around them stays a task.
A clause about the people ("that you can call"), a part without a name ("fix the bug that
…") and a sentence that names no part lift nothing. End to end, through the installed
command, the lifted statements become memories.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.parts_in_requests import parts_in_request


@pytest.mark.parametrize(
    ("sentence", "lifted"),
    [
        # a subject relative: the part does what the clause says
        (
            "create a task to add a `db reset` command that drops every table and then "
            "reseeds them",
            ["The db reset command should drop every table."],
        ),
        # the part nearest the clause is its antecedent
        (
            "add a cli command called sync with a subcommand pull, which downloads the "
            "bundle to a cache dir in $XDG_CACHE_HOME.",
            ["The pull subcommand should download the bundle to a cache dir in $XDG_CACHE_HOME."],
        ),
        # of a list of steps, the first; a second verb with its object is written like it
        (
            "add a `sync` command that enters the vault if needed, pulls, pushes",
            ["The sync command should enter the vault if needed."],
        ),
        (
            "add a `wipe` command which deletes the cache and removes the lock file",
            ["The wipe command should delete the cache and remove the lock file."],
        ),
        # "…, or …" is one choice, not the next step of a list
        (
            "add a `log` command that prints the history of the current branch, or of a "
            "named branch if one is given",
            [
                "The log command should print the history of the current branch, or of a "
                "named branch if one is given."
            ],
        ),
        # a modal already says how the part is to be
        (
            "add a `dump` command that will write every table to its own file",
            ["The dump command will write every table to its own file."],
        ),
        # a clause with a subject of its own says what the part is for
        (
            "write a linter rule called `no-print.mdc` that other teams can add to their "
            "repos to catch stray prints.",
            [
                "The no-print.mdc linter rule is one that other teams can add to their repos "
                "to catch stray prints."
            ],
        ),
        # a purpose clause after a change to a part: how it must be from now on
        (
            "update the deploy command to optionally take a region instead of a cluster "
            "name, and then show me the plan.",
            ["The deploy command should optionally take a region instead of a cluster name."],
        ),
        (
            "make the export function write one file per table",
            ["The export function should write one file per table."],
        ),
        # setting a project up names what it is
        (
            "initialize a rust project for a web server called harbor",
            ["The project is harbor, a rust project for a web server."],
        ),
    ],
)
def test_what_a_request_says_of_a_named_part_is_lifted(sentence: str, lifted: list[str]) -> None:
    assert [part.text for part in parts_in_request(sentence)] == lifted


@pytest.mark.parametrize(
    "sentence",
    [
        "add a function that you can call from the tests",  # about the people, not the part
        "fix the bug that crashes the app on start",  # no part noun, no name
        "add a command that prints the version",  # a part without a name
        "update the changelog, then push",  # no purpose clause
        "make the tests pass",  # not a part of the project
        "update the release guide to describe this process",  # points at the session
    ],
)
def test_a_request_that_names_no_part_lifts_nothing(sentence: str) -> None:
    assert parts_in_request(sentence) == []


def _texts(transcript: str) -> list[tuple[str, str]]:
    found = extract_candidates(
        transcript, session_id="s-1", created=datetime(2025, 3, 5, tzinfo=UTC)
    )
    return [(c.kind, c.text) for c in found]


def test_a_lifted_part_is_the_users_statement_and_the_request_is_not() -> None:
    """What the named part does, said while asking for it, is the user's specification of
    the project: what it should do."""
    found = _texts(
        "User: create a task to add a `db reset` command that drops every table and then "
        "reseeds them\nAssistant: I will add the task.\n"
    )
    assert found == [("instruction", "The user says the db reset command should drop every table.")]


def test_a_purpose_clause_after_a_change_to_a_part_is_a_rule() -> None:
    found = _texts(
        "User: update the deploy command to optionally take a region instead of a cluster "
        "name, and then show me the plan.\nAssistant: On it.\n"
    )
    assert found == [
        (
            "instruction",
            "The user says the deploy command should optionally take a region instead of a "
            "cluster name.",
        )
    ]


def test_neither_nor_opens_a_statement_not_an_order() -> None:
    """ "neither X nor Y …" said to an agent is how the project works, not a task."""
    found = _texts(
        "User: neither the region nor the cluster name need to be given if there's a "
        "default profile\nAssistant: Noted.\n"
    )
    assert [text for _, text in found] == [
        "The user says neither the region nor the cluster name need to be given if "
        "there's a default profile."
    ]


@pytest.mark.slow
def test_what_requests_say_of_the_project_is_kept_by_a_dream(tmp_path: Path) -> None:
    """Through the installed command: each lifted statement is one active memory, and
    none of the requests is."""
    repo = tmp_path / "mem"
    prepared(repo, "2025-03-01T09:00:00Z", "init", str(repo))
    session = (
        "User: initialize a rust project for a web server called harbor\n"
        "Assistant: Project created.\n"
        "User: add a cli command called sync with a subcommand pull, which downloads the "
        "bundle to a cache dir in $XDG_CACHE_HOME.\n"
        "Assistant: Added the command.\n"
        "User: update the status command to print json when its output is piped, "
        "and then commit it.\n"
        "Assistant: Done.\n"
    )
    prepared(repo, "2025-03-05T10:00:00Z", "log", stdin=session)
    dreamgit(repo, "2025-03-05T11:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2025-03-06T09:00:00Z")]
    for said in ("harbor, a rust project", "XDG_CACHE_HOME", "print json when"):
        assert len([t for t in texts if said in t]) == 1, texts
    assert not [t for t in texts if "commit it" in t or "initialize" in t], texts
