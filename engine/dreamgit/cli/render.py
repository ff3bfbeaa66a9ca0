"""Turning library results into output: JSON for agents, short text for people."""

from __future__ import annotations

import json
from typing import Any

import click

from dreamgit.clock import format_time
from dreamgit.model import Memory

__all__ = ["emit_json", "json_option", "memory_json", "warn"]

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def emit_json(value: Any) -> None:
    """Print ``value`` as indented JSON on stdout."""
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))


def warn(message: str) -> None:
    """A diagnostic on stderr."""
    click.echo(f"warning: {message}", err=True)


def memory_json(memory: Memory) -> dict[str, Any]:
    """The JSON shape of a memory (``memories --json``, ``show --json``)."""
    return {
        "id": memory.id,
        "topic": memory.topic,
        "priority": memory.priority,
        "key": memory.key,
        "tags": list(memory.tags),
        "type": memory.type,
        "name": memory.name,
        "description": memory.description,
        "created": format_time(memory.created),
        "updated": format_time(memory.updated),
        "sources": list(memory.sources),
        "supersedes": list(memory.supersedes),
        "confidence": memory.confidence,
        "recalls": memory.recalls,
        "path": memory.path,
        "text": memory.text,
    }
