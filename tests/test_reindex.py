"""MEMORY.md stays true after every command that changes the active memories."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.dream.reindex import renderer
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW_TEXT, fsck, git

LINK = re.compile(r"\]\((memories/[^)]+)\)")


def _run(repo: Path, *args: str, now: str = NOW_TEXT) -> Result:
    result = CliRunner().invoke(cli, ["--repo", str(repo), "--now", now, *args])
    assert result.exit_code == 0, result.output
    return result


def _listed(repo: Path) -> set[str]:
    """The memory files MEMORY.md links to, as committed on main."""
    return set(LINK.findall(git(repo, "show", "main:MEMORY.md")))


def _active(repo: Path) -> set[str]:
    return {m["path"] for m in json.loads(_run(repo, "memories", "--json").stdout)}


def _last_commit_files(repo: Path) -> set[str]:
    return set(git(repo, "show", "--format=", "--name-only", "main").split())


def _repo(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    _run(tmp_path, "init", str(path))
    return path


def test_add_forget_and_restore_rewrite_the_index_in_the_same_commit(tmp_path: Path) -> None:
    """Each of add, forget and restore is one commit holding the memory file and MEMORY.md."""
    repo = _repo(tmp_path)
    tea = json.loads(_run(repo, "add", "Prefers green tea", "--topic", "prefs", "--json").stdout)
    vim = json.loads(
        _run(repo, "add", "Prefers vim over emacs", "--topic", "tools", "--json").stdout
    )
    assert _listed(repo) == _active(repo) == {tea["path"], vim["path"]}
    assert _last_commit_files(repo) == {vim["path"], "MEMORY.md"}
    _run(repo, "forget", tea["id"])
    assert _listed(repo) == _active(repo) == {vim["path"]}
    assert _last_commit_files(repo) == {tea["path"], "MEMORY.md"}
    _run(repo, "restore", tea["id"])
    assert _listed(repo) == _active(repo) == {tea["path"], vim["path"]}
    assert (repo / "MEMORY.md").read_text(encoding="utf-8") == git(repo, "show", "main:MEMORY.md")
    fsck(repo)


def test_revert_of_an_add_takes_it_out_of_the_index_in_the_revert_commit(tmp_path: Path) -> None:
    """`revert RUN --op N` of an add: MEMORY.md no longer links the file, in that one commit."""
    repo = _repo(tmp_path)
    for text in ("I prefer green tea.", "I prefer vim over emacs.", "I live in Lisbon."):
        _run(repo, "log", f"User: {text}")
    record = json.loads(_run(repo, "run", "--json").stdout)
    add = next(op for op in record["ops"] if op["op"] == "add")
    path = add["after"][0]["path"]
    assert path in _listed(repo)
    out = json.loads(_run(repo, "revert", record["run_id"], "--op", str(add["n"]), "--json").stdout)
    assert path not in _listed(repo) and _listed(repo) == _active(repo)
    assert out["reverted"][0]["revert"] == git(repo, "rev-parse", "main").strip()
    assert _last_commit_files(repo) == {path, "MEMORY.md"}
    fsck(repo)


def test_merge_of_a_reviewed_run_after_an_add_renders_the_index_for_both(tmp_path: Path) -> None:
    """A dream left for review, then an add on main: merge is clean and the index lists all."""
    repo = _repo(tmp_path)
    for text in ("I prefer green tea.", "I prefer vim over emacs.", "I live in Lisbon."):
        _run(repo, "log", f"User: {text}")
    record = json.loads(_run(repo, "run", "--no-merge", "--json").stdout)
    _run(repo, "add", "Prefers short meetings", "--topic", "work")
    merged = json.loads(_run(repo, "merge", record["run_id"], "--json").stdout)
    assert merged["merge"] == "merge"
    assert _listed(repo) == _active(repo) and len(_active(repo)) == 4
    fsck(repo)


def test_an_index_written_by_hand_is_left_alone(tmp_path: Path) -> None:
    """A MEMORY.md someone wrote themselves is not rewritten by add."""
    repo = _repo(tmp_path)
    (repo / "MEMORY.md").write_text("# My own index\n", encoding="utf-8")
    _run(repo, "add", "Prefers green tea", "--topic", "prefs")
    assert git(repo, "show", "main:MEMORY.md") == "# My own index\n"


def test_a_repository_opened_with_an_index_renderer_lists_what_a_write_adds(
    tmp_path: Path,
) -> None:
    """The renderer is passed when the repository is opened; opened without one, a write
    leaves MEMORY.md to the next dream."""
    path = _repo(tmp_path)
    now = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    plain = MemoryRepo.open(path)
    assert plain.indexer is None
    operations.add_memory(plain, "Keeps a sourdough starter", topic="food", now=now)
    assert _listed(path) == set()
    indexed = MemoryRepo.open(path, index=renderer(lambda: now))
    added = operations.add_memory(indexed, "Bakes rye on Sundays", topic="food", now=now)
    assert f"memories/food/{added.slug}.md" in _listed(path)
    assert len(_listed(path)) == 2  # the index is rendered for all memories at the commit
