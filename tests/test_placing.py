"""An add places its memory's line in MEMORY.md: byte for byte what a full render writes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.dream import reindex
from dreamgit.dream.index import render_index
from dreamgit.dream.ordering import index_key
from dreamgit.model import PRIORITIES
from dreamgit.ruleset import load_ruleset
from dreamgit.store import layout, operations
from dreamgit.store.config import DEFAULT_CONFIG
from dreamgit.store.repo import MemoryRepo
from gitcheck import git

START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
TOPICS = ["tools", "people", "places", "habits"]
WORDS = [
    "tea",
    "kayak",
    "violin",
    "garden",
    "lantern",
    "harbour",
    "pepper",
    "meadow",
    "ferry",
    "comet",
    "orchard",
]


def _repo(tmp_path: Path, config: str) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem", bare=True, now=START)
    repo.render_index_with(reindex.renderer(lambda: START))
    data = config.encode("utf-8")
    repo.commit_main("config: budgets for the test", lambda _tip: {layout.CONFIG: data}, now=START)
    return repo


def _full_render(repo: MemoryRepo, now: datetime) -> str:
    """MEMORY.md as a render of every memory at the tip writes it."""
    rules = load_ruleset(repo.read_text(layout.CONFIG), filename=layout.CONFIG)
    return render_index(
        repo.snapshot(now=now).memories,
        order=index_key(rules, now),
        index_chars=rules.budgets.index_chars,
        index_line_chars=rules.budgets.index_line_chars,
    ).text


def _count_placed(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record, for each index written, whether the added line was placed (not rendered)."""
    placed: list[bool] = []
    real: Callable[..., str | None] = reindex.place_added

    def spy(repo: MemoryRepo, commit: str, *, now: datetime) -> str | None:
        text = real(repo, commit, now=now)
        placed.append(text is not None)
        return text

    monkeypatch.setattr(reindex, "place_added", spy)
    return placed


