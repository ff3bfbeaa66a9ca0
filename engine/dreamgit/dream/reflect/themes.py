"""Themes: concepts that several memories, said on several days, keep returning to.

A concept is a content word as the duplicate finder reads it (stemmed and folded;
numbers and times are values, not concepts). It is a theme when memories sighted in
the window hold it in at least ``min_memories`` memories, on ``min_days`` distinct
days, from ``min_sessions`` sessions. A concept held by more than ``max_share`` of the
window's memories (beyond those ``min_memories``) is the background of the whole
memory (the user, the agent, a chat partner's name), not a theme. Concepts held by
exactly the same memories are one theme, named by up to three of its words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamgit.dream.consolidate.frame import parse_frame
from dreamgit.dream.reflect.settings import ReflectSettings
from dreamgit.dream.reflect.sightings import Sighting
from dreamgit.model import Memory
from dreamgit.textsim import tokenize

__all__ = ["Theme", "find_themes"]

_MIN_WORD = 3
_NAMED_BY = 3


@dataclass(frozen=True)
class Theme:
    """One theme: its words, the memories that hold it, and their sightings."""

    words: tuple[str, ...]
    memories: tuple[str, ...]
    sightings: tuple[Sighting, ...]

    @property
    def label(self) -> str:
        """The theme's name: its words, most widespread first."""
        return ", ".join(self.words)

    @property
    def days(self) -> int:
        """Distinct days the theme was said on."""
        return len({s.day for s in self.sightings})

    def render(self) -> str:
        """The line the day's notes hold."""
        first, last = self.sightings[0].day, self.sightings[-1].day
        sessions = len({s.session for s in self.sightings})
        return (
            f"Theme: {self.label} \u2014 {len(self.memories)} memories on {self.days} days "
            f"({first.isoformat()} to {last.isoformat()}), {sessions} sessions: "
            f"{', '.join(self.memories)}"
        )


def _concepts(text: str) -> dict[str, str]:
    """Canonical concept → the word as first written (lower case unless a name).

    Where the sentence's frame can be read, only what it is about counts: its subject
    and its value, not the relation ("says", "keeps") nor its dates.
    """
    frame = parse_frame(text)
    about = (frame.subject | frame.value) - {frame.head} - frame.dates if frame else None
    found: dict[str, str] = {}
    for token in tokenize(text):
        if token.stop or token.kind != "word" or len(token.norm) < _MIN_WORD:
            continue
        if about is not None and token.norm not in about:
            continue
        shown = token.text if token.text[:1].isupper() and not token.start else token.text.lower()
        found.setdefault(token.norm, shown)
    return found


def find_themes(
    memories: Sequence[Memory],
    seen: Mapping[str, list[Sighting]],
    settings: ReflectSettings,
) -> list[Theme]:
    """The window's themes, most days first, at most ``settings.max_themes``."""
    holders: dict[str, list[str]] = {}
    shown: dict[str, str] = {}
    in_window = [m for m in memories if seen.get(m.id)]
    for memory in sorted(in_window, key=lambda m: m.id):
        for norm, word in _concepts(memory.text).items():
            holders.setdefault(norm, []).append(memory.id)
            shown.setdefault(norm, word)
    background = settings.theme_max_share * len(in_window) + settings.theme_memories
    groups: dict[tuple[str, ...], list[str]] = {}
    for norm, ids in holders.items():
        if settings.theme_memories <= len(ids) <= background:
            groups.setdefault(tuple(ids), []).append(norm)
    themes = []
    for group, norms in groups.items():
        sightings = tuple(sorted({s for i in group for s in seen[i]}))
        days = len({s.day for s in sightings})
        sessions = len({s.session for s in sightings})
        if days < settings.theme_days or sessions < settings.theme_sessions:
            continue
        words = tuple(shown[n] for n in sorted(norms)[:_NAMED_BY])
        themes.append(Theme(words, group, sightings))
    themes.sort(key=lambda t: (-t.days, -len(t.memories), t.label))
    return themes[: settings.max_themes]
