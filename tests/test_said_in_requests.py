"""What a request asks to be written as true is the user's statement
(dream/gather/said_in_requests.py).

The clause after "explaining that", "mention that", "saying that" inside a request is
lifted by its structure and read like any other statement; a report of the session's own
work ("explain that it failed", "mention that you fixed it") and a sentence that asks
for nothing are left alone. End to end, through the installed command, the lifted
statement becomes a memory and the request around it does not.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.said_in_requests import said_in_request


@pytest.mark.parametrize(
    ("sentence", "lifted"),
    [
        (
            "write a short README explaining that the harness runs nightly on the build farm.",
            ["The harness runs nightly on the build farm."],
        ),
        (
            "also lets be sure to mention that code reviewers skim long docs, so keep them short.",
            ["Code reviewers skim long docs."],
        ),
        (
            "add a note to the guide saying that releases go out every Friday afternoon, "
            "and then commit it",
            ["Releases go out every Friday afternoon."],
        ),
        (
            "Can you document that the staging database runs on port 5433?",
            ["The staging database runs on port 5433."],
        ),
        # a subject written as code is a name: kept as written, without its marks
        (
            "Can you document that `pgbouncer` sits in front of the primary database?",
            ["pgbouncer sits in front of the primary database."],
        ),
    ],
)
def test_what_a_request_asks_to_write_as_true_is_lifted(sentence: str, lifted: list[str]) -> None:
    assert said_in_request(sentence) == lifted


@pytest.mark.parametrize(
    "sentence",
    [
        "explain that it failed because the cache was stale",  # this session's work
        "mention that you fixed the flaky login test",  # the agent's report
        "The docs explain that the parser is slow.",  # no request
        "write a summary saying that is fine",  # no subject of its own
        "note that down",  # no clause
    ],
)
def test_a_report_of_the_session_or_no_request_lifts_nothing(sentence: str) -> None:
    assert said_in_request(sentence) == []


def test_a_lifted_assertion_becomes_the_users_statement_and_the_request_does_not() -> None:
    """The request is a task of the moment; what it asserts is kept, once."""
    found = extract_candidates(
        "User: write a short README explaining that the harness runs nightly on the build farm.",
        session_id="s-1",
        created=datetime(2025, 3, 5, tzinfo=UTC),
    )
    texts = [c.text for c in found]
    assert len([t for t in texts if "build farm" in t]) == 1, texts
    assert not [t for t in texts if "README" in t], texts


@pytest.mark.slow
def test_an_assertion_inside_a_request_is_kept_by_a_dream(tmp_path: Path) -> None:
    """Through the installed command: the asserted clause is an active memory."""
    repo = tmp_path / "mem"
    prepared(repo, "2025-03-01T09:00:00Z", "init", str(repo))
    session = (
        "User: add a section to the contributing guide saying that every release is "
        "tagged from the main branch by the release bot.\nAssistant: Done, section added.\n"
    )
    prepared(repo, "2025-03-05T10:00:00Z", "log", stdin=session)
    dreamgit(repo, "2025-03-05T11:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2025-03-06T09:00:00Z")]
    assert len([t for t in texts if "release bot" in t]) == 1, texts
