"""The record cache holds rows: an older cache is parsed again, a written one is made rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamgit.model import Memory
from dreamgit.store import memorycache
from dreamgit.store.memoryfile import render_memory
from dreamgit.store.recordrow import ROW_VERSION, is_row, record_of_row
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW

#: A memory file in the shape dreamgit writes, one by hand without front matter, one broken.
FILES = {
    "memories/tools/editor.md": render_memory(
        Memory("m-q7w3e5r1", "tools", "editor", "Edits in Helix.", NOW, NOW, tags=("editor",))
    ).encode(),
    "memories/tools/shell.md": b"Writes shell scripts with two-space indents.\n",
    "memories/tools/broken.md": b"---\na: [\n---\n",
}


def _repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem", bare=True, now=NOW)
    assert repo.commit_main("hand: put files", lambda _tip: dict(FILES), now=NOW)
    return repo


def _cache(repo: MemoryRepo) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / "memories.json"


def _read(repo: MemoryRepo) -> tuple[list[str], list[str]]:
    """Every memory (as its repr: the fields left out of equality too) and broken file."""
    snapshot = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)
    return [repr(m) for m in snapshot.memories], [e.render() for e in snapshot.broken]


@pytest.mark.parametrize("held", [True, False])
def test_a_read_through_the_cache_equals_a_read_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool
) -> None:
    """Memories and broken files read with no cache, then from the cache's rows (held,
    or let go record by record as a big cache is), are the same."""
    repo = _repo(tmp_path)
    if not held:
        monkeypatch.setattr(memorycache, "_HELD", 0)
    cold = _read(repo)
    entries = json.loads(_cache(repo).read_text())
    assert len(entries) == 3 and sum(is_row(entry) for entry in entries.values()) == 2
    monkeypatch.setattr(memorycache, "parse_memory_record", _no_parse)
    assert _read(repo) == cold
    assert len(cold[0]) == 2 and len(cold[1]) == 1


def test_a_cache_of_an_older_version_is_parsed_again_and_rewritten_as_rows(
    tmp_path: Path,
) -> None:
    """Entries written by the version before rows (a dict of the record) are not read:
    each file is parsed again, whatever the old entry said, and the cache holds rows."""
    repo = _repo(tmp_path)
    cold = _read(repo)
    entries = json.loads(_cache(repo).read_text())
    older = {
        blob: {"ok": {**record_of_row(entry), "text": "Said by an older cache."}, "v": 2}
        for blob, entry in entries.items()
        if is_row(entry)
    }
    _cache(repo).write_text(json.dumps(older))
    assert _read(repo) == cold
    assert json.loads(_cache(repo).read_text()) == entries


def test_records_written_whole_after_a_clone_are_made_rows_by_the_next_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache a build of the derived store writes holds each record as it is (this
    version's, not parsed again); the next full read makes them rows and parses no file."""
    repo = _repo(tmp_path)
    cold = _read(repo)
    entries = json.loads(_cache(repo).read_text())
    written = {
        blob: {"ok": record_of_row(entry), "v": ROW_VERSION} if is_row(entry) else entry
        for blob, entry in entries.items()
    }
    _cache(repo).write_text(json.dumps(written))
    monkeypatch.setattr(memorycache, "parse_memory_record", _no_parse)
    monkeypatch.setattr(memorycache, "_FEW", 1)  # two entries made rows are worth a save
    assert _read(repo) == cold
    assert json.loads(_cache(repo).read_text()) == entries


def _no_parse(text: str, *, path: str) -> dict[str, object]:
    raise AssertionError(f"{path} was parsed")


def test_a_file_changed_after_the_cache_is_read_from_the_recent_file_as_without_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry of a file changed since the cache was written whole goes to the recent
    file (the whole map's file stays as it was); the next read parses nothing and reads
    what a read with no cache at all reads."""
    monkeypatch.setattr("dreamgit.store.parsecache._RECENT_SHARE", 1)
    repo = _repo(tmp_path)
    _read(repo)
    before = _cache(repo).read_bytes()
    changed = b"Writes shell scripts with four-space indents.\n"
    assert repo.commit_main(
        "hand: change a file", lambda _tip: {"memories/tools/shell.md": changed}, now=NOW
    )
    warm = _read(repo)
    recent = _cache(repo).with_name("memories.recent.json")
    assert _cache(repo).read_bytes() == before
    assert [is_row(entry) for entry in json.loads(recent.read_text()).values()] == [True]
    with monkeypatch.context() as parsing_nothing:
        parsing_nothing.setattr(memorycache, "parse_memory_record", _no_parse)
        assert _read(repo) == warm
    _cache(repo).unlink()
    recent.unlink()
    assert _read(repo) == warm
    assert len(warm[0]) == 2 and "four-space" in "".join(warm[0])
