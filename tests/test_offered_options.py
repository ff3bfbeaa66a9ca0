"""A pick by place among the options the turn before listed (dream/gather/offered_options.py)."""

from __future__ import annotations

import pytest

from dreamgit.dream.gather.offered_options import chosen, offered

LISTED = [
    "Here are a few options:",
    "**Caddy** — automatic certificates, one binary.",
    "**Traefik** — reads container labels.",
    "Nginx: the most documented, more to configure.",
    "Pick whichever suits you.",
]


def test_options_are_the_items_that_open_with_a_name() -> None:
    """Bold names, and names before a dash or a colon, in one run of items."""
    assert offered(LISTED) == ("Caddy", "Traefik", "Nginx")
    assert offered(["Caddy is simple.", "Traefik reads labels."]) == ()


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Let's go with the second one, can you set it up?", "I'll go with Traefik, can you"),
        ("OK, I'll take option 1.", "I'll go with Caddy."),
        ("Great, let's go with the last one.", "I'll go with Nginx."),
        ("Yes, let's do option 3, can you set it up?", "I'll go with Nginx, can you"),
        ("The second one sounds good, can you set it up?", "I'll go with Traefik, can you"),
        ("Option 1, please, and show me the config.", "I'll go with Caddy."),
        ("Yeah, the last one it is.", "I'll go with Nginx."),
    ],
)
def test_a_pick_by_place_names_the_option(said: str, meant: str) -> None:
    """ "The second one", "option 1", "the last one": the option at that place."""
    got = chosen(said, offered(LISTED))
    assert got is not None and got.startswith(meant)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Traefik sounds good, can you set it up?", "I'll go with Traefik, can you set it up?"),
        ("OK, caddy it is.", "I'll go with Caddy."),
        ("Sure, Nginx please, and show me the config.", "I'll go with Nginx."),
    ],
)
def test_an_option_said_back_as_taken_is_the_pick(said: str, meant: str) -> None:
    """ "Traefik sounds good", "Caddy it is": a name of the list, said back as the one taken."""
    assert chosen(said, offered(LISTED)) == meant


@pytest.mark.parametrize(
    "said",
    [
        "Kubernetes sounds good, can you set it up?",  # not on the list
        "Traefik looks odd to me.",  # named, but not taken
        "Let's go with the fifth one.",  # past the list
        "I'll go with Caddy for now.",  # named, not picked by place
        "The second one looks odd to me.",  # no choice said
    ],
)
def test_no_pick_by_place_changes_nothing(said: str) -> None:
    """Past the list, a name said outright, or no choice: None, the sentence as it was."""
    assert chosen(said, offered(LISTED)) is None
