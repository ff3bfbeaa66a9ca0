"""The misses bench's two readings: how the turns a temporal probe cites hold its answer
(as said, once relative dates are resolved, only with the session's day), and whether an
answer held over several items was cut from the cited turns or only scattered."""

from __future__ import annotations

import re
from datetime import datetime
from types import ModuleType, SimpleNamespace
from typing import Any

from benchkit import load_bench

_STOP = {"a", "the", "on", "in", "to", "i", "my", "and", "of", "was", "before", "her"}
SCORER = SimpleNamespace(
    tokens=lambda text: [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP]
)
AT = {"session_1": datetime(2031, 3, 10, 12, 0), "session_2": datetime(2031, 3, 17, 9, 0)}


def _bench() -> ModuleType:
    return load_bench("bench_misses")


def _probe(answer: str, *cited: tuple[str, str], sessions: int = 1) -> dict[str, Any]:
    return {
        "answer": answer,
        "evidence": [ref for ref, _ in cited],
        "evidence_text": [text for _, text in cited],
        "evidence_session_ids": [f"session_{k}" for k in range(1, sessions + 1)],
    }


def _evidence_as(answer: str, *cited: tuple[str, str]) -> str:
    words = set(SCORER.tokens(answer))
    return str(_bench()._evidence_as(_probe(answer, *cited), words, SCORER, AT))


def test_an_answer_in_the_cited_words_is_as_said() -> None:
    """The turn names the day itself."""
    said = ("D1:2", "Ines: I moved to Braga on 2 March 2031.")
    assert _evidence_as("2 March 2031", said) == "as-said"


def test_an_answer_a_relative_date_gives_is_resolved() -> None:
    """ "yesterday" in the session of 10 March 2031 is 9 March 2031."""
    said = ("D1:4", "Ines: I sold my old bike yesterday.")
    assert _evidence_as("9 March 2031", said) == "resolved"


def test_an_answer_written_from_the_session_day_needs_that_day() -> None:
    """ "The Friday before 10 March 2031": the weekday as said, and the session's day."""
    said = ("D1:6", "Ines: I sang at the harbour festival last Friday.")
    assert _evidence_as("The Friday before 10 March 2031", said) == "session-day"


def test_other_words_are_relative_other_or_inferred() -> None:
    """A relative date that resolves to other words; no relative date at all."""
    relative = ("D2:1", "Ines: I started pottery two weeks ago.")
    assert _evidence_as("mid March 2031", relative) == "relative-other"
    plain = ("D2:3", "Ines: Pottery calms me down.")
    assert _evidence_as("she enjoys it", plain) == "inferred"


def _split_shape(answer: str, items: list[str], probe: dict[str, Any]) -> str:
    words = set(SCORER.tokens(answer))
    item_words = [set(SCORER.tokens(item)) for item in items]
    return str(_bench()._split_shape(probe, words, SCORER, items, item_words))


def test_an_answer_cut_over_items_made_from_one_turn_is_cited() -> None:
    """Two items that each share three words with the one cited turn hold it together."""
    turn = ("D1:2", "Ines: I restored a blue rowing boat with Tomas and we sailed it to Porto.")
    items = [
        "Ines \u2014 restored a blue rowing boat with Tomas.",
        "Ines sailed the rowing boat to Porto with Tomas.",
    ]
    assert _split_shape("blue boat Porto", items, _probe("", turn)) == "cited one-turn mixed"


def test_an_answer_whose_words_meet_only_in_other_items_is_scattered() -> None:
    """The answer's words are in memory, but in items about other things."""
    turn = ("D1:2", "Ines: I restored a blue rowing boat with Tomas last spring.")
    items = ["Omar painted his kitchen blue.", "Omar visited Porto for a football match."]
    assert _split_shape("blue boat Porto", items, _probe("", turn)) == "scattered"
