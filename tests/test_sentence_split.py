"""A sentence cut into clauses, and which stay joined (dream/gather/sentence_split.py)."""

from __future__ import annotations

from dreamgit.dream.gather.sentence_split import rejoined


def test_an_amount_without_its_noun_stays_with_the_clause_that_names_it() -> None:
    """ "…, and I've currently reached 70% after …": the clause before says what is at 70%."""
    sentence = (
        "I'm trying to reach 90% branch coverage on my parser module, and I've currently "
        "reached 70% after my first test run."
    )
    assert rejoined(sentence) == [sentence]


def test_an_amount_with_a_noun_of_its_own_is_its_own_clause() -> None:
    """ "… reached 70 users after launch" names what it counts: a clause of its own."""
    sentence = (
        "I'm trying to reach 90% branch coverage on my parser module, and I've currently "
        "reached 70 users after launch."
    )
    assert rejoined(sentence) == [
        "I'm trying to reach 90% branch coverage on my parser module",
        "I've currently reached 70 users after launch.",
    ]


def test_an_amount_after_a_clause_that_counts_nothing_is_its_own_clause() -> None:
    """Nothing counted before it: no thing to lend, the clauses stay apart."""
    sentence = "I'm rewriting my parser module this week, and I've currently reached 70%."
    assert len(rejoined(sentence)) == 2
