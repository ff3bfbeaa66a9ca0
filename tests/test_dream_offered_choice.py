"""A choice the user confirms among options the assistant offered is the user's decision.

Through the installed command: the assistant lists three reverse proxies, the user answers
"Let's go with the second one, …": the dream keeps that the user will go with the second
one, by name; so does "the second one sounds good" or "Traefik it is". The same answer with
no list before it names nothing and keeps nothing of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit

OFFERED = (
    "User: Which reverse proxy should I put in front of the billing service?\n\n"
    "Assistant: A few options:\n\n"
    "1. **Caddy** — automatic certificates, one binary.\n"
    "2. **Traefik** — reads container labels.\n"
    "3. **Nginx** — the most documented, more to configure.\n\n"
    "User: Let's go with the second one, can you show me the labels for the billing "
    "service?\n\n"
    "Assistant: Sure, here are the labels.\n"
)
NOT_OFFERED = (
    "User: Which reverse proxy should I put in front of the billing service?\n\n"
    "Assistant: It depends on how you deploy it.\n\n"
    "User: Let's go with the second one, can you show me the labels?\n\n"
    "Assistant: Which one do you mean?\n"
)


def _dreamt(repo: Path, session: str) -> list[str]:
    dreamgit(repo, "2026-03-02T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-03-02T10:00:00Z", "log", stdin=session)
    dreamgit(repo, "2026-03-03T09:00:00Z", "run", "--force")
    return [m["text"] for m in active(repo, "2026-03-03T09:00:00Z")]


@pytest.mark.slow
def test_a_pick_among_offered_options_is_kept_by_name(tmp_path: Path) -> None:
    """ "Let's go with the second one" after a list of three: Traefik, by name."""
    texts = _dreamt(tmp_path / "mem", OFFERED)
    assert [t for t in texts if "Traefik" in t]
    assert not [t for t in texts if "Caddy" in t or "Nginx" in t]


@pytest.mark.slow
def test_a_pick_with_nothing_offered_keeps_nothing_of_it(tmp_path: Path) -> None:
    """No list before it: "the second one" names nothing, no memory says it."""
    texts = _dreamt(tmp_path / "mem", NOT_OFFERED)
    assert not [t for t in texts if "second" in t or "go with" in t]


def _offered_then(pick: str) -> str:
    """The three proxies offered, then the user's ``pick``."""
    return OFFERED.split("User: Let's go")[0] + f"User: {pick}\n\nAssistant: Sure.\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "pick",
    [
        "The second one sounds good, can you show me the labels for the billing service?",
        "Traefik it is, and show me the labels for the billing service.",
    ],
)
def test_an_option_said_back_as_taken_is_kept_by_name(tmp_path: Path, pick: str) -> None:
    """ "The second one sounds good", "Traefik it is": the user's decision, Traefik."""
    texts = _dreamt(tmp_path / "mem", _offered_then(pick))
    assert [t for t in texts if "go with Traefik" in t], texts
    assert not [t for t in texts if "Caddy" in t or "Nginx" in t or "labels" in t], texts


@pytest.mark.slow
def test_an_option_named_but_not_taken_keeps_no_choice(tmp_path: Path) -> None:
    """ "Traefik looks odd to me": named, not chosen; no memory says the user went with it."""
    texts = _dreamt(tmp_path / "mem", _offered_then("Traefik looks odd to me, why is it listed?"))
    assert not [t for t in texts if "go with" in t], texts
