"""Tests for dreamgit.dream.consolidate.finder_views: each memory's views, once per run."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from dreamgit.dream.consolidate.finder_views import FinderViews
from dreamgit.dream.consolidate.judged_pairs import signature
from dreamgit.extract.duplicates import DupItem
from dreamgit.model import Memory

_T0 = datetime(2026, 2, 1, 8, 0, tzinfo=UTC)


def _memories() -> list[Memory]:
    texts = ["Uses uv for Python", "uses uv for python", "Runs tests with pytest", "Likes tea"]
    return [
        Memory(f"m-{k}", "tools", f"s{k}", text, _T0 + timedelta(hours=k), _T0)
        for k, text in enumerate(texts)
    ]


def _fresh(ordered: list[Memory]) -> tuple[list[DupItem], list[str]]:
    return [DupItem.from_memory(m) for m in ordered], [signature(m, 0.8) for m in ordered]


def test_every_pass_gets_the_views_of_the_memories_it_holds_now() -> None:
    """Passes where a merge rewrote one memory and retired another: each pass's views are
    those of its memories, and an unchanged memory's are the ones built first."""
    views = FinderViews(0.8)
    first = _memories()
    items, signs = views.of(first)
    assert (items, signs) == _fresh(first)
    merged = replace(first[0], text="Uses uv for Python projects")
    second = [merged, *first[2:]]
    items2, signs2 = views.of(second)
    assert (items2, signs2) == _fresh(second)
    assert items2[1] is items[2] and signs2[0] != signs[0]
    third = [merged, first[3]]
    items3, signs3 = views.of(third)
    assert (items3, signs3) == _fresh(third)
    assert items3[0] is items2[0] and items3[1] is items[3]
