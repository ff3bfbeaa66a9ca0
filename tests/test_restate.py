"""What a memory sentence states (``restate.as_fact``), and the texts it passes over.

A text holding none of the words the restatement patterns need is its own fact, told
without running the patterns: the property tests build texts out of those words, in any
case, and check that such a text is one the patterns leave as it is.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.consolidate.restate import _plain, _restated, as_fact


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Marco says the beta launch moved to 22 January",
            "Marco's beta launch moved to 22 January",
        ),
        (
            "THE USER SAYS the limit is 40",
            "The limit is 40",
        ),
        ("Ana and others moved to Lisbon", "Ana moved to Lisbon"),
        (
            "The team made the decision to rewrite the app in Flutter",
            "The team rewrites the app in Flutter",
        ),
        ("The launch got pushed to 15 February", "The launch moved to 15 February"),
        ("The company is migrating fully to GCP", "The company migrates fully to GCP"),
        ("The studio decided to drop the Switch version", "The studio quits the Switch version"),
        ("The API moved to port 6543 on the night of 4 March 2026", "The API moved to port 6543"),
        (
            "The favourite band is Arctic Monkeys as of 25 March 2025",
            "The favourite band is Arctic Monkeys",
        ),
        ("The report must ship by 12 May 2025", "The report must ship by 12 May 2025"),
        ("The user has 3 cats", "The user has 3 cats"),
    ],
)
def test_a_sentence_is_restated_as_the_fact_it_states(text: str, fact: str) -> None:
    """Remarks, groups, decisions, switches under way, pushed dates and days said."""
    assert as_fact(text) == fact


#: Pieces a text is built of: each pattern's phrases, and words of no pattern.
_PHRASES = [
    *("Marco says", "The user says that", "The agent says", "Ana and others"),
    *("made the decision to move", "took the decision to port", "decided to rewrite"),
    *("is now going to switch", "are planning to pivot", "decided to drop"),
    *("am going to drop", "is switching to", "are currently migrating fully over to"),
    *("got pushed to", "was postponed back to", "has been delayed to", "is rescheduled to"),
    *("just got moved to", "moved up to 5", "went down to 12", "bumped back to 4000"),
    *("raised to 3", "changed to 9", "switched to 7", "lowered to 1", "upgraded to 2"),
    *("increased to 8", "decreased to 6", "downgraded to 10", "on 4 March 2026"),
    *("since 12 May 2025", "as of 25 March 2025", "by 20 March 2025", "will", "must"),
    *("on the night of 4 March 2026", "the", "launch", "port", "team", ",", ";", "."),
    *("Größe", "\u017fays", "2026", "of", "by"),  # a long s: "says" in any case
]
_PIECES = st.sampled_from(_PHRASES)


def _cased(piece: str, how: int) -> str:
    return (piece, piece.upper(), piece.capitalize(), piece.lower())[how]


_TEXTS = st.lists(st.tuples(_PIECES, st.integers(0, 3)), max_size=8).map(
    lambda pieces: " ".join(_cased(p, how) for p, how in pieces)
)


@pytest.mark.parametrize("phrase", [p for p in _PHRASES if p[:1].isalpha()])
@pytest.mark.parametrize("how", range(4))
def test_each_phrase_a_pattern_reads_is_looked_at(phrase: str, how: int) -> None:
    """Each pattern's phrase, in each case, alone and in a sentence with a year: a text
    told plain is one the patterns leave as it is."""
    for text in (_cased(phrase, how), f"The launch {_cased(phrase, how)} on 9 May 2026"):
        assert as_fact(text) == _restated(text)


@given(_TEXTS)
def test_a_text_passed_over_is_one_the_patterns_leave_as_it_is(text: str) -> None:
    """A text told plain (none of the words a pattern needs) comes out of the patterns
    unchanged: passing over it changes no answer."""
    if _plain(text):
        assert _restated(text) == text
    assert as_fact(text) == _restated(text)


@given(st.text(max_size=60))
def test_any_text_is_restated_as_the_patterns_restate_it(text: str) -> None:
    """Any text at all: the same fact with and without the words looked for first."""
    assert as_fact(text) == _restated(text)
