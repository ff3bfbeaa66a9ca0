"""After an MCP ``remember`` or ``forget``, a hook's recall answers from the derived store.

The MCP write tools keep the recall view of the commit they make, as ``dreamgit add``
and ``forget`` do, so the prompt hook that runs next opens no git; what it prints is
what the full path prints (a copy of the repository without the derived store).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from dreamgit.api import DreamEngine
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT
from mcpkit import drive, payload
from test_claude_hooks_imports import _loaded

if TYPE_CHECKING:  # the SDK is imported when a server is driven (mcpkit)
    from mcp.client.session import ClientSession

pytestmark = pytest.mark.slow

PROMPT = {"prompt": "which bike does the user ride"}


def _both_paths(repo: Path, copy: Path) -> tuple[str, set[str], str, set[str]]:
    """The prompt hook's output and imports in ``repo``, then in a copy of it whose derived
    store is gone (the full path)."""
    cached, cached_modules = _loaded(repo, "prompt-submit", PROMPT)
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(repo, copy, symlinks=True)
    shutil.rmtree(copy / ".git" / "dreamgit" / "cache")
    full, full_modules = _loaded(copy, "prompt-submit", PROMPT)
    return cached, cached_modules, full, full_modules


def test_a_hook_recall_after_mcp_remember_and_forget_takes_the_cached_path(
    tmp_path: Path,
) -> None:
    """remember then forget over MCP: each time the hook opens no git and answers as the
    full path does (the remembered text in, then out)."""
    repo = tmp_path / "mem"
    DreamEngine(MemoryRepo.init(repo, now=NOW), now=NOW).add_memory(
        "Keeps the bike pump in the hallway cupboard", topic="home"
    )
    _loaded(repo, "prompt-submit", PROMPT)  # the full path keeps a view of this commit
    seen: list[tuple[str, set[str], str, set[str]]] = []

    async def body(s: ClientSession) -> None:
        added = payload(
            await s.call_tool("remember", {"text": "Rides a green gravel bike", "topic": "me"})
        )
        seen.append(_both_paths(repo, tmp_path / "full-1"))
        await s.call_tool("forget", {"ids": [added["id"]]})
        seen.append(_both_paths(repo, tmp_path / "full-2"))

    drive(repo, NOW_TEXT, body)
    (after_add, add_modules, full_add, full_add_modules), after_forget = seen
    assert "Rides a green gravel bike" in after_add and after_add == full_add
    assert "pygit2" not in add_modules and "pygit2" in full_add_modules
    cached, modules, full, _ = after_forget
    assert "Rides a green gravel bike" not in cached and cached == full
    assert "bike pump" in cached and "pygit2" not in modules
