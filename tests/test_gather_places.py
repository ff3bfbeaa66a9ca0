"""Places typed in lower case: a known place sets its key; common words stay words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather import places
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.places import with_known_places

WHEN = datetime(2031, 5, 6, 9, 30, tzinfo=UTC)


def _found(text: str) -> list[tuple[str, str | None]]:
    return [(c.text, c.key) for c in extract_candidates(text, session_id="s-1", created=WHEN)]


@pytest.mark.parametrize(
    ("said", "memory", "key"),
    [
        ("i moved to madrid", "The user lives in Madrid (moved there).", "user.home"),
        ("i live in lisbon now", "The user lives in Lisbon.", "user.home"),
        ("i'm based in leipzig", "The user lives in Leipzig.", "user.home"),
        ("i moved to lodz", "The user lives in Łódź (moved there).", "user.home"),
        ("i'm from sao paulo", "The user is from São Paulo.", "user.origin"),
        (
            "i moved from porto to berlin last year",
            "The user lives in Berlin (moved there from Porto).",
            "user.home",
        ),
    ],
)
def test_a_known_place_in_lower_case_sets_its_key(said: str, memory: str, key: str) -> None:
    """Written as the gazetteer spells it, with the key a newer place supersedes."""
    assert _found(said) == [(memory, key)]


@pytest.mark.parametrize(
    "said",
    [
        "i moved to a new flat",
        "i live in nice weather these days",
        "i moved into the spare room",
        "i'm from work, back in an hour",
        "we live in interesting times",
    ],
)
def test_common_words_after_in_or_to_are_no_place(said: str) -> None:
    """Words that are no place, or a town's name followed by more of a phrase, set no key."""
    assert all(key is None for _, key in _found(said))


def test_places_already_capitalised_and_other_text_are_left_as_they_were() -> None:
    """Only lower-case words after "to", "in", "into" or "from" are looked up."""
    assert with_known_places("I moved to Madrid") == "I moved to Madrid"
    assert with_known_places("add it to the list") == "add it to the list"
    assert with_known_places("i drove from porto to faro") == "i drove from Porto to faro"


def test_the_gazetteer_is_read_only_for_a_clause_that_may_name_a_home() -> None:
    """Lower-case chat about other things never pays for reading GeoNames."""
    places._gazetteer.cache_clear()
    _found("i went to the store with my sister and then to the gym")
    assert places._gazetteer.cache_info().misses == 0
    _found("i moved to madrid")
    assert places._gazetteer.cache_info().misses == 1
