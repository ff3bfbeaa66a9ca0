"""Equal sets of frames held once (extract/shared_sets.py): the same values, one object."""

from __future__ import annotations

from dreamgit.dream.consolidate.update_frames import _reading
from dreamgit.extract import shared_sets
from dreamgit.extract.frame import parse_frame
from dreamgit.extract.shared_sets import EMPTY, shared


def test_an_empty_set_is_the_one_empty_set() -> None:
    """No values give the one shared empty set."""
    assert shared([]) is EMPTY
    assert shared(set()) is EMPTY


def test_equal_sets_are_one_object() -> None:
    """A set equal to one handed out before is that set, whatever order the values came in."""
    first = shared(["atlas", "deadline"])
    assert shared(("deadline", "atlas")) is first
    assert shared(["atlas"]) == frozenset({"atlas"})


def test_a_full_table_is_emptied_and_sets_are_shared_again(monkeypatch) -> None:
    """When the table is full it starts over: the same values, shared anew."""
    monkeypatch.setattr(shared_sets, "_HELD", 3)
    monkeypatch.setattr(shared_sets, "_SETS", {})
    sets = [shared([f"w{k}"]) for k in range(5)]
    assert sets == [frozenset({f"w{k}"}) for k in range(5)]
    assert len(shared_sets._SETS) <= 3
    assert shared(["w4"]) is sets[4]


def test_frames_of_different_sentences_share_their_equal_sets() -> None:
    """Two sentences about one subject hold one subject set; their empty sets are one."""
    one = parse_frame("The user's team is on Python 3.11.")
    two = parse_frame("The user's team moved to Berlin in May.")
    assert one is not None and two is not None
    assert one.subject == two.subject == frozenset({"user", "team"})
    assert one.subject is two.subject
    assert one.rejected is two.rejected is EMPTY
    assert one.relation_text == "is on"


def test_readings_without_a_promotion_hold_the_one_empty_set() -> None:
    """A memory's reading keeps no role of its own when it tells of no promotion."""
    frames, promoted, role = _reading("The user's team is on Python 3.11.")
    assert frames and promoted is None
    assert role is EMPTY
    assert _reading("Ana got promoted to Staff Engineer.")[2] == frozenset({"staff", "engineer"})
