"""Tests for dreamgit.extract.guards: what vetoes a merge, and the reasons it gives."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.extract.guards import _names, _names_differ, keys_compatible, may_merge, merge_allowed
from dreamgit.extract.signature import signature
from test_frame_corpus import _sentences


def refused(a: str, b: str) -> str:
    ok, reason = may_merge(a, b)
    assert not ok, f"expected a refusal: {a!r} / {b!r}"
    assert not may_merge(b, a)[0], "the guards must refuse both ways"
    return reason


def test_paraphrases_pass_every_guard() -> None:
    """Reordered words, case and punctuation leave nothing to veto."""
    assert may_merge(
        "Prefers pytest over unittest for Python tests.",
        "For Python tests, prefers pytest to unittest",
    ) == (True, "")


def test_negation_on_one_side_is_opposite_polarity() -> None:
    """A "not" in one text only is reported with the words that negate."""
    reason = refused("Prefers pytest for Python tests.", "Does not prefer pytest for Python tests.")
    assert reason == "opposite polarity: none vs not"


def test_negating_verbs_count_as_negations() -> None:
    """Stopped, avoids, dislikes and hates turn a fact around."""
    assert refused("Uses Docker Desktop.", "Stopped using Docker Desktop.") == (
        "opposite polarity: none vs Stopped"
    )
    assert not merge_allowed("Likes dark roast coffee", "Dislikes dark roast coffee")
    assert not merge_allowed("Enjoys pair programming", "Hates pair programming")


def test_two_negations_agree_with_each_other() -> None:
    """ "Never" and "does not" say the same thing."""
    assert merge_allowed("Never uses tabs in Go code.", "Does not use tabs in Go code.")


def test_neither_nor_is_one_negation() -> None:
    """ "Neither ... nor" negates once, like "does not ... or"."""
    assert merge_allowed("Speaks neither German nor French.", "Does not speak German or French.")


def test_an_antonym_on_one_side_is_opposite_polarity() -> None:
    """On and off, enabled and disabled cannot merge."""
    assert refused(
        "Turns notifications off during focus time", "Turns notifications on during focus time"
    ) == ("opposite polarity: off vs on")
    assert not merge_allowed(
        "Feature flags are enabled by default", "Feature flags are disabled by default"
    )


def test_reversed_comparison_is_opposite_direction() -> None:
    """ "X over Y" and "Y over X" say opposite things."""
    reason = refused(
        "Prefers pytest over unittest for Python tests.",
        "Prefers unittest over pytest for Python tests.",
    )
    assert reason == "opposite direction: pytest, unittest vs unittest, pytest"


def test_reversed_change_is_opposite_direction() -> None:
    """ "From X to Y" reversed, in either word order, is refused."""
    assert not merge_allowed("Switched from Flask to FastAPI", "Switched from FastAPI to Flask")
    assert not merge_allowed("Moved to Oslo from Berlin", "Moved to Berlin from Oslo")
    assert merge_allowed("Moved from Berlin to Oslo in 2020", "In 2020, moved to Oslo from Berlin")


def test_prefers_to_compares_like_over() -> None:
    """ "Prefers X to Y" is the reverse of "prefers Y over X"."""
    assert not merge_allowed("Prefers tabs to spaces", "Prefers spaces over tabs")


def test_different_numbers_are_named_in_the_reason() -> None:
    """Versions, counts and spelled numbers must agree."""
    assert refused("Runs Python 3.11 in CI", "Runs Python 3.12 in CI") == (
        "different numbers: 3.11 vs 3.12"
    )
    assert refused("Has two monitors", "Has three monitors") == "different numbers: two vs three"
    assert merge_allowed("Has two monitors", "Has 2 monitors")


def test_a_number_missing_on_one_side_is_a_difference() -> None:
    """A fact with a number does not merge with one without it."""
    assert refused("Keeps 3 browser windows open", "Keeps browser windows open") == (
        "different numbers: 3 vs none"
    )


def test_different_dates_and_times_are_refused() -> None:
    """Weekdays, months and clock times must agree."""
    assert refused("Standup is at 9:30am on Mondays", "Standup is at 9:30am on Tuesdays") == (
        "different dates or times: Mondays vs Tuesdays"
    )
    assert not merge_allowed("Vacation in May", "Vacation in June")
    assert not merge_allowed("Weekly sync at 3pm", "Weekly sync at 3am")
    assert not merge_allowed("Drinks coffee in the morning", "Drinks coffee in the evening")


def test_may_is_a_month_only_where_it_reads_as_one() -> None:
    """ "May 3" and "in May" are dates; "may" the verb is not."""
    assert not merge_allowed("Release on May 3", "Release on June 3")
    assert merge_allowed("Tests may fail on Windows", "tests may fail on windows")


def test_different_names_are_refused() -> None:
    """Capitalised names, identifiers and known tools must agree."""
    assert refused("The billing service uses Flask", "The billing service uses FastAPI") == (
        "different names: Flask vs FastAPI"
    )
    assert not merge_allowed("Formats Python code with ruff", "Formats Python code with black")
    assert not merge_allowed("Deploys atlas-api on merge", "Deploys orion-web on merge")


def test_a_different_first_word_name_is_refused() -> None:
    """A name that opens the sentence counts when the other text lacks it."""
    assert refused(
        "Priya reviews all schema migrations for billing.",
        "Marco reviews all schema migrations for billing.",
    ) == ("different names: Priya vs Marco")


def test_instructions_starting_with_a_verb_are_not_names() -> None:
    """ "Use" opening an instruction is not a name, though the other text lacks it."""
    assert merge_allowed("Use uv for Python installs.", "uv for Python installs")
    assert not merge_allowed("Priya uses uv for installs.", "uv for installs")


def test_generic_acronyms_are_not_names() -> None:
    """CI or PR is a kind of thing, not a proper noun."""
    assert merge_allowed(
        "Atlas runs CI on Jenkins in 12 minutes", "Atlas runs on Jenkins in 12 minutes"
    )


def test_a_word_swapped_in_place_is_refused() -> None:
    """One value put in the place of another is another fact."""
    assert (
        refused("Is allergic to kiwi", "Is allergic to lupin") == "different words: kiwi vs lupin"
    )
    assert not merge_allowed(
        "Plays the cello in a community orchestra.", "Plays the violin in a community orchestra."
    )


def test_forms_of_one_word_are_not_a_swap() -> None:
    """Allergy and allergic, play and player are forms of one word."""
    assert merge_allowed("Has an allergy to kiwi", "Has an allergic reaction to kiwi")


def test_two_edits_in_different_places_are_a_rewording() -> None:
    """An extra word here and another there is no in-place swap."""
    assert merge_allowed(
        "The atlas-api service listens on port 8080 in staging",
        "atlas-api listens on port 8080 in the staging environment",
    )


def test_different_keys_are_refused() -> None:
    """Memories with different key slots never merge."""
    assert may_merge("Uses 3.12", "Uses 3.12", key_a="python.version", key_b="node.version") == (
        False,
        "different keys: python.version vs node.version",
    )


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (None, None, True),
        ("python.version", None, True),
        (None, "python.version", True),
        ("python.version", " Python.Version ", True),
        ("python.version", "node.version", False),
        ("", "node.version", True),
    ],
)
def test_keys_are_compatible_when_equal_or_unset(
    a: str | None, b: str | None, expected: bool
) -> None:
    """An unset key matches anything; set keys must be equal (case and spaces aside)."""
    assert keys_compatible(a, b) is expected


def test_merge_allowed_agrees_with_may_merge() -> None:
    """The fast form gives the same verdict as the explained one."""
    pairs = [
        ("Uses vim", "Does not use vim"),
        ("Uses vim daily", "uses vim daily"),
        ("Port 8080", "Port 8081"),
    ]
    for a, b in pairs:
        assert merge_allowed(a, b) == may_merge(a, b)[0]


def test_a_shared_long_tail_does_not_join_different_subjects() -> None:
    """Two services with the same tool and the same long qualifier stay apart."""
    tail = "is tested with pytest unless the platform team says otherwise in writing."
    a, b = f"The billing api {tail}", f"The search worker {tail}"
    assert may_merge(a, b) == (
        False,
        "different subjects: the billing api vs the search worker",
    )


def test_a_shared_long_tail_does_not_join_different_relations() -> None:
    """Reporting errors to a store is not depending on it."""
    a = "atlas-worker reports errors to Sentry as agreed in the architecture review."
    b = "atlas-worker depends on Sentry as agreed in the architecture review."
    assert may_merge(a, b) == (False, "different relations: reports vs depends on")


def test_swapped_subject_and_object_are_different_facts() -> None:
    """A depends on B is not B depends on A."""
    assert not merge_allowed(
        "atlas-api depends on orion-worker unless told otherwise",
        "orion-worker depends on atlas-api unless told otherwise",
    )


def test_a_word_of_the_shared_tail_is_no_evidence_of_the_subject() -> None:
    """ "for platform" in one subject is not matched by "the platform runbook" in both tails."""
    assert not merge_allowed(
        "invoice-queue for platform caches responses in Sentry according to the platform runbook.",
        "invoice-queue caches responses in Sentry according to the platform runbook.",
    )


def test_different_objects_behind_one_verb_are_refused() -> None:
    """Calling one service is not calling another, however long the shared tail."""
    a = "The report queue calls the webhook frontend according to the platform runbook."
    b = "The report queue calls the search scheduler according to the platform runbook."
    assert may_merge(a, b) == (
        False,
        "different values: the webhook frontend according to the platform runbook vs "
        "the search scheduler according to the platform runbook",
    )


def test_paraphrases_of_one_subject_and_relation_still_merge() -> None:
    """A label, a fronted qualifier, a generic head noun or a copula's inversion: one fact."""
    assert merge_allowed(
        "Unless told otherwise, the billing api is tested with pytest.",
        "Note: The billing api is tested with pytest unless told otherwise",
    )
    assert merge_allowed(
        "The atlas-api service listens on port 8080 in staging.",
        "atlas-api listens on port 8080 in staging.",
    )
    assert merge_allowed(
        "Priya Raman is the tech lead for Atlas.", "The tech lead for Atlas is Priya Raman."
    )


