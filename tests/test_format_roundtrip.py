"""Reading a folder of any format and writing it back with no operation changes no byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatkit import T0, claude_file, git, write
from test_format_claude import ok

SETTLED: dict[str, dict[str, bytes]] = {
    "claude-code": {
        "build.md": claude_file("build", "the build uses make", "project", "The build uses make."),
        "MEMORY.md": b"- [Build](build.md) \xe2\x80\x94 the build uses make\r\n\r\nNotes\r\n",
        "README.md": b"Not a memory.\n",
    },
    "hermes": {
        "MEMORY.md": "The build uses make\n§\nThe laptop runs Fedora 41".encode(),
        "USER.md": "Name: Ana\n§\nWorks from Porto\n".encode(),
    },
    "openclaw": {
        "MEMORY.md": b"# Memory\n\n## About Ana\n- Ana works from Porto.\r\n",
        "AGENTS.md": b"# Agents\n",
        "memory/2026-11-09.md": b"## 09:00 - Standup\n- Reviewed the backlog.\n",
    },
    "dreamgit": {
        "memories/work/build.md": b"---\nname: build\nowner: me\r\n---\nThe build uses make.\r\n",
    },
}


@pytest.mark.parametrize("fmt", sorted(SETTLED))
def test_a_settled_folder_is_read_and_left_byte_for_byte(tmp_path: Path, fmt: str) -> None:
    """init and forced dreams with nothing to do: no byte of the agent's files moves."""
    root = tmp_path / "folder"
    files = SETTLED[fmt]
    root.mkdir()
    write(root, files)
    ok(root, "init", str(root), "--format", fmt, now=T0)
    first = json.loads(ok(root, "run", "--force", "--json").stdout)
    # dreamgit's own index is generated: its first dream lists the memory there.
    allowed = ("diary", "index") if fmt == "dreamgit" else ("diary",)
    assert not [o for o in first["ops"] if o["op"] not in allowed]
    again = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert again["ops"] == []
    assert {rel: (root / rel).read_bytes() for rel in files} == files
    assert git(root, "status", "--porcelain") == ""


def test_a_hand_written_index_in_dreamgits_layout_is_kept_not_clobbered(tmp_path: Path) -> None:
    """An adopted MEMORY.md without dreamgit's marker keeps its lines; new ones go in a fence."""
    root = tmp_path / "folder"
    hand = b"# My notes\n\n- Call the bank on Monday.\n"
    write(root, {"MEMORY.md": hand})
    ok(root, "init", str(root), now=T0)
    ok(root, "add", "The build uses make.", "--topic", "work", now=T0)
    ok(root, "run", "--force")
    index = (root / "MEMORY.md").read_bytes()
    assert index.startswith(hand)
    assert b"<!-- dreamgit:generated index" in index and b"(memories/work/" in index
