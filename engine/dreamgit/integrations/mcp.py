"""``dreamgit mcp``: the memory as an MCP server over stdio, on the official ``mcp`` SDK.

Tools: ``recall``, ``remember``, ``forget``, ``restore``, ``log_session``, ``status`` and
``review`` (a dry run: reads only). Resources: ``dreamgit://MEMORY.md`` (the
index), ``dreamgit://memories`` (every active memory's id, path and
description) and ``dreamgit://memory/{memory_id}`` (one memory file). Nothing is
checked leniently: unknown arguments and wrong types are refused before a
tool runs (``mcp_server``), and a bad call or a dreamgit error is an MCP error with
a one-line message and a hint, never a crash of the server. The tools and their
described parameters are in ``mcp_tools``. Every write is the ordinary dreamgit
commit on main (compare-and-swap) with MEMORY.md rewritten in it, so a failed
call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from dreamgit.clock import utcnow
from dreamgit.dream.reindex import renderer
from dreamgit.integrations.mcp_server import StrictServer
from dreamgit.integrations.mcp_tools import register_tools
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.version import __version__

__all__ = ["build_server", "serve"]


def serve(path: Path, *, now: datetime | None = None) -> None:
    """Serve the repository at ``path`` over stdio until the client goes away."""
    build_server(path, now=now).run("stdio")


def build_server(path: Path, *, now: datetime | None = None) -> MCPServer[Any]:
    """The MCP server for the repository at ``path`` (``now`` fixes the clock)."""

    def clock() -> datetime:
        return now or utcnow()

    repo = MemoryRepo.open(path, index=renderer(clock))
    repo.require_initialised()
    server = StrictServer(
        "dreamgit",
        version=__version__,
        log_level="WARNING",  # stderr is the client's log; keep it for what matters
        instructions=(
            "Long-term memory kept in git. Call recall before answering from memory; "
            "remember durable facts; log_session at the end of a conversation."
        ),
    )
    register_tools(server, repo, clock)
    _register_resources(server, repo, clock)
    return server


def _register_resources(
    server: MCPServer[Any], repo: MemoryRepo, clock: Callable[[], datetime]
) -> None:
    @server.resource(
        "dreamgit://MEMORY.md",
        name="MEMORY.md",
        description="The memory index an agent loads at the start of a conversation.",
        mime_type="text/markdown",
    )
    def index() -> str:
        return repo.read_text(layout.INDEX) or ""

    @server.resource(
        "dreamgit://memories",
        name="memories",
        description="Every active memory: id, topic, path, description (JSON).",
        mime_type="application/json",
    )
    def memories() -> list[dict[str, Any]]:
        found = repo.snapshot(now=clock()).memories
        return [
            {"id": m.id, "topic": m.topic, "path": m.path, "description": m.description}
            for m in found
        ]

    @server.resource(
        "dreamgit://memory/{memory_id}",
        name="memory",
        description="One memory file (front matter and text) by id.",
        mime_type="text/markdown",
    )
    def memory(memory_id: str) -> str:
        found = repo.snapshot(now=clock()).by_id().get(memory_id)
        if found is None:
            raise ResourceNotFoundError(f"no active memory with id {memory_id}")
        return repo.read_text(found.path) or ""
