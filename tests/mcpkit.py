"""`dreamgit mcp` as a subprocess of the installed command, driven by the official SDK client.

The SDK (about a second of CPU to import) is imported when a server is driven, not when a
test file that uses it is collected: every such file is marked slow, and the README's test
command, which leaves them out, would otherwise import it on every worker for nothing."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    from mcp.client.session import ClientSession


def drive(repo: Path, now: str, body: Callable[[ClientSession], Awaitable[None]]) -> None:
    """Serve ``repo`` at ``now`` and run ``body`` against it; stderr goes to ``server.log``
    beside the repository."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    command = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    args = ["--repo", str(repo), "--now", now, "mcp"]
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


def payload(result: Any) -> Any:
    """A successful tool result's JSON."""
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)
