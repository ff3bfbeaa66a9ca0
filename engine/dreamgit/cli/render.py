"""Turning library results into output: JSON for agents, short text for people."""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["emit_json", "json_option", "warn"]

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def emit_json(value: Any) -> None:
    """Print ``value`` as indented JSON on stdout."""
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))


def warn(message: str) -> None:
    """A diagnostic on stderr."""
    click.echo(f"warning: {message}", err=True)
