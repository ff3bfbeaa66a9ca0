"""The newer-value check's test of one thing named twice (``update_passes.same_thing``)."""

from __future__ import annotations

from dataclasses import replace

from dreamgit.dream.consolidate.update_passes import same_thing
from dreamgit.extract.frame import Frame, parse_frame


def _frame(sentence: str) -> Frame:
    frame = parse_frame(sentence)
    assert frame is not None
    return frame


def test_one_subject_written_two_ways_is_one_thing() -> None:
    """ "The Atlas budget" and "the budget for Atlas" name one budget."""
    old = _frame("The Atlas budget is 5 dollars.")
    new = _frame("The budget for Atlas is 7 dollars.")
    assert same_thing(old, new)


def test_a_subject_written_alike_is_one_thing() -> None:
    """The same subject written the same way is one thing."""
    old, new = _frame("The Atlas budget is 5 dollars."), _frame("The Atlas budget is 7 dollars.")
    assert same_thing(old, new)


def test_a_word_of_the_subject_written_twice_is_another_thing() -> None:
    """Words of one set written as often as each other or not: the counts differ."""
    old = _frame("The Atlas budget is 5 dollars.")
    twice = replace(old, subject_text=old.subject_text.replace("atlas", "atlas atlas"))
    assert not same_thing(old, twice)
    assert not same_thing(twice, old)
    assert same_thing(twice, replace(twice))