def test_verbs_of_one_relation_group_are_one_relation() -> None:
    """Keeping data in a store is storing it there: a paraphrase, not another relation."""
    assert merge_allowed(
        "In Fennel Core, data is stored in Postgres 13.",
        "Fennel Core keeps its data in Postgres 13.",
    )


def _name_words_differ(a: str, b: str) -> tuple[bool, bool]:
    """The name check as the guards make it, and as the words the two texts hold say it."""
    sa, sb = signature(a), signature(b)
    in_a, in_b = _names(sa, sb)
    return _names_differ(sa, sb), in_a != in_b


def test_the_name_check_answers_as_the_name_words_do_over_a_corpus() -> None:
    """Over the sentences of a benchmark store and random ones, each beside its neighbour
    in sorted order (most share a template) and a random other, the name check made from
    each text's own sets refuses exactly the pairs whose name-like words differ."""
    sentences = sorted(_sentences())
    rng = random.Random(25)
    pairs = list(pairwise(sentences))
    pairs += [(s, rng.choice(sentences)) for s in sentences]
    answers = [_name_words_differ(a, b) for a, b in pairs]
    assert all(fast == slow for fast, slow in answers)
    assert {fast for fast, _slow in answers} == {True, False}


_NAME_PIECES = st.sampled_from(
    str.split(
        """Priya Marco priya marco The the Atlas atlas-api uses runs on for Python python v3
        CI api Note: Use not over Orion orion billing-service with 3 May"""
    )
)