@pytest.mark.parametrize("index_chars", [400, 700, 1400, 8000])
def test_many_adds_write_the_index_a_full_render_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index_chars: int
) -> None:
    """Adds of every priority, topic and length, at a budget met early, late or never:
    each commit's MEMORY.md is the full render's, and most were placed, not rendered."""
    repo = _repo(tmp_path, f"{DEFAULT_CONFIG}\nbudgets:\n  index_chars: {index_chars}\n")
    placed = _count_placed(monkeypatch)
    for k in range(60):
        now = START + timedelta(minutes=k // 3)  # three adds share each minute: ids break ties
        repo.render_index_with(reindex.renderer(lambda now=now: now))  # type: ignore[misc]
        words = " ".join(WORDS[(k * j) % len(WORDS)] for j in range(1, 2 + (k * 7) % 11))
        text = f"{WORDS[k % 11]} {k}." if k % 3 == 0 else f"{words} matter to the user, note {k}."
        operations.add_memory(
            repo,
            text.capitalize(),
            topic=TOPICS[(k * 5) % len(TOPICS)] if k < 50 else "late",
            priority=PRIORITIES[(k * 3) % len(PRIORITIES)],
            now=now,
        )
        assert repo.read_text(layout.INDEX) == _full_render(repo, now), f"after add {k}"
    assert placed.count(True) >= 50
    listed = repo.read_text(layout.INDEX) or ""
    assert ("more in memories/" in listed) is (index_chars < 8000)


def test_an_index_over_a_memory_without_its_own_time_is_rendered_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory file stating no created time reads as now, so its place moves with the
    clock: no add places its line, and each index is still the full render's."""
    repo = _repo(tmp_path, f"{DEFAULT_CONFIG}\nbudgets:\n  index_chars: 700\n")
    bare = b"---\nname: no-time\n---\nThe user keeps no calendar at all.\n"
    repo.commit_main("hand: a memory", lambda _tip: {"memories/habits/no-time.md": bare}, now=START)
    placed = _count_placed(monkeypatch)
    for k in range(4):
        now = START + timedelta(hours=k)
        repo.render_index_with(reindex.renderer(lambda now=now: now))  # type: ignore[misc]
        operations.add_memory(repo, f"Plays chess on day {k}.", topic="habits", now=now)
        assert repo.read_text(layout.INDEX) == _full_render(repo, now)
    assert placed == [False] * 4


def test_a_commit_of_two_memories_and_a_forget_are_rendered_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a commit adding one memory is placed; others render the index whole."""
    repo = _repo(tmp_path, DEFAULT_CONFIG)
    first = operations.add_memory(repo, "Sails on Sundays.", topic="habits", now=START)
    placed = _count_placed(monkeypatch)
    operations.add_memory(repo, "Bakes rye bread.", topic="habits", now=START)
    operations.forget(repo, [first.id], now=START)
    assert placed == [True, False]
    assert repo.read_text(layout.INDEX) == _full_render(repo, START)
    assert "Sails on Sundays" not in git(repo.store.git_dir, "show", "main:MEMORY.md")


def test_a_damaged_cut_file_renders_the_index_whole(tmp_path: Path) -> None:
    """The kept cut is only a cache: a file that does not parse is ignored."""
    repo = _repo(tmp_path, DEFAULT_CONFIG)
    operations.add_memory(repo, "Sails on Sundays.", topic="habits", now=START)
    (repo.store.git_dir / "dreamgit" / "cache" / "index-cut.json").write_text("{not json")
    operations.add_memory(repo, "Bakes rye bread.", topic="habits", now=START)
    assert repo.read_text(layout.INDEX) == _full_render(repo, START)


def test_placing_reads_only_the_folders_the_add_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An add's line is placed from the folders whose trees differ, never from libgit2's
    diff of every entry of both trees (10,000 at 10,000 memories)."""
    from dreamgit.gitstore import GitStore

    repo = _repo(tmp_path, DEFAULT_CONFIG)
    operations.add_memory(repo, "Sails on Sundays.", topic="habits", now=START)
    placed = _count_placed(monkeypatch)

    def whole_diff(*_: object) -> None:
        raise AssertionError("diffed the whole tree")

    monkeypatch.setattr(GitStore, "changed_paths", whole_diff)
    operations.add_memory(repo, "Bakes rye bread.", topic="food", now=START)
    assert placed == [True]
    assert repo.read_text(layout.INDEX) == _full_render(repo, START)


@pytest.mark.parametrize(
    ("order", "index_chars"),
    [
        ("priority desc, updated desc", 700),
        ("priority desc, updated desc", 8000),
        ("updated asc, chars desc", 700),
        ("updated desc", 400),
        ("chars asc, created desc", 1400),
    ],
)
def test_reinforces_place_the_line_a_full_render_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: str, index_chars: int
) -> None:
    """Memories said again, listed or left out or the first left out, in orders where a
    reinforce moves them up or down, among adds: each commit's MEMORY.md is the full
    render's, and most reinforces were placed, not rendered."""
    config = (
        f'{DEFAULT_CONFIG}\nbudgets:\n  index_chars: {index_chars}\nindex:\n  order: "{order}"\n'
    )
    repo = _repo(tmp_path, config)
    made = []
    for k in range(24):
        now = START + timedelta(minutes=k)
        repo.render_index_with(reindex.renderer(lambda now=now: now))  # type: ignore[misc]
        words = " ".join(WORDS[(k * j) % len(WORDS)] for j in range(1, 2 + (k * 5) % 9))
        memory = operations.add_memory(
            repo,
            f"{words} count for the user, item {k}.".capitalize(),
            topic=TOPICS[(k * 3) % len(TOPICS)],
            priority=PRIORITIES[(k * 7) % len(PRIORITIES)],
            now=now,
        )
        made.append(memory.id)
    placed = _count_placed(monkeypatch)
    for k in range(40):
        now = START + timedelta(hours=1, minutes=k)
        repo.render_index_with(reindex.renderer(lambda now=now: now))  # type: ignore[misc]
        if k % 9 == 8:
            operations.add_memory(repo, f"Keeps a {WORDS[k % 11]} note {k}.", topic="late", now=now)
        else:
            ident = made[(k * 13) % len(made)]
            operations.reinforce(repo, ident, now=now, tags=[f"again-{k % 3}"])
        assert repo.read_text(layout.INDEX) == _full_render(repo, now), f"after step {k}"
    assert placed.count(True) >= 15


def test_a_reinforce_of_a_memory_without_its_own_time_is_rendered_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory file stating no created time reads as now: its reinforce is not placed."""
    repo = _repo(tmp_path, f"{DEFAULT_CONFIG}\nbudgets:\n  index_chars: 700\n")
    operations.add_memory(repo, "Rows on the lake.", topic="habits", now=START)
    bare = b"---\nname: no-time\ndream:\n  id: m-notime\n---\nThe user keeps no diary.\n"
    repo.commit_main("hand: a memory", lambda _tip: {"memories/habits/no-time.md": bare}, now=START)
    placed = _count_placed(monkeypatch)
    later = START + timedelta(hours=2)
    repo.render_index_with(reindex.renderer(lambda: later))
    operations.reinforce(repo, "m-notime", now=later)
    assert placed == [False]
    assert repo.read_text(layout.INDEX) == _full_render(repo, later)
