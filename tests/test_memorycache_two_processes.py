"""The record cache filled in two processes holds, byte for byte, what one process fills."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from dreamgit.model import Memory
from dreamgit.store import forkhalves
from dreamgit.store.memorycache import MemoryFiles
from dreamgit.store.memoryfile import render_memory
from dreamgit.store.repo import MemoryRepo
from forkcount import counted_forks
from gitcheck import NOW

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")


def _files() -> dict[str, bytes | None]:
    """Memory files of every kind a read tells apart: dreamgit's shape, a hand-written
    file, a broken one, two files of one blob (the second states a known id)."""
    files: dict[str, bytes | None] = {}
    for k in range(12):
        memory = Memory(f"m-{k:04d}abcd", "tools", f"tool-{k}", f"Uses tool {k} daily.", NOW, NOW)
        files[f"memories/tools/tool-{k}.md"] = render_memory(memory).encode()
    files["memories/notes/hand.md"] = b"Writes shell scripts with two-space indents.\n"
    files["memories/notes/broken.md"] = b"---\na: [\n---\n"
    files["memories/zzz/copy.md"] = files["memories/tools/tool-3.md"]
    return files


def _repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem", bare=True, now=NOW)
    assert repo.commit_main("hand: put files", lambda _tip: _files(), now=NOW)
    return repo


def _cache(repo: MemoryRepo) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / "memories.json"


def _read(repo: MemoryRepo) -> tuple[list[str], list[str], bytes]:
    """Every memory (its repr), broken file and the record cache's bytes after a read."""
    snapshot = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)
    memories = [repr(m) for m in snapshot.memories]
    return memories, [e.render() for e in snapshot.broken], _cache(repo).read_bytes()


def _alone(repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """A read with no record cache, in one process."""
    _cache(repo).unlink(missing_ok=True)
    with monkeypatch.context() as m:
        m.setattr(forkhalves, "SPLIT_AT", 10**9)
        return _read(repo)


def test_a_first_read_in_two_processes_is_the_one_process_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    alone = _alone(repo, monkeypatch)
    _cache(repo).unlink()
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(forkhalves, "SPLIT_AT", 2)
    assert _read(repo) == alone
    assert forks == [1]
    assert len(alone[0]) == 13 and len(alone[1]) == 2  # the broken file, the second copy
    assert _read(repo) == alone  # a warm read parses nothing: no fork
    assert forks == [1]


def _failing_child(parent: int, how: str) -> Callable[[MemoryFiles, Sequence[Any]], list[Any]]:
    real = MemoryFiles._entries

    def entries(self: MemoryFiles, files: Sequence[tuple[str, str]]) -> list[Any]:
        if os.getpid() != parent:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            return real(self, files[:1])  # sends too few
        return real(self, files)

    return entries


@pytest.mark.parametrize("how", ["killed", "short"])
def test_a_child_that_dies_or_sends_too_little_leaves_the_same_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    repo = _repo(tmp_path)
    alone = _alone(repo, monkeypatch)
    _cache(repo).unlink()
    monkeypatch.setattr(forkhalves, "SPLIT_AT", 2)
    monkeypatch.setattr(MemoryFiles, "_entries", _failing_child(os.getpid(), how))
    assert _read(repo) == alone


def _older(entries: dict[str, Any]) -> dict[str, Any]:
    """The entries as the version before rows wrote them (each blob parsed again)."""
    return {blob: {"ok": {"text": "Said by an older cache."}, "v": 2} for blob in entries}


def _stale(entries: dict[str, Any]) -> dict[str, Any]:
    """Half the entries, and one of a blob no longer read (other memories)."""
    kept = dict(list(entries.items())[: len(entries) // 2])
    return {"0" * 40: ["not", "read"], **kept}


@pytest.mark.parametrize("damage", ["older", "stale", "damaged"])
def test_a_cache_of_other_code_stale_or_damaged_is_filled_in_two_processes_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    repo = _repo(tmp_path)
    alone = _alone(repo, monkeypatch)
    entries = json.loads(_cache(repo).read_text())
    if damage == "damaged":
        _cache(repo).write_text('{"half": [3, ')
    else:
        other = _older(entries) if damage == "older" else _stale(entries)
        _cache(repo).write_text(json.dumps(other))
    forks = counted_forks(monkeypatch)
    monkeypatch.setattr(forkhalves, "SPLIT_AT", 2)
    assert _read(repo) == alone
    assert forks == [1]
