"""A frame said with no change replaces only a value said with the same qualifiers.

The newer-value check (dream/consolidate/update.py) asks, for a memory whose frame says
no change (no change cue, correction, tool left, place moved from or age), only the
earlier memories of its window whose frame has its qualifier phrases: what the check
finds of any other pair is nothing. This holds the check to that over every sentence
the update tests state.
"""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from itertools import permutations
from pathlib import Path

from dreamgit.dream.consolidate.update import _why
from dreamgit.dream.consolidate.update_frames import age, read_memory
from dreamgit.extract.frame import Frame
from dreamgit.model import Memory

_SOURCES = (
    "test_update.py",
    "test_counts.py",
    "test_dream_updates.py",
    "test_update_same_thing.py",
)


def _sentences() -> list[str]:
    """Every string constant of the update tests that reads as a sentence."""
    found: set[str] = set()
    for name in _SOURCES:
        tree = ast.parse((Path(__file__).parent / name).read_text())
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text[:1].isupper() and text.endswith("."):
                found.add(text)
    return sorted(found)


def _frames(text: str) -> list[Frame]:
    when = datetime(2026, 1, 5, tzinfo=UTC)
    return read_memory(Memory("m-1", "facts", "fact", text, when, when))[0]


def _said_as_change(frame: Frame) -> bool:
    return bool(frame.change or frame.rejected or frame.left or frame.moved_from) or (
        age(frame) is not None
    )


def test_a_frame_with_no_change_replaces_no_value_said_with_other_qualifiers() -> None:
    """Of two frames of one relation, the newer said with no change and with other
    qualifier phrases, the check finds no update."""
    by_relation: dict[tuple[str, str], list[Frame]] = {}
    for text in _sentences():
        for frame in _frames(text):
            by_relation.setdefault((frame.head, frame.particle), []).append(frame)
    asked = 0
    for frames in by_relation.values():
        for old, new in permutations(frames, 2):
            if _said_as_change(new) or old.phrases == new.phrases:
                continue
            asked += 1
            assert _why(old, new, age(old), age(new)) is None, (old, new)
    assert asked > 1000  # the sentences hold enough such pairs to say so
