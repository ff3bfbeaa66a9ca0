"""Lasting truths and lessons: one statement that keeps being said, day after day.

A memory's sightings (:mod:`.sightings`) say on which days and in which sessions it
was said. A **correction** (a sentence that rejects an alternative, "…with uv, not
pip", read from its frame) said on ``lessons.min_days`` days becomes a **lesson**: an
``instruction`` memory, its sightings cited, a candidate for promotion. Any
other statement reinforced on ``lasting_truths.min_days`` days from
``lasting_truths.min_sessions`` sessions is a **lasting truth**, a promotion candidate
marked with its evidence. What is already high or core, a session note, or written by
a reflection already is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamgit.dream import session_notes
from dreamgit.dream.reflect.settings import ReflectSettings
from dreamgit.dream.reflect.sightings import Sighting
from dreamgit.extract.frame import parse_frame
from dreamgit.model import Memory, priority_rank

__all__ = ["GENERATED_TAGS", "LESSON", "TRUTH", "Recurring", "find_recurring"]

#: The tag a lesson carries, and the one a lasting truth gets.
LESSON = "lesson"
TRUTH = "lasting-truth"
#: Tags of memories already reflected on: not proposed again.
GENERATED_TAGS = frozenset({LESSON, TRUTH})


@dataclass(frozen=True)
class Recurring:
    """A memory said again and again, and what that makes it."""

    memory: Memory
    sightings: tuple[Sighting, ...]
    #: ``lesson`` or ``lasting-truth``.
    kind: str

    @property
    def days(self) -> int:
        """Distinct days it was said on."""
        return len({s.day for s in self.sightings})

    @property
    def sessions(self) -> int:
        """Distinct sessions it was said in."""
        return len({s.session for s in self.sightings})

    def evidence(self) -> str:
        """Its sightings, as the commit and the run record cite them."""
        return (
            f"Said on {self.days} days in {self.sessions} sessions: "
            + "; ".join(s.render() for s in self.sightings)
            + "."
        )


def _is_correction(memory: Memory) -> bool:
    frame = parse_frame(memory.text)
    return frame is not None and bool(frame.rejected)


def find_recurring(
    memories: Sequence[Memory],
    seen: Mapping[str, list[Sighting]],
    settings: ReflectSettings,
) -> tuple[list[Recurring], list[Recurring]]:
    """The lessons and the lasting truths of the window, most days first, within budget."""
    lessons, truths = [], []
    high = priority_rank("high")
    for memory in sorted(memories, key=lambda m: m.id):
        found = seen.get(memory.id) or []
        if (
            not found
            or priority_rank(memory.priority) >= high
            or GENERATED_TAGS & set(memory.tags)
            or session_notes.is_note(memory)
        ):
            continue
        days = len({s.day for s in found})
        sessions = len({s.session for s in found})
        if _is_correction(memory):
            if days >= settings.lesson_days and sessions >= settings.lesson_sessions:
                lessons.append(Recurring(memory, tuple(found), LESSON))
        elif days >= settings.truth_days and sessions >= settings.truth_sessions:
            truths.append(Recurring(memory, tuple(found), TRUTH))
    order = lambda r: (-r.days, -r.sessions, r.memory.id)  # noqa: E731
    return (
        sorted(lessons, key=order)[: settings.max_lessons],
        sorted(truths, key=order)[: settings.max_truths],
    )
