"""Memory through time: as-of views, diff --since, and a memory's lineage in both directions."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.dream.run import dream
from dreamgit.errors import NotFoundError, UserError
from dreamgit.history.asof import parse_when
from dreamgit.history.lineage import lineage
from dreamgit.model import Memory
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamkit import invoke

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


class Story:
    """Three near-duplicates merged twice, the survivor superseded by key, a keyed slot too."""

    def __init__(self, root: Path) -> None:
        self.repo = repo = MemoryRepo.init(root, now=T0 - HOUR)

        def add(
            text: str, when: datetime, topic: str = "projects", key: str | None = None
        ) -> Memory:
            return operations.add_memory(repo, text, topic=topic, now=when, key=key)

        self.a = add("Keeps the changelog in CHANGELOG.md at the repository root.", T0)
        self.b = add(
            "Keeps the release changelog in CHANGELOG.md at the repository root.",
            T0 + HOUR,
            key="changelog.file",
        )
        self.c = add(
            "Keeps the release changelog and upgrade notes in CHANGELOG.md at the repository root.",
            T0 + 2 * HOUR,
        )
        self.k1 = add("Deploys go out on Tuesdays.", T0 + 3 * HOUR, "work", "deploy.day")
        self.first = dream(repo, now=T0 + DAY, gather=False)
        self.d = add(
            "Keeps the changelog in docs/CHANGES.md now.", T0 + 2 * DAY, key="changelog.file"
        )
        self.k2 = add("Deploys go out on Thursdays.", T0 + 2 * DAY + HOUR, "work", "deploy.day")
        self.second = dream(repo, now=T0 + 3 * DAY, gather=False)

    def ids_as_of(self, when: str) -> set[str]:
        data = json.loads(invoke(self.repo, "memories", "--as-of", when, "--json").stdout)
        return {m["id"] for m in data}


@pytest.fixture
def story(tmp_path: Path) -> Story:
    return Story(tmp_path / "m")


def test_the_story_has_two_merges_and_two_supersessions(story: Story) -> None:
    """The fixture does what it says: a merged twice, then superseded by d."""
    assert [(o["op"], o["memories"]) for o in story.first["ops"][:2]] == [
        ("merge", [story.a.id, story.b.id]),
        ("merge", [story.a.id, story.c.id]),
    ]
    assert ("supersede", [story.d.id, story.a.id]) in [
        (o["op"], o["memories"]) for o in story.second["ops"]
    ]


def test_as_of_views_at_five_times(story: Story) -> None:
    """What main held before init, after one add, before and after each dream."""
    s = story
    assert s.ids_as_of("2026-10-30") == set()
    assert s.ids_as_of("2026-11-01T09:30:00Z") == {s.a.id}
    assert s.ids_as_of("2026-11-01") == {s.a.id, s.b.id, s.c.id, s.k1.id}
    assert s.ids_as_of("2026-11-02T10:00:00Z") == {s.a.id, s.k1.id}
    assert s.ids_as_of("2026-11-03T11:00:00Z") == {s.a.id, s.k1.id, s.d.id, s.k2.id}
    assert s.ids_as_of("2026-11-04T10:00:00Z") == {s.d.id, s.k2.id}


def test_show_as_of_gives_the_text_of_then_or_says_it_was_not_active(story: Story) -> None:
    """``show --as-of`` prints the file as it was; a memory not yet active is a clear error."""
    merged = invoke(story.repo, "show", story.a.id, "--as-of", "2026-11-02T10:00:00Z")
    assert merged.exit_code == 0 and "upgrade notes" in merged.stdout
    early = invoke(story.repo, "show", story.a.id, "--as-of", "2026-11-01T09:30:00Z")
    assert "upgrade notes" not in early.stdout and "CHANGELOG.md" in early.stdout
    missing = invoke(story.repo, "show", story.d.id, "--as-of", "2026-11-02")
    assert missing.exit_code == 1
    assert f"no active memory with id {story.d.id} as of 2026-11-02T23:59:59Z" in missing.stderr


def test_diff_since_shows_what_changed_after_that_time(story: Story) -> None:
    """``diff --since`` compares main then with main now."""
    data = json.loads(
        invoke(story.repo, "diff", "--since", "2026-11-03T11:00:00Z", "--json").stdout
    )
    assert {m["id"] for m in data["removed"]} == {story.a.id, story.k1.id}
    assert data["added"] == []
    later = T0 + 3 * DAY + HOUR  # seven days before it, main did not exist yet
    week = json.loads(invoke(story.repo, "diff", "--since", "7d", "--json", now=later).stdout)
    assert {m["id"] for m in week["added"]} == {story.d.id, story.k2.id}


def test_lineage_follows_merges_and_supersession_forward(story: Story) -> None:
    """From a: its adds, both merges (what it absorbed), and that d superseded it."""
    steps = lineage(story.repo, story.a.id)
    view = [(s.memory, s.op, s.relation) for s in steps]
    s = story
    assert view == [
        (s.a.id, "add", ""),
        (s.b.id, "add", ""),
        (s.c.id, "add", ""),
        (s.a.id, "merge", f"absorbed {s.b.id}"),
        (s.b.id, "merge", f"merged into {s.a.id}"),
        (s.a.id, "merge", f"absorbed {s.c.id}"),
        (s.c.id, "merge", f"merged into {s.a.id}"),
        (s.d.id, "add", ""),
        (s.d.id, "supersede", f"supersedes {s.a.id}"),
        (s.a.id, "supersede", f"superseded by {s.d.id}"),
    ]
    texts = {(st.memory, st.op, st.relation): st.text for st in steps}
    assert texts[(s.b.id, "merge", f"merged into {s.a.id}")] is None
    assert "upgrade notes" in (texts[(s.a.id, "merge", f"absorbed {s.c.id}")] or "")
    assert texts[(s.a.id, "supersede", f"superseded by {s.d.id}")] is None
    assert [st.time for st in steps] == sorted(st.time for st in steps)
    assert all(st.run for st in steps if st.op in ("merge", "supersede"))


def test_lineage_follows_backward_from_the_newest_memory(story: Story) -> None:
    """From d, the memories it replaced are there too, with the same steps."""
    backward = [(s.memory, s.op, s.relation) for s in lineage(story.repo, story.d.id)]
    forward = [(s.memory, s.op, s.relation) for s in lineage(story.repo, story.a.id)]
    assert backward == forward
    slot = [(s.memory, s.op) for s in lineage(story.repo, story.k1.id)]
    assert slot == [
        (story.k1.id, "add"),
        (story.k2.id, "add"),
        (story.k2.id, "supersede"),
        (story.k1.id, "supersede"),
    ]


def test_show_history_prints_and_json_lists_every_step(story: Story) -> None:
    """``show ID --history`` (and ``--json``) is the lineage, oldest first."""
    text = invoke(story.repo, "show", story.b.id, "--history")
    assert text.exit_code == 0, text.output
    assert f"merge (merged into {story.a.id})" in text.stdout
    assert "(not active)" in text.stdout
    data = json.loads(invoke(story.repo, "show", story.b.id, "--history", "--json").stdout)
    assert [d["op"] for d in data][:2] == ["add", "add"]
    assert {"commit", "time", "memory", "op", "rule", "run", "relation", "text", "sources"} == set(
        data[0]
    )


def test_unknown_memory_and_bad_times_are_clear(story: Story) -> None:
    """An id never seen, and a time that is none of the accepted forms, say what to do."""
    with pytest.raises(NotFoundError) as caught:
        lineage(story.repo, "m-never")
    assert str(caught.value) == "memory m-never was never in this repository's history"
    with pytest.raises(UserError) as bad:
        parse_when("last tuesday", now=T0)
    assert str(bad.value) == "--as-of: 'last tuesday' is not a time, a date or an age"
    assert parse_when("36h", now=T0) == T0 - timedelta(hours=36)
    assert parse_when("2026-11-01", now=T0) == datetime(2026, 11, 1, 23, 59, 59, tzinfo=UTC)
