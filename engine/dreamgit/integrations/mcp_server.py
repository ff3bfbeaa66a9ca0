"""An MCP server that checks every call strictly and answers every failure with an MCP error.

The SDK validates a tool's arguments leniently (``"yes"`` is taken as true,
unknown arguments are dropped) and returns failures as tool results whose text
ends in pydantic's links. :class:`StrictServer` checks each call itself before the
SDK sees it: unknown arguments and values of the wrong type are refused, and a
refused call or a dreamgit error becomes one MCP error (``-32602`` invalid
params for what the caller can fix) with a one-line message and a hint in its
data. Listed tools say ``additionalProperties: false`` so a client knows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools.base import Tool
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, ToolAnnotations
from pydantic import BaseModel, ValidationError

from dreamgit.errors import DreamgitError, UserError

__all__ = ["StrictServer", "mcp_error"]


def mcp_error(exc: DreamgitError) -> MCPError:
    """A dreamgit error as an MCP error: its first line, and its hint in the data."""
    code = INVALID_PARAMS if isinstance(exc, UserError) else INTERNAL_ERROR
    first = exc.message.splitlines()[0] if exc.message else type(exc).__name__
    return MCPError(code=code, message=first, data={"hint": exc.hint} if exc.hint else None)


class StrictServer(MCPServer[Any]):
    """An :class:`MCPServer` whose tools take exactly their declared arguments."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._arguments: dict[str, type[BaseModel]] = {}

    def strict_tool(
        self, fn: Callable[..., Any], *, description: str, annotations: ToolAnnotations
    ) -> None:
        """Register ``fn`` as a tool whose arguments are checked strictly."""
        tool = Tool.from_function(fn, description=description, annotations=annotations)
        self._arguments[tool.name] = tool.fn_metadata.arg_model
        self.add_tool(fn, description=description, annotations=annotations)

    async def list_tools(self) -> list[Any]:
        """The tools, each schema closed to arguments it does not declare."""
        tools = await super().list_tools()
        for tool in tools:
            tool.input_schema["additionalProperties"] = False
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any | None = None
    ) -> Any:
        """Check the arguments strictly, then run the tool; every failure an MCP error."""
        model = self._arguments.get(name)
        if model is None:
            raise MCPError(
                code=METHOD_NOT_FOUND,
                message=f"no tool named {name!r}",
                data={"hint": "tools: " + ", ".join(sorted(self._arguments))},
            )
        _check(name, model, arguments)
        return await super().call_tool(name, arguments, context)


def _check(name: str, model: type[BaseModel], arguments: dict[str, Any]) -> None:
    """Refuse unknown arguments and values that are not exactly of their declared type."""
    fields = model.model_fields
    takes = ", ".join(fields) or "no arguments"
    unknown = sorted(set(arguments) - set(fields))
    if unknown:
        raise MCPError(
            code=INVALID_PARAMS,
            message=f"{name}: unknown argument {unknown[0]!r}",
            data={"hint": f"{name} takes {takes}"},
        )
    try:
        model.model_validate(arguments, strict=True)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        field = fields.get(str(error["loc"][0])) if error["loc"] else None
        described = field.description if field is not None and field.description else ""
        raise MCPError(
            code=INVALID_PARAMS,
            message=f"{name}: {where}: {error['msg']}",
            data={"hint": f"{where}: {described}" if described else f"{name} takes {takes}"},
        ) from None
