"""A sentence that only adds an item to what the sentence before listed is read with it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.list_items import more_of_a_list

_WHEN = datetime(2031, 5, 7, 9, 0, tzinfo=UTC)


def _texts(transcript: str) -> list[str]:
    found = extract_candidates(transcript, session_id="s-20310507-a1b2c3", created=_WHEN)
    return [c.text for c in found]


@pytest.mark.parametrize(
    "sentence",
    [
        "and a total that sums them.",
        "plus an export option for the whole album",
        "and a dark mode toggle, like the old one",
    ],
)
def test_an_article_and_a_noun_after_and_is_one_more_item(sentence: str) -> None:
    assert more_of_a_list(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "and a friend told me about a template",  # the speaker: a statement of its own
        "and a new test should cover the parser",  # a verb of its own
        "and the total sums them",  # no article of an item
        "a total that sums them",  # no coordinator
    ],
)
def test_a_sentence_with_a_verb_or_a_voice_of_its_own_is_no_item(sentence: str) -> None:
    assert not more_of_a_list(sentence)


def test_an_item_joins_the_statement_before_and_is_no_fragment_alone() -> None:
    texts = _texts(
        "User: the weekly report lists each open invoice. and a total that sums them.\n\n"
        "Assistant: ok\n"
    )
    assert texts == [
        "The user says the weekly report lists each open invoice, and a total that sums them."
    ]


def test_an_item_with_nothing_before_it_leaves_nothing() -> None:
    assert _texts("User: and a download option for the whole album.\n\nAssistant: ok\n") == []


def test_the_look_alike_with_a_verb_stays_its_own_statement() -> None:
    texts = _texts(
        "User: the weekly report lists each open invoice. and a friend told me about a"
        " template.\n\nAssistant: ok\n"
    )
    assert "A friend told the user about a template." in texts, texts
