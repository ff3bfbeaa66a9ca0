"""``dreamgit mcp``: the memory as an MCP server over stdio, on the official ``mcp`` SDK.

Tools: ``recall``, ``remember``, ``forget``, ``log_session``, ``status`` and
``review`` (a dry run: reads only). Resources: ``dreamgit://MEMORY.md`` (the
index), ``dreamgit://memories`` (every active memory's id, path and
description) and ``dreamgit://memory/{memory_id}`` (one memory file). The SDK
checks every call's arguments against the tool's JSON schema (built from the
annotations below) before the tool runs; a dreamgit error becomes a tool error
with its message and hint, never a crash of the server. Every write is the
ordinary dreamgit commit on main (compare-and-swap), so a failed call changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from pydantic import Field

from dreamgit.clock import utcnow
from dreamgit.dream.run import dream
from dreamgit.dream.status import repo_status
from dreamgit.errors import DreamgitError
from dreamgit.recall.forgetting import ForgetFilter, forget_matching, parse_age
from dreamgit.recall.search import recall as do_recall
from dreamgit.store import layout, operations
from dreamgit.store.repo import MemoryRepo
from dreamgit.version import __version__

__all__ = ["build_server", "serve"]

T = TypeVar("T")
Priority = Literal["ephemeral", "low", "normal", "high", "core"]
MemoryType = Literal["user", "feedback", "project", "reference"]
Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]
Text = Annotated[str, Field(min_length=1, max_length=100_000)]


def serve(path: Path, *, now: datetime | None = None) -> None:
    """Serve the repository at ``path`` over stdio until the client goes away."""
    build_server(path, now=now).run("stdio")


def build_server(path: Path, *, now: datetime | None = None) -> MCPServer[Any]:
    """The MCP server for the repository at ``path`` (``now`` fixes the clock)."""
    repo = MemoryRepo.open(path)
    repo.require_initialised()
    server: MCPServer[Any] = MCPServer(
        "dreamgit",
        version=__version__,
        log_level="WARNING",  # stderr is the client's log; keep it for what matters
        instructions=(
            "Long-term memory kept in git. Call recall before answering from memory; "
            "remember durable facts; log_session at the end of a conversation."
        ),
    )

    def clock() -> datetime:
        return now or utcnow()

    def guarded(call: Callable[[], T]) -> T:
        try:
            return call()
        except DreamgitError as exc:
            raise ToolError(exc.render()) from None

    @server.tool(description="Active memories that answer a query, best first, within a budget.")
    def recall(
        query: Text,
        top_k: Annotated[int, Field(ge=1, le=200)] | None = None,
        chars: Annotated[int, Field(ge=1, le=1_000_000)] | None = None,
        topic: Name | None = None,
        type: MemoryType | None = None,
        scope: Name | None = None,
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            found = do_recall(
                repo,
                query,
                now=clock(),
                top_k=top_k,
                chars=chars,
                topic=topic,
                type=type,
                scope=scope,
            )
            return found.to_dict()

        return guarded(run)

    @server.tool(description="Add a memory (one commit); returns it with its id.")
    def remember(
        text: Text,
        topic: Name,
        priority: Priority = "normal",
        tags: list[Name] | None = None,
        key: Annotated[str, Field(min_length=1, max_length=200)] | None = None,
        type: MemoryType = "user",
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            memory = operations.add_memory(
                repo,
                text,
                topic=topic,
                priority=priority,
                tags=tags or (),
                key=key,
                type=type,
                now=clock(),
            )
            return memory.to_dict()

        return guarded(run)

    @server.tool(
        description="Remove memories from the active set by id or by pattern, in one commit; "
        "history keeps them (dreamgit restore ID). dry_run lists what would go."
    )
    def forget(
        ids: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = None,
        match: Annotated[str, Field(min_length=1, max_length=500)] | None = None,
        regex: bool = False,
        older_than: Annotated[str, Field(pattern=r"^\d+\s*[mhdw]$")] | None = None,
        topic: Name | None = None,
        session: Annotated[str, Field(min_length=1, max_length=64)] | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            at = clock()
            if ids:
                if match or older_than or topic or session:
                    raise ToolError("forget takes ids or a pattern, not both")
                if dry_run:
                    gone = [repo.get_memory(i, now=at) for i in ids]
                    return {"dry_run": True, "forgotten": [m.id for m in gone], "protected": []}
                forgotten = operations.forget(repo, ids, now=at)
                return {"dry_run": False, "forgotten": [m.id for m in forgotten]}
            spec = ForgetFilter(
                match=match,
                regex=regex,
                older_than=parse_age(older_than) if older_than else None,
                topic=topic,
                session=session,
            )
            gone, kept = forget_matching(repo, spec, now=at, dry_run=dry_run)
            return {
                "dry_run": dry_run,
                "forgotten": [m.id for m in gone],
                "protected": [m.id for m in kept],
            }

        return guarded(run)

    @server.tool(description="Record a conversation transcript for the next dream to learn from.")
    def log_session(
        text: Text,
        summary: Annotated[str, Field(max_length=2000)] = "",
        tags: list[Name] | None = None,
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            session = operations.log_session(
                repo, text, summary=summary, tags=tags or (), now=clock()
            )
            return {"id": session.id, "path": session.path}

        return guarded(run)

    @server.tool(description="Counts, pending sessions, last dream, whether a dream is due.")
    def status() -> dict[str, Any]:
        return guarded(lambda: repo_status(repo, now=clock()))

    @server.tool(description="What a dream would do now, without writing anything (dry run).")
    def review(force: bool = False) -> dict[str, Any]:
        return guarded(lambda: dict(dream(repo, now=clock(), force=force, apply=False)))

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
        found = repo.snapshot(now=now or utcnow()).memories
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
        found = repo.snapshot(now=now or utcnow()).by_id().get(memory_id)
        if found is None:
            raise ResourceNotFoundError(f"no active memory with id {memory_id}")
        return repo.read_text(found.path) or ""

    return server
