"""A memory sentence read as subject, relation and value (extract/frame.py)."""

from __future__ import annotations

import pytest

from dreamgit.extract.frame import parse_frame


def _read(text: str) -> tuple[list[str], str, list[str]]:
    frame = parse_frame(text)
    assert frame is not None, text
    return sorted(frame.subject), frame.relation, sorted(frame.object)


@pytest.mark.parametrize(
    ("text", "subject", "relation"),
    [
        ("The user's team is on Python 3.11.", ["team", "user"], "be on"),
        (
            "Caroline's grandmother gave her a necklace from Sweden.",
            ["carolin", "grandmother"],
            "giv",
        ),
        ("Prefers pytest over unittest for Python tests.", ["user"], "prefer"),
        ("For Python tests, I prefer pytest to unittest.", ["user"], "prefer"),
        ("billing-api is tested with pytest unless told otherwise", ["billingapi"], "test with"),
        ("The user's beta launch moved to 22 January 2026.", ["beta", "launch", "user"], "mov to"),
        ("The session frontend caches responses in S3.", ["frontend", "session"], "cach"),
        ("Priya Raman no longer works at Stripe.", ["priya", "raman"], "work at"),
        # a verb the word lists do not know, after an adverb of the verb group
        ("The user only secured 2 panel slots.", ["user"], "secur"),
        # a connective before the sentence says nothing of its subject
        ("However, given the 800 daily export limit, the user batches them.", ["user"], "giv"),
        # a bare verb form between nouns of one phrase is one of them: "grant report deadline"
        (
            "The grant report deadline moved to 20 March.",
            ["deadlin", "grant", "report"],
            "mov to",
        ),
        ("The code review meeting is at 3pm.", ["cod", "meet", "review"], "be at"),
        # after a plural noun it is the verb, and so it is when no other verb follows
        ("The users report bugs every week.", ["user"], "report"),
        ("My team prefer tabs for indentation.", ["team"], "prefer"),
    ],
)
def test_subject_and_relation_of_a_sentence(text: str, subject: list[str], relation: str) -> None:
    """The subject is what comes before the verb group, the user when the verb opens it."""
    got_subject, got_relation, _ = _read(text)
    assert (got_subject, got_relation) == (subject, relation)


def test_a_correction_keeps_its_rejected_value_apart() -> None:
    """ "3.11, not 3.12": 3.11 is the value, 3.12 what it replaced."""
    frame = parse_frame("The user's team is on Python 3.11, not 3.12.")
    assert frame is not None
    assert frame.numbers == {"3.11", "3.12"} and frame.rejected == {"3.12"}


def test_change_event_and_instance_flags() -> None:
    """A change verb or "no longer" is a change; a past action an event; "a ..." an instance."""
    moved = parse_frame("The user's beta launch moved to 22 January 2026.")
    went = parse_frame("Caroline went to a poetry reading on 5 May 2023.")
    longer = parse_frame("Priya Raman no longer works at Stripe.")
    assert moved is not None and moved.change and not moved.event
    assert went is not None and went.event and went.indefinite and not went.change
    assert longer is not None and longer.change and longer.negated


def test_a_sentence_without_a_verb_has_no_frame() -> None:
    """No verb, no frame: the other guards decide alone."""
    assert parse_frame("Pytest, unittest, nose") is None
