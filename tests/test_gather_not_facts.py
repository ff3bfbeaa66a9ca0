"""What states nothing: a hedge and a "that" clause cut from its sentence are no facts."""

from __future__ import annotations

import pytest

from dreamgit.dream.gather.not_facts import states_nothing


@pytest.mark.parametrize(
    "clause",
    [
        "That I can easily wipe the sample rows later",
        "so that we can swap the theme without a rebuild",
        "In the future perhaps we will add more export formats",
    ],
)
@pytest.mark.parametrize("to_agent", [True, False])
def test_a_cut_that_clause_or_a_hedge_states_nothing(clause: str, to_agent: bool) -> None:
    """A "that" clause alone is what a request was for; "perhaps" makes it a guess."""
    assert states_nothing(clause, to_agent=to_agent)


@pytest.mark.parametrize(
    "clause",
    [
        "That café on the corner closes at six",
        "We export the invoices as CSV every Friday",
    ],
)
def test_a_demonstrative_that_or_a_plain_fact_states_something(clause: str) -> None:
    """ "That café …" names a thing; it is not a clause cut from a sentence."""
    assert not states_nothing(clause, to_agent=True)


def test_a_contrast_whose_it_is_the_thing_named_before_states_something() -> None:
    """ "… to open a ticket, not work on it": the "it" is the ticket, named in the clause;
    "working on it" alone says nothing."""
    assert not states_nothing("I only wanted you to open a ticket, not work on it", to_agent=True)
    assert states_nothing("I'm working on it", to_agent=True)
    assert states_nothing("I really love it", to_agent=False)
