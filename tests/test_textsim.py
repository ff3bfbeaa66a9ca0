"""Tests for dreamgit.textsim: normalisation, features and the similarity measure."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.textsim import NOT, features, jaccard, similarity, tokenize


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text) if not t.stop]


def test_identical_texts_are_fully_similar() -> None:
    """A text is similar 1.0 to itself."""
    text = "Prefers pytest over unittest for Python tests."
    assert similarity(text, text) == 1.0


def test_reordered_words_case_and_punctuation_do_not_lower_similarity() -> None:
    """Word order, case and punctuation are normalised away."""
    a = "Prefers pytest over unittest for Python tests."
    b = "for python tests, PREFERS pytest to unittest"
    assert similarity(a, b) == 1.0


def test_inflections_fold_to_one_feature() -> None:
    """Prefers, preferred and preferring share a feature; so do lives and living."""
    assert features("prefers") == features("preferred") == features("preferring")
    assert features("lives") == features("living") == features("lived")
    assert features("libraries") == features("library")


def test_stop_words_and_the_word_user_carry_no_content() -> None:
    """Function words and "the user" are not features."""
    assert features("The user prefers dark mode.") == features("Prefers dark mode")


def test_unrelated_facts_score_low() -> None:
    """Two facts about different things share little."""
    assert similarity("Lives in Lisbon with two cats.", "Prefers pytest over unittest.") < 0.2


def test_one_extra_word_scores_above_one_swapped_word() -> None:
    """An added word costs less than a replaced one."""
    base = "Deploys the billing service on Fridays after lunch"
    added = similarity(base, base + " quickly")
    swapped = similarity(base, base.replace("lunch", "standup"))
    assert added > swapped


def test_negation_becomes_one_feature_that_lowers_similarity() -> None:
    """Not, never, no longer and n't all become the NOT feature."""
    for text in ("Does not use vim", "Never uses vim", "No longer uses vim", "Doesn't use vim"):
        assert NOT in features(text), text
    assert similarity("Uses vim", "Doesn't use vim") < 1.0


def test_note_is_not_mistaken_for_a_negation() -> None:
    """The stem of "note" is not the negation feature."""
    assert NOT not in features("Takes notes in Obsidian")


def test_spelled_numbers_become_digits() -> None:
    """Two, twenty-five and two hundred are numbers like 2, 25 and 200."""
    assert "2" in norms("has two monitors")
    assert "25" in norms("has twenty-five open issues")
    assert "25" in norms("has twenty five open issues")
    assert "200" in norms("about two hundred users")
    assert "1200" in norms("costs 1,200 a month")


def test_versions_keep_their_digits() -> None:
    """3.11 and v3.11 are the same version; 3.10 is not 3.1."""
    assert features("Python 3.11") == features("python v3.11")
    assert features("Python 3.10") != features("Python 3.1")


def test_times_are_read_on_a_24_hour_clock() -> None:
    """9:30 a.m., 9:30am and 09:30 agree; 3pm is 15:00."""
    assert "09:30" in norms("at 9:30 a.m.")
    assert "09:30" in norms("at 9:30am")
    assert "15:00" in norms("after 3pm")
    assert "15:00" in norms("after 3 pm")


def test_currency_and_percent_become_unit_words() -> None:
    """$500 reads like 500 dollars, 80% like 80 percent."""
    assert features("$500 a month") == features("500 dollars a month")
    assert features("80% coverage") == features("80 percent coverage")


def test_a_label_before_the_fact_is_ignored() -> None:
    """Note:, Update: and Reminder: add nothing."""
    assert features("Reminder: standup is at 9:30am") == features("Standup is at 9:30am")
    assert features("Update: uses uv") == features("uses uv")


def test_aliases_fold_to_one_name() -> None:
    """PostgreSQL and Postgres, JS and JavaScript are one name each."""
    assert features("Uses PostgreSQL") == features("uses Postgres")
    assert features("Writes JS") == features("writes JavaScript")


def test_non_ascii_words_stay_whole() -> None:
    """Accented names are single words."""
    assert {"são", "paulo", "kraków"} <= features("Moved from São Paulo to Kraków")


def test_texts_without_content_words_match_only_themselves() -> None:
    """Stop-word-only texts are similar when their words are the same."""
    assert similarity("Yes.", "yes") == 1.0
    assert similarity("Yes.", "It is.") == 0.0
    assert similarity("", "Uses vim") == 0.0


def test_jaccard_of_sets() -> None:
    """Jaccard is intersection over union, 1.0 for two empty collections."""
    assert jaccard(["a", "b"], ["b", "c"]) == 1 / 3
    assert jaccard([], []) == 1.0
    assert jaccard(["a"], ["b"]) == 0.0


@given(st.text(max_size=80), st.text(max_size=80))
def test_similarity_is_bounded_and_symmetric(a: str, b: str) -> None:
    """Any two strings give a score in [0, 1], the same both ways."""
    score = similarity(a, b)
    assert 0.0 <= score <= 1.0
    assert score == similarity(b, a)
