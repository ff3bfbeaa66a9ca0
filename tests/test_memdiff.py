"""memdiff: memories compared by id between revisions and runs (added, removed, changed fields)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_git  # noqa: F401 - registers merge, revert, diff, history
from dreamgit.cli import cli
from dreamgit.demo import build_demo
from dreamgit.errors import NotFoundError
from dreamgit.history.memdiff import compare, memory_diff
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, Seed, build_repo, invoke, invoke_json, iso
from gitcheck import NOW, NOW_TEXT
from llm_support import check_golden


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A memory repository with main checked out."""
    return MemoryRepo.init(tmp_path / "mem", now=NOW)


def _edit(repo: MemoryRepo, path: str, old: str, new: str) -> None:
    """An agent's hand edit of one memory file, committed on main."""
    text = repo.read_text(path) or ""
    assert old in text
    repo.commit_main(f"edit {path}", lambda _tip: {path: text.replace(old, new).encode()}, now=NOW)


def test_diff_reports_added_removed_and_changed_fields(repo: MemoryRepo) -> None:
    """Between two revisions: a new memory, a forgotten one, and the fields of an edited one."""
    keep = operations.add_memory(repo, "Prefers pytest", topic="preferences", now=NOW)
    gone = operations.add_memory(repo, "Uses Flask", topic="stack", now=NOW)
    start = repo.tip()
    operations.forget(repo, [gone.id], now=NOW)
    _edit(repo, keep.path, "\nPrefers pytest", "\nPrefers pytest with xdist")
    _edit(repo, keep.path, "priority: normal", "priority: high")
    new = operations.add_memory(repo, "Deploys on Fridays", topic="work", now=NOW)
    result = memory_diff(repo, start, "main", now=NOW)
    assert [m["id"] for m in result.added] == [new.id]
    assert result.added[0]["text"] == "Deploys on Fridays"
    assert [m["id"] for m in result.removed] == [gone.id]
    assert result.changed == [
        {
            "id": keep.id,
            "path": "memories/preferences/prefers-pytest.md",
            "fields": {
                "priority": {"old": "normal", "new": "high"},
                "text": {"old": "Prefers pytest", "new": "Prefers pytest with xdist"},
            },
        }
    ]
    assert result.a.commit == start and result.b.commit == repo.tip()


def test_diff_of_a_state_with_itself_is_empty(repo: MemoryRepo) -> None:
    """The same revision on both sides gives no difference at all."""
    operations.add_memory(repo, "Prefers pytest", topic="preferences", now=NOW)
    result = memory_diff(repo, "main", "main", now=NOW)
    assert result.is_empty
    assert result.to_json()["added"] == [] and result.to_json()["changed"] == []


def test_list_changes_name_the_whole_field_once(repo: MemoryRepo) -> None:
    """A tag added to a list is one changed field ``tags`` with the whole old and new list."""
    before = {"m-1": {"id": "m-1", "path": "p", "tags": ["a"]}}
    after = {"m-1": {"id": "m-1", "path": "p", "tags": ["a", "b", "c"]}}
    assert compare(before, after)["changed"] == [
        {"id": "m-1", "path": "p", "fields": {"tags": {"old": ["a"], "new": ["a", "b", "c"]}}}
    ]


def test_states_sharing_few_ids_are_compared_memory_by_memory() -> None:
    """Mostly new ids and a memory with every field changed: named one by one, never as a whole."""
    before = {"m-1": {"id": "m-1", "path": "p", "text": "a", "tags": ["x"]}}
    after = {
        "m-1": {"id": "m-1", "path": "p", "text": "b", "tags": ["y"]},
        **{f"m-{n}": {"id": f"m-{n}", "path": f"p{n}"} for n in range(2, 5)},
    }
    result = compare(before, after)
    assert [m["id"] for m in result["added"]] == ["m-2", "m-3", "m-4"]
    assert result["changed"] == [
        {
            "id": "m-1",
            "path": "p",
            "fields": {
                "tags": {"old": ["x"], "new": ["y"]},
                "text": {"old": "a", "new": "b"},
            },
        }
    ]
    assert compare(before, {})["removed"] == [before["m-1"]]


def test_without_runs_the_default_is_main_against_its_parent(repo: MemoryRepo) -> None:
    """No A and no B: main~1 against main, so the last commit's memories show."""
    memory = operations.add_memory(repo, "Prefers pytest", topic="preferences", now=NOW)
    result = memory_diff(repo, now=NOW)
    assert (result.a.label, result.b.label) == ("main~1", "main")
    assert [m["id"] for m in result.added] == [memory.id]


