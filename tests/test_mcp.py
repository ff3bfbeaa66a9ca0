"""`dreamgit mcp` as a subprocess, driven over stdio by the official SDK's own client."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from dreamgit.api import DreamEngine
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT, git

pytestmark = pytest.mark.slow


def _drive(repo: Path, body: Callable[[ClientSession], Awaitable[None]]) -> None:
    command = shutil.which("dreamgit")
    args = ["--repo", str(repo), "--now", NOW_TEXT, "mcp"]
    if command is None:  # not installed as a script: the module is the same command
        command, args = sys.executable, ["-m", "dreamgit", *args]
    params = StdioServerParameters(command=command, args=args)

    async def main() -> None:
        with open(repo.parent / "server.log", "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as streams,
                ClientSession(*streams) as session,
            ):
                await session.initialize()
                await body(session)

    anyio.run(main)


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def _error(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


@pytest.fixture
def repo_path(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    repo = MemoryRepo.init(path, now=NOW)
    DreamEngine(repo, now=NOW).add_memory("Has two cats named Miso and Tofu", topic="pets")
    return path


def test_every_tool_works_and_writes_are_commits(repo_path: Path) -> None:
    """recall, remember, forget, log_session, status and review over stdio."""
    seen: dict[str, Any] = {}

    async def body(s: ClientSession) -> None:
        names = {t.name for t in (await s.list_tools()).tools}
        assert names == {"recall", "remember", "forget", "log_session", "status", "review"}
        hits = _payload(await s.call_tool("recall", {"query": "cats", "top_k": 3}))
        assert hits["results"][0]["text"] == "Has two cats named Miso and Tofu"
        added = _payload(
            await s.call_tool(
                "remember", {"text": "Drinks oat milk", "topic": "food", "tags": ["diet"]}
            )
        )
        seen["added"] = added["id"]
        session = _payload(await s.call_tool("log_session", {"text": "User: hi, I am Ada."}))
        seen["session"] = session["id"]
        dry = _payload(await s.call_tool("forget", {"match": "oat milk", "dry_run": True}))
        assert dry == {"dry_run": True, "forgotten": [added["id"]], "protected": []}
        gone = _payload(await s.call_tool("forget", {"ids": [added["id"]]}))
        assert gone == {"dry_run": False, "forgotten": [added["id"]]}
        status = _payload(await s.call_tool("status", {}))
        assert status["memories"] == 1
        review = _payload(await s.call_tool("review", {"force": True}))
        assert review["applied"] is False

    before = git(repo_path, "rev-parse", "main").strip()
    _drive(repo_path, body)
    log = git(repo_path, "log", "--topo-order", "--format=%s", f"{before}..main").splitlines()
    assert log == [
        f"forget: {seen['added']}",
        f"log: session {seen['session']}",
        f"add: {seen['added']} food/drinks-oat-milk",
        "recall: 1 recall signal(s) recorded",  # the writer commits the spool first
    ]


def test_resources_serve_the_index_and_each_memory(repo_path: Path) -> None:
    """MEMORY.md, the list of memories and one memory by id; an unknown id is an MCP error."""
    ident = MemoryRepo.open(repo_path).memories(now=NOW)[0].id

    async def body(s: ClientSession) -> None:
        uris = {str(r.uri) for r in (await s.list_resources()).resources}
        assert uris == {"dreamgit://MEMORY.md", "dreamgit://memories"}
        templates = (await s.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["dreamgit://memory/{memory_id}"]
        index = (await s.read_resource("dreamgit://MEMORY.md")).contents[0]
        assert index.text.startswith("<!-- dreamgit:generated")  # type: ignore[union-attr]
        listing = (await s.read_resource("dreamgit://memories")).contents[0]
        assert [m["id"] for m in json.loads(listing.text)] == [ident]  # type: ignore[union-attr]
        one = (await s.read_resource(f"dreamgit://memory/{ident}")).contents[0]
        assert "Has two cats named Miso and Tofu" in one.text  # type: ignore[union-attr]
        with pytest.raises(MCPError, match="no active memory with id m-nope"):
            await s.read_resource("dreamgit://memory/m-nope")

    _drive(repo_path, body)


def test_bad_arguments_get_errors_and_change_nothing(repo_path: Path) -> None:
    """Schema violations and dreamgit errors come back as tool errors; no commit is made."""
    before = git(repo_path, "rev-parse", "main").strip()

    async def body(s: ClientSession) -> None:
        assert "top_k" in _error(await s.call_tool("recall", {"query": "cats", "top_k": 0}))
        assert "query" in _error(await s.call_tool("recall", {}))
        bad_topic = _error(await s.call_tool("remember", {"text": "x y z", "topic": "Bad Topic"}))
        assert "topic" in bad_topic
        bad_priority = _error(
            await s.call_tool("remember", {"text": "x y z", "topic": "ok", "priority": "urgent"})
        )
        assert "priority" in bad_priority
        assert _error(await s.call_tool("forget", {"ids": ["m-nope"]})).endswith(
            "no active memory with id m-nope\nhint: list ids with `dreamgit memories`"
        )
        assert "forget needs ids or at least one of --match" in _error(
            await s.call_tool("forget", {})
        )
        assert "older_than" in _error(await s.call_tool("forget", {"older_than": "soon"}))
        assert "text" in _error(await s.call_tool("log_session", {"text": ""}))
        # The server is still up and answers after every bad call.
        assert _payload(await s.call_tool("status", {}))["memories"] == 1

    _drive(repo_path, body)
    assert git(repo_path, "rev-parse", "main").strip() == before
