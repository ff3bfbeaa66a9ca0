"""Themes: concepts that several memories, said on several days, keep returning to.

A concept is a content word as the duplicate finder reads it (stemmed and folded;
numbers and times are values, not concepts) at the core of a statement: the object of
its frame or a name, never its subject, the relation or a qualifier; each clause of a
session note is a statement of its own. It is a theme when memories sighted in the
window hold it in at least ``min_memories`` memories, on ``min_days`` distinct days,
from ``min_sessions`` sessions. The people who speak in the window's sessions
(:mod:`.people`) are never a theme, and a concept held by more than ``max_share`` of
the window's memories (beyond those ``min_memories``) is the background of the whole
memory, not a theme. Concepts held by exactly the same memories are one theme, named by
up to three words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dreamgit.dream import session_notes
from dreamgit.dream.reflect.settings import ReflectSettings
from dreamgit.dream.reflect.sightings import Sighting
from dreamgit.extract.frame import parse_frame
from dreamgit.extract.verbs import DATE_WORDS, verb_base
from dreamgit.model import Memory
from dreamgit.textsim import NOT, tokenize

__all__ = ["Theme", "find_themes", "noted_concepts"]

_MIN_WORD = 3
#: Words that name no subject of their own, however often they recur.
GENERIC = frozenset(
    " ".join(
        (
            "thing things way ways people person others other someone something everyone",
            "everything lot lots kind kinds stuff time times day days week weeks month months",
            "year years weekend today tonight before after great good nice new different sure",
            # how much and how it felt, not what: "a huge part of", "so happy", "came back"
            "big huge amazing awesome happy glad together back place gonna",
        )
    ).split(" ")
)
_NAMED_BY = 3
#: A theme's line in the day's notes, as :meth:`Theme.render` writes it.
_NOTED = re.compile(r"^- Theme: (.+?) \u2014 ", re.M)


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

    @property
    def concepts(self) -> frozenset[str]:
        """The canonical words of its name, as :func:`noted_concepts` reads them back."""
        return _label_concepts(self.label)

    def render(self) -> str:
        """The line the day's notes hold."""
        first, last = self.sightings[0].day, self.sightings[-1].day
        sessions = len({s.session for s in self.sightings})
        return (
            f"Theme: {self.label} \u2014 {len(self.memories)} memories on {self.days} days "
            f"({first.isoformat()} to {last.isoformat()}), {sessions} sessions: "
            f"{', '.join(self.memories)}"
        )


def _label_concepts(label: str) -> frozenset[str]:
    return frozenset(t.norm for t in tokenize(label) if t.kind == "word" and not t.stop)


def noted_concepts(notes: Iterable[str]) -> set[str]:
    """The concepts of the themes the ``notes`` already hold (a theme shares none of them
    to be noted again in the window: "Harry" after "Harry, Potter")."""
    return {c for text in notes for m in _NOTED.finditer(text) for c in _label_concepts(m[1])}


def _is_verb(low: str) -> bool:
    """A verb form ("made", "wants", "inspiring"): a relation, never a theme."""
    if verb_base(low):
        return True
    stem = low.removesuffix("ing")
    return stem != low and bool(verb_base(stem) or verb_base(stem + "e"))


def _clauses(memory: Memory) -> list[str]:
    """The statements of a memory: a session note's clauses ("Name — went to …; their
    sister …"), each read on its own, else its one text."""
    if not session_notes.is_note(memory):
        return [memory.text]
    return memory.text.split(" \u2014 ", 1)[1].split("; ")


def _concepts(text: str) -> dict[str, str]:
    """The concepts at a statement's core: canonical form → the word as first written
    (lower case unless a name).

    The core is the object of the statement's frame and the names it holds, never its
    subject (who), the relation (a verb), a qualifier ("last week", "with others") or a
    negation; days and months are when, and a few words say nothing of what
    (:data:`GENERIC`). A statement whose frame cannot be read gives its names only.
    """
    frame = parse_frame(text)
    core = set(frame.object) - {frame.head} if frame else set()
    found: dict[str, str] = {}
    for token in tokenize(text):
        low = token.text.lower()
        if token.stop or token.kind != "word" or token.norm == NOT or len(token.norm) < _MIN_WORD:
            continue
        if low in DATE_WORDS or low in GENERIC or _is_verb(low):
            continue
        word = token.text.removesuffix("'s").removesuffix("\u2019s")
        name = word[:1].isupper() and not token.start
        if name or token.norm in core:
            found.setdefault(token.norm, word if name else word.lower())
    return found


def find_themes(
    memories: Sequence[Memory],
    seen: Mapping[str, list[Sighting]],
    settings: ReflectSettings,
    *,
    people: frozenset[str] = frozenset(),
) -> list[Theme]:
    """The window's themes, most days first (the run's budget is the caller's); ``people``
    (canonical words) are who speaks, never a theme."""
    holders: dict[str, list[str]] = {}
    shown: dict[str, str] = {}
    in_window = [m for m in memories if seen.get(m.id)]
    for memory in sorted(in_window, key=lambda m: m.id):
        concepts = {n: w for clause in _clauses(memory) for n, w in _concepts(clause).items()}
        for norm, word in concepts.items():
            holders.setdefault(norm, []).append(memory.id)
            shown.setdefault(norm, word)
    background = settings.theme_max_share * len(in_window) + settings.theme_memories
    groups: dict[tuple[str, ...], list[str]] = {}
    for norm, ids in holders.items():
        if norm not in people and settings.theme_memories <= len(ids) <= background:
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
    return themes