@given(st.lists(_NAME_PIECES, min_size=1, max_size=8), st.lists(_NAME_PIECES, max_size=8))
def test_the_name_check_answers_as_the_name_words_do(first: list[str], second: list[str]) -> None:
    """Any two texts of names, openers, tools and words in either case: the same answer."""
    fast, slow = _name_words_differ(" ".join(first), " ".join(second))
    assert fast == slow


_WORDS = st.frozensets(st.sampled_from("abcdef"))


@given(_WORDS, _WORDS, _WORDS, _WORDS, _WORDS, _WORDS)
def test_the_name_check_holds_for_any_sets_of_names_openers_and_features(
    names_a: frozenset[str],
    openers_a: frozenset[str],
    features_a: frozenset[str],
    names_b: frozenset[str],
    openers_b: frozenset[str],
    features_b: frozenset[str],
) -> None:
    """Any names, openers and features, a name outside its own text's features included
    (which no text read so far has): the check refuses as the name words differ."""

    def made(names: frozenset[str], openers: frozenset[str], feats: frozenset[str]) -> Any:
        return replace(
            signature("x"),
            names=names,
            openers=openers,
            features=feats,
            present_names=feats & (names | openers),
            absent_names=names - feats,
        )

    sa, sb = made(names_a, openers_a, features_a), made(names_b, openers_b, features_b)
    in_a, in_b = _names(sa, sb)
    assert _names_differ(sa, sb) == (in_a != in_b)
