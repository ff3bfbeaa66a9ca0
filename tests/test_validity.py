"""Validity in the memory itself: since when a memory holds, and on a retired version,
until when and what replaced it.

A supersede or merge writes ``valid_from`` on the memory it keeps (and the newer one
lists what it ``supersedes``). The operation's one commit removes the retired file, so
the retired version's ``valid_to`` and ``superseded_by`` come from that commit: the
versions ``show --history`` lists carry them, and ``restore`` brings the memory back
true again, without them. Rules read ``valid_from``, ``supersedes`` and ``superseded``;
every format that keeps our fields keeps these.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.model import Memory
from dreamgit.ruleset import load_ruleset
from dreamgit.ruleset.context import memory_env
from dreamgit.store import operations
from dreamgit.store.formats.sidecar import fields_from, meta_of
from dreamgit.store.memoryfile import memory_from_record, parse_memory_record, render_memory
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.transfer import export_text, read_export
from dreamgit.store.versions import removed_versions

MONDAY = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
NEXT_MONDAY = MONDAY + timedelta(days=7)
DREAM = NEXT_MONDAY + timedelta(days=1)


@pytest.fixture
def superseded(tmp_path: Path) -> tuple[MemoryRepo, Memory, Memory]:
    """Berlin said on one Monday, Lisbon the next, a dream: (repo, old, new as kept)."""
    repo = MemoryRepo.init(tmp_path / "memory", now=MONDAY)
    old = operations.add_memory(repo, "The user's office is in Berlin.", topic="facts", now=MONDAY)
    new = operations.add_memory(
        repo, "The user's office is in Lisbon.", topic="facts", now=NEXT_MONDAY
    )
    DreamEngine(repo, now=DREAM).dream(force=True)
    (kept,) = [m for m in DreamEngine(repo, now=DREAM).memories() if m.id in (old.id, new.id)]
    return repo, old, kept


def test_the_newer_memory_holds_from_when_it_was_said_and_lists_what_it_replaced(
    superseded: tuple[MemoryRepo, Memory, Memory],
) -> None:
    _repo, old, kept = superseded
    assert kept.text == "The user's office is in Lisbon."
    assert (kept.valid_from, kept.supersedes, kept.valid_to) == (NEXT_MONDAY, (old.id,), None)


def test_the_retired_version_says_until_when_and_what_replaced_it(
    superseded: tuple[MemoryRepo, Memory, Memory],
) -> None:
    repo, old, kept = superseded
    (version,) = removed_versions(repo, old.id, now=DREAM)
    assert version.memory.text == old.text
    assert (version.memory.valid_to, version.memory.superseded_by) == (DREAM, (kept.id,))
    assert "valid_to" not in version.data.decode()  # history, not the file, knows the end


def test_a_restored_memory_is_true_again(superseded: tuple[MemoryRepo, Memory, Memory]) -> None:
    repo, old, _kept = superseded
    back = DreamEngine(repo, now=DREAM + timedelta(hours=1)).restore(old.id)
    assert (back.text, back.valid_to, back.superseded_by) == (old.text, None, ())
    (active,) = [m for m in DreamEngine(repo, now=DREAM).memories() if m.id == old.id]
    assert (active.valid_to, active.superseded_by) == (None, ())


def test_restore_drops_an_end_a_file_itself_recorded(tmp_path: Path) -> None:
    """A version written with valid_to (by hand, by another tool) comes back without it."""
    root = tmp_path / "memory"
    repo = MemoryRepo.init(root, now=MONDAY)
    memory = operations.add_memory(repo, "Uses Vim.", topic="tools", now=MONDAY)
    retired = replace(memory, valid_to=NEXT_MONDAY, superseded_by=("m-other",))
    (root / memory.path).write_text(render_memory(retired), encoding="utf-8")
    DreamEngine(repo, now=NEXT_MONDAY).memories()  # the hand edit is committed
    operations.forget(repo, [memory.id], now=NEXT_MONDAY)
    back = DreamEngine(repo, now=DREAM).restore(memory.id)
    assert (back.valid_to, back.superseded_by) == (None, ())
    assert "valid_to" not in (root / back.path).read_text(encoding="utf-8")


def test_a_merge_holds_since_its_first_telling(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "memory", now=MONDAY)
    first = operations.add_memory(
        repo, "Prefers pytest over unittest for tests.", topic="preferences", now=MONDAY
    )
    operations.add_memory(
        repo, "Prefers pytest over unittest for the tests.", topic="preferences", now=NEXT_MONDAY
    )
    DreamEngine(repo, now=DREAM).dream(force=True)
    (merged,) = DreamEngine(repo, now=DREAM).memories("preferences")
    assert merged.valid_from == first.created == MONDAY


def test_rules_read_valid_from_supersedes_and_superseded() -> None:
    rules = load_ruleset(
        "prune:\n"
        "  - name: long-held\n"
        '    when: "valid_from > 30d and len(supersedes) > 0 and not superseded"\n',
        filename="rules.yaml",
    )
    (rule,) = [r for r in rules.prune if r.name == "long-held"]
    memory = Memory(
        id="m-1",
        topic="facts",
        slug="office",
        text="The user's office is in Lisbon.",
        created=MONDAY,
        updated=MONDAY,
        supersedes=("m-0",),
        valid_from=MONDAY - timedelta(days=40),
    )
    assert rule.when.evaluate(memory_env(memory, MONDAY)) is True
    assert rule.when.evaluate(memory_env(replace(memory, valid_from=None), MONDAY)) is False
    retired = replace(memory, valid_to=MONDAY, superseded_by=("m-2",))
    assert rule.when.evaluate(memory_env(retired, MONDAY)) is False


def test_an_old_file_without_the_fields_holds_since_it_was_created() -> None:
    memory = Memory(
        id="m-1", topic="facts", slug="a", text="Likes tea.", created=MONDAY, updated=MONDAY
    )
    text = render_memory(memory)
    assert "valid_" not in text
    again = memory_from_record(
        parse_memory_record(text, path=memory.path), path=memory.path, now=DREAM
    )
    assert (again.valid_from, again.valid_since) == (None, MONDAY)


RETIRED = Memory(
    id="m-1",
    topic="facts",
    slug="office",
    text="The user's office is in Berlin.",
    created=MONDAY,
    updated=MONDAY,
    supersedes=("m-0",),
    valid_from=MONDAY,
    valid_to=NEXT_MONDAY,
    superseded_by=("m-2",),
)


def test_the_native_front_matter_keeps_the_fields() -> None:
    text = render_memory(RETIRED)
    again = memory_from_record(
        parse_memory_record(text, path=RETIRED.path), path=RETIRED.path, now=DREAM
    )
    assert again == replace(RETIRED, name="office", description=RETIRED.text)


def test_a_sidecar_keeps_the_fields() -> None:
    fields = fields_from(meta_of(RETIRED, "sha"), DREAM)
    assert (fields["valid_from"], fields["valid_to"], fields["superseded_by"]) == (
        MONDAY,
        NEXT_MONDAY,
        ("m-2",),
    )


def test_an_export_keeps_the_fields(tmp_path: Path) -> None:
    exported = tmp_path / "export.jsonl"
    exported.write_text(export_text([RETIRED], "jsonl"), encoding="utf-8")
    (again,) = read_export("jsonl", exported, now=DREAM)
    assert (again.valid_from, again.valid_to, again.superseded_by) == (
        MONDAY,
        NEXT_MONDAY,
        ("m-2",),
    )


def test_show_history_says_what_replaced_a_version_and_when(
    superseded: tuple[MemoryRepo, Memory, Memory], tmp_path: Path
) -> None:
    _repo, old, kept = superseded
    result = CliRunner().invoke(
        cli,
        [
            "--repo",
            str(tmp_path / "memory"),
            "--now",
            DREAM.isoformat(),
            "show",
            old.id,
            "--history",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    (removal,) = [s for s in json.loads(result.stdout) if s.get("version")]
    assert (removal["valid_to"], removal["superseded_by"]) == (format_time(DREAM), [kept.id])
    shown = CliRunner().invoke(
        cli,
        [
            "--repo",
            str(tmp_path / "memory"),
            "--now",
            DREAM.isoformat(),
            "show",
            old.id,
            "--history",
        ],
    )
    assert f"superseded by {kept.id}" in shown.stdout
