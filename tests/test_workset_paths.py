"""The working set's paths: those of the active memories, and those a new file must not take.

Over 100,000 memories the set held every path three times (the files held, their set, the
taken ones); it now holds them once, in the count of memories each file holds, and the
files a new memory must not take are those, the ones the dream emptied and the tree's
other files.
"""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.workset import WorkingSet
from dreamgit.model import Memory
from dreamgit.store.formats.claude import ClaudeCodeFormat

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def _memory(ident: str, slug: str, text: str) -> Memory:
    return Memory(ident, "notes", slug, text, NOW, NOW, file=f"{slug}.md")


def _working_set() -> WorkingSet:
    memories = [_memory("m-1", "alpha", "Alpha fact."), _memory("m-2", "beta", "Beta fact.")]
    return WorkingSet(memories, lambda _path: "", ClaudeCodeFormat(), files=["gamma.md"])


def test_an_emptied_file_leaves_the_paths_but_stays_taken() -> None:
    """Removing alpha's only memory: alpha.md is no path of the set any more, and a new
    memory of slug alpha does not land on it, nor on the tree's other file gamma.md."""
    ws = _working_set()
    assert set(ws.paths) == {"alpha.md", "beta.md"}
    ws.file_for_removal(ws.active["m-1"])
    assert set(ws.paths) == {"beta.md"}
    assert "alpha.md" in ws.taken and "gamma.md" in ws.taken and "delta.md" not in ws.taken
    assert ws.place(_memory("m-3", "alpha", "Alpha again.")).path == "alpha-2.md"
    assert ws.place(_memory("m-4", "gamma", "Gamma fact.")).path == "gamma-2.md"


def test_a_new_memory_s_file_joins_the_paths_and_the_taken_ones() -> None:
    """A new memory's file is a path of the set and taken; the emptied files the plan
    reports are the paths at the start less those now held."""
    ws = _working_set()
    before = set(ws.paths)
    ws.file_for_new(_memory("m-3", "delta", "Delta fact."))
    ws.file_for_removal(ws.active["m-2"])
    assert set(ws.paths) == {"alpha.md", "delta.md"}
    assert "delta.md" in ws.taken and "beta.md" in ws.taken
    assert before.difference(ws.paths) == {"beta.md"}
    assert ws.slugs("notes") == set()
