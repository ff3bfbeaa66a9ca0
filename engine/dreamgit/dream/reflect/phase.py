"""Planning the reflect phase: gate, then themes, lessons and lasting truths as operations.

Each reflection is one :class:`~dreamgit.dream.workset.Operation` (one commit, with
trailers; ``review`` lists the same ones ``run`` commits): a theme adds a line to the
day's notes, a lesson adds a staged ``instruction`` memory (an ``add``, counted
against the run's limits), a lasting truth tags its memory ``lasting-truth``, which
makes it a promotion candidate. The detail of each cites its evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime

from dreamgit.dream.reflect.notes import notes_path, with_reflection
from dreamgit.dream.reflect.people import people_words
from dreamgit.dream.reflect.recurring import LESSON, TRUTH, Recurring, find_recurring
from dreamgit.dream.reflect.settings import ReflectSettings
from dreamgit.dream.reflect.sightings import session_days, sightings, window_start
from dreamgit.dream.reflect.themes import Theme, find_themes, noted_concepts
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.model import Memory
from dreamgit.store.operations import unique_slug

__all__ = ["gate_open", "plan_reflect"]

#: Lessons are instructions: where gathered instructions live.
LESSON_TOPIC = "instructions"
PHASE = "reflect"


def plan_reflect(
    ws: WorkingSet,
    settings: ReflectSettings,
    *,
    sessions: Mapping[str, str],
    now: datetime,
) -> list[Operation]:
    """The reflections the window holds, when the gate lets them (``sessions``: id → path)."""
    if not settings.enabled or ws.format.name != "dreamgit":
        return []  # other formats keep their own notes (OpenClaw's REM block: the diary)
    days = session_days(sessions)
    since = window_start(days, now, settings.window_days)
    if not gate_open(settings, days, len(ws.active), now):
        return []
    recent = _window(days, settings, now)
    # Only memories a session of the window said have sightings: themes and recurring
    # statements are found among them (a store of 100,000 has a few hundred).
    said = recent.keys()
    memories = sorted(
        (m for m in ws.active.values() if not said.isdisjoint(m.sources)), key=lambda m: m.id
    )
    seen = {m.id: sightings(m, days, since=since, now=now) for m in memories}
    window = [ws.texts.get(sessions[s]) or "" for s in sorted(recent)]
    themes = find_themes(memories, seen, settings, people=people_words(window, _named(ws)))
    notes = [ws.texts.get(notes_path(d)) or "" for d in sorted({*recent.values(), now.date()})]
    fresh = _not_yet_noted(themes[: settings.max_themes], notes)
    lessons, truths = find_recurring(memories, seen, settings)
    ops = [op for t in fresh if (op := _theme_op(ws, t, now)) is not None]
    ops += [_lesson_op(ws, r) for r in lessons]
    ops += [_truth_op(ws, r) for r in truths]
    return ops


def _named(ws: WorkingSet) -> list[Memory]:
    """The memories that may say the user's name (key ``user.name``), by id: the first
    that does names the user."""
    return sorted((m for m in ws.active.values() if m.key == "user.name"), key=lambda m: m.id)


def gate_open(
    settings: ReflectSettings, days: Mapping[str, date], memories: int, now: datetime
) -> bool:
    """Whether the reflect gate lets the window (``days``: session id → day) be reflected on."""
    window = _window(days, settings, now)
    figures = {"days": len(set(window.values())), "sessions": len(window), "memories": memories}
    return bool(settings.gate.evaluate(figures))


def _window(days: Mapping[str, date], settings: ReflectSettings, now: datetime) -> dict[str, date]:
    """The window's sessions (id → day): those of the last ``window_days`` days with sessions."""
    since = window_start(days, now, settings.window_days)
    return {s: d for s, d in days.items() if since is not None and since <= d <= now.date()}


def _not_yet_noted(strongest: list[Theme], notes: list[str]) -> list[Theme]:
    """The budget's strongest themes, each noted once in a window: one that shares a word
    with a theme in the window's notes, or with a stronger one of this run, is left out,
    and no weaker theme takes its place."""
    done = noted_concepts(notes)
    fresh = []
    for theme in strongest:
        if not theme.concepts & done:
            fresh.append(theme)
            done |= theme.concepts
    return fresh


def _theme_op(ws: WorkingSet, theme: Theme, now: datetime) -> Operation | None:
    path = notes_path(now)
    text = with_reflection(ws.texts.get(path) or "", theme.render(), now)
    if text is None:
        return None
    return Operation(
        op="reflect",
        phase=PHASE,
        rule="reflect-theme",
        memories=[],
        summary=f"reflect: theme '{theme.label}' in {path}",
        changes=ws.texts.put({path: text}),
        detail=f"{theme.render()}.\nSightings: " + "; ".join(s.render() for s in theme.sightings),
    )


def lesson_memory(recurring: Recurring, taken: set[str]) -> Memory:
    """The correction as an ``instruction`` memory: same id, text and sources, tagged
    ``lesson`` (a promotion candidate), moved to the instructions topic."""
    said = recurring.memory
    return replace(
        said,
        topic=LESSON_TOPIC,
        slug=unique_slug(said.slug, taken),
        type="feedback",
        tags=(*said.tags, LESSON),
        file="",
    )


def _lesson_op(ws: WorkingSet, recurring: Recurring) -> Operation:
    said = recurring.memory
    lesson = lesson_memory(recurring, ws.slugs(LESSON_TOPIC))
    changes = ws.file_for_removal(said)
    changes.update(ws.file_for_new(lesson))
    return Operation(
        op="reflect",
        phase=PHASE,
        rule="reflect-lesson",
        memories=[said.id],
        summary=f"reflect: lesson {said.id}, a correction said on {recurring.days} days, "
        f"is an instruction ({lesson.path})",
        changes=changes,
        before=[snap(said)],
        after=[snap(lesson)],
        detail=recurring.evidence(),
    )


def _truth_op(ws: WorkingSet, recurring: Recurring) -> Operation:
    old = recurring.memory
    new = replace(old, tags=(*old.tags, TRUTH))
    return Operation(
        op="reflect",
        phase=PHASE,
        rule="reflect-lasting-truth",
        memories=[old.id],
        summary=f"reflect: {old.id} is a lasting truth (said on {recurring.days} days)",
        changes=ws.file_for_update(old, new),
        before=[snap(old)],
        after=[snap(new)],
        detail=recurring.evidence(),
    )