def test_a_name_that_is_no_run_and_no_revision_is_refused(repo: MemoryRepo) -> None:
    """An unknown side names itself and says what a side can be."""
    with pytest.raises(NotFoundError) as caught:
        memory_diff(repo, "nope", now=NOW)
    assert caught.value.render() == (
        "'nope' is neither a run nor a revision\n"
        "hint: name a run (`dreamgit history` lists them; RUN^ is the state before it), "
        "a branch, a commit id, or something like main~2"
    )


def test_unreadable_memory_files_are_listed_not_raised(repo: MemoryRepo) -> None:
    """A broken file on one side is left out of the comparison and reported."""
    start = repo.tip()
    bad = "memories/x/broken.md"
    repo.commit_main("broken", lambda _tip: {bad: b"---\n: [\n---\nbody\n"}, now=NOW)
    result = memory_diff(repo, start, "main", now=NOW)
    assert result.is_empty
    assert result.unreadable == {"b": [bad]}


def test_cli_diff_prints_text_and_json(repo: MemoryRepo, tmp_path: Path) -> None:
    """`diff A B` prints one line per memory and a count; --json the same as data."""
    start = repo.tip() or ""
    memory = operations.add_memory(
        repo, "Prefers pytest", topic="preferences", now=NOW + timedelta(hours=1)
    )
    args = ["--repo", str(tmp_path / "mem"), "--now", NOW_TEXT, "diff", start, "main"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"memories: {start} ({start[:12]}) → main ({(repo.tip() or '')[:12]})\n"
        f"+ {memory.id}  memories/preferences/prefers-pytest.md\n"
        '    "Prefers pytest"\n'
        "1 added, 0 removed, 0 changed\n"
    )
    as_json = CliRunner().invoke(cli, [*args, "--json"])
    data = json.loads(as_json.output)
    assert data["added"][0]["created"] == "2026-11-22T04:00:00Z"
    assert data["a"] == {"label": start, "commit": start}


def test_cli_diff_unknown_side_exits_1(repo: MemoryRepo, tmp_path: Path) -> None:
    """A bad side is a user error: exit 1 and the message on stderr."""
    result = CliRunner().invoke(cli, ["--repo", str(tmp_path / "mem"), "diff", "nope"])
    assert result.exit_code == 1
    assert "error: 'nope' is neither a run nor a revision" in result.stderr


def _normalized(output: str, run_id: str) -> str:
    """Diff text without what differs between machines: the run id and the commit ids."""
    first, rest = output.split("\n", 1)
    assert first.startswith(f"memories: {run_id}^ (") and first.endswith(")"), first
    return "memories: RUN^ (A) → main (B)\n" + rest


def test_diff_right_after_the_demo_lists_every_memory_the_dream_changed(tmp_path: Path) -> None:
    """The quick start's `dreamgit demo` then `dreamgit diff`: a golden diff, not a crash."""
    demo = build_demo(tmp_path / "demo")
    run_id = demo.record["run_id"]
    args = ["--repo", str(tmp_path / "demo"), "--now", iso(demo.dreamed_at), "diff"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    check_golden("diff/after-demo.txt", _normalized(result.output, run_id))
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert data["a"]["label"] == f"{run_id}^"
    counts = f"{len(data['added'])} added, {len(data['removed'])} removed"
    assert result.output.endswith(f"{counts}, {len(data['changed'])} changed\n")


def test_diff_after_a_run_that_more_than_doubles_the_memories(tmp_path: Path) -> None:
    """One memory, five sessions of new facts: the diff names each added memory."""
    repo = build_repo(tmp_path / "mem", memories=[Seed("Prefers pytest.", "preferences")])
    record = invoke_json(repo, "run")
    assert len(repo.snapshot(now=DREAM_AT).memories) > 2
    result = invoke(repo, "diff")
    assert result.exit_code == 0, result.output
    check_golden("diff/after-doubling-run.txt", _normalized(result.output, record["run_id"]))
    data = invoke_json(repo, "diff")
    assert [m["id"] for m in data["added"]] == sorted(
        m.id for m in repo.snapshot(now=DREAM_AT).memories if m.text != "Prefers pytest."
    )


def test_a_number_written_another_way_and_a_new_field_are_told_apart() -> None:
    """confidence 1 against 1.0 is no change; a field only one side has is a change."""
    before = {"m-1": {"id": "m-1", "path": "p", "confidence": 1, "tags": ["x", "y"]}}
    after = {"m-1": {"id": "m-1", "path": "p", "confidence": 1.0, "tags": ["x", "y"], "key": "k"}}
    assert compare(before, after)["changed"] == [
        {"id": "m-1", "path": "p", "fields": {"key": {"old": None, "new": "k"}}}
    ]
    assert compare(before, before) == {"added": [], "removed": [], "changed": []}
