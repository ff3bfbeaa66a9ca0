"""What "never mind …" takes back, and a memory that opens with a modal verb.

"never mind the flag; we deploy with Helm" takes back the flag and says the rest, which
is kept; "Remember: will go with X." is the user's, so its memory names the user. Unit
cases on the extractor and one end-to-end run through the installed command (sentences
written for this test).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, active, dreamgit, initialized, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.not_facts import after_dismissal

WHEN = datetime(2031, 5, 6, 9, 0, tzinfo=UTC)


def _texts(text: str) -> list[str]:
    return [c.text for c in extract_candidates(text, session_id="s-1", created=WHEN)]


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("never mind the flag; we ship on Tuesdays.", "we ship on Tuesdays."),
        ("Never mind that, the queue runs on Redis.", "the queue runs on Redis."),
        ("Ok, nevermind.", ""),
        ("I never mind a long review.", "I never mind a long review."),
    ],
)
def test_never_mind_takes_back_only_what_it_names(sentence: str, said: str) -> None:
    assert after_dismissal(sentence) == said


def test_the_clauses_after_never_mind_are_read() -> None:
    """Nothing of the dismissal is an order; what follows it is the statement."""
    texts = _texts("User: never mind the banner; our docs site is built with Hugo.\n")
    assert texts == ["The user's docs site is built with Hugo."], texts


@pytest.mark.parametrize(
    ("said", "memory"),
    [
        ("Remember: will go with Caddy for the proxy.", "The user will go with Caddy"),
        ("Remember: should never tag releases by hand.", "The user should never tag releases"),
    ],
)
def test_a_memory_opening_with_a_modal_names_the_user(said: str, memory: str) -> None:
    texts = _texts(f"User: {said}\n")
    assert texts and texts[0].startswith(memory), texts


def test_a_person_named_like_a_modal_keeps_their_name() -> None:
    """ "Will lives in Leeds" is about Will, not "The user will lives"."""
    assert _texts("User: Remember: Will lives in Leeds now.\n") == ["Will lives in Leeds now."]


def test_never_mind_through_the_command(tmp_path: Path, templates: RepositoryTemplates) -> None:
    """The dream keeps what follows "never mind …" and no order to "never mind"."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2031-05-01T08:00:00Z")
    prepared(
        repo,
        "2031-05-06T09:00:00Z",
        "log",
        stdin="User: never mind the banner; our docs site is built with Hugo.\n"
        "Assistant: Understood.\n",
    )
    dreamgit(repo, "2031-05-07T08:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2031-05-07T08:00:00Z", in_process=True)]
    assert any("Hugo" in t for t in texts), texts
    assert not [t for t in texts if "mind" in t.lower()], texts
