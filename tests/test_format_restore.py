"""forget and restore in other agents' formats, through the installed command.

A Claude Code, a Hermes and an OpenClaw folder are adopted; one memory is
forgotten; every other command still works; ``restore`` (latest, then
``--version 1``) brings the file and the format's index back byte for byte.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from clikit import dreamgit, prepared
from formatkit import claude_folder_on_master, git, hermes_folder, openclaw_workspace
from mcpkit import drive, payload

if TYPE_CHECKING:  # the SDK is imported when a server is driven (mcpkit)
    from mcp.client.session import ClientSession

pytestmark = pytest.mark.slow

NOW = "2026-11-12T10:00:00Z"

#: layout → (how the folder is made, a text of the memory to forget, the file it lives in)
LAYOUTS: dict[str, tuple[Callable[[Path], object], str, str]] = {
    "claude-code": (
        claude_folder_on_master,
        "The staging deploy takes about four minutes",
        "staging-deploy.md",
    ),
    "hermes": (hermes_folder, "This machine runs Ubuntu 22.04", "MEMORY.md"),
    "openclaw": (openclaw_workspace, "Prefers short answers in English.", "MEMORY.md"),
}


def _agent_files(root: Path) -> dict[str, bytes]:
    """Every file of the folder but git's and the recall signals (recall leaves those)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
        and ".git" not in p.parts
        and not p.name.startswith("recall")
        and "recalls" not in p.parts
    }


def _find(root: Path, text: str) -> dict[str, str]:
    memories = json.loads(dreamgit(root, NOW, "memories", "--json"))
    return next(m for m in memories if m["text"].startswith(text))


def _every_other_command_works(root: Path, gone: str) -> None:
    """status, memories, recall, show, review and run all exit 0 after the forget."""
    assert gone not in dreamgit(root, NOW, "memories")
    dreamgit(root, NOW, "status")
    dreamgit(root, NOW, "recall", "pnpm")
    other = json.loads(dreamgit(root, NOW, "memories", "--json"))[0]["id"]
    dreamgit(root, NOW, "show", other)
    dreamgit(root, NOW, "review", "--force")
    dreamgit(root, NOW, "run", "--force", "--no-merge")
    dreamgit(root, NOW, "history")


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_forget_then_restore_brings_file_and_index_back_byte_for_byte(
    tmp_path: Path, layout: str
) -> None:
    """forget → every command works → restore, then restore --version 1: same bytes."""
    make, text, file = LAYOUTS[layout]
    root = tmp_path / layout
    make(root)
    prepared(root, NOW, "init", str(root))
    before = _agent_files(root)
    memory = _find(root, text)
    for args in ((), ("--version", "1")):
        out = dreamgit(root, NOW, "forget", memory["id"])
        assert out == f"forgot {memory['id']} ({file})\n"
        assert _agent_files(root) != before
        if layout == "claude-code":
            assert "staging-deploy.md" not in (root / "MEMORY.md").read_text(encoding="utf-8")
        if not args:
            _every_other_command_works(root, memory["id"])
        out = dreamgit(root, NOW, "restore", memory["id"], *args)
        assert out.startswith(f"restored {memory['id']} ({file})")
        assert _agent_files(root) == before
        assert _find(root, text)["id"] == memory["id"]
        assert git(root, "status", "--porcelain") == ""


def test_restore_of_a_claude_file_whose_name_is_taken_says_what_to_do(tmp_path: Path) -> None:
    """A new file took the forgotten one's name: restore stops and names it."""
    root = tmp_path / "claude"
    claude_folder_on_master(root)
    prepared(root, NOW, "init", str(root))
    memory = _find(root, "The staging deploy")
    dreamgit(root, NOW, "forget", memory["id"])
    (root / "staging-deploy.md").write_text("---\nname: other\n---\nSomething else.\n")
    done = subprocess.run(
        ["dreamgit", "--now", NOW, "--repo", str(root), "restore", memory["id"]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"error: staging-deploy.md: is in use by another file, so {memory['id']} cannot come "
        "back under its name\n"
        f"hint: rename or forget that file, then restore {memory['id']} again\n"
    )


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_same_through_mcp_tools(tmp_path: Path, layout: str) -> None:
    """MCP forget → status and recall still answer → restore, latest then version 1."""
    make, text, file = LAYOUTS[layout]
    root = tmp_path / layout
    make(root)
    prepared(root, NOW, "init", str(root))
    before = _agent_files(root)
    ident = _find(root, text)["id"]

    async def body(s: ClientSession) -> None:
        for args in ({}, {"version": 1}):
            gone = payload(await s.call_tool("forget", {"ids": [ident]}))
            assert gone == {"dry_run": False, "forgotten": [ident]}
            assert _agent_files(root) != before
            assert payload(await s.call_tool("status", {}))["format"] == layout
            payload(await s.call_tool("recall", {"query": "pnpm"}))
            back = payload(await s.call_tool("restore", {"memory_id": ident, **args}))
            assert (back["id"], back["path"]) == (ident, file)
            assert _agent_files(root) == before

    drive(root, NOW, body)
    assert (root.parent / "server.log").read_text() == ""
