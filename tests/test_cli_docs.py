"""README and --help stay true: every command has help text and is in the README."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dreamgit.cli import cli

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands() -> list[tuple[str, click.Command]]:
    """Every command by its full name (``rules check``), groups and their subcommands."""
    found = []
    with click.Context(cli) as ctx:
        named = [(name, cli.get_command(ctx, name)) for name in cli.list_commands(ctx)]
    for name, command in named:
        assert command is not None, f"{name} is listed but does not load"
        found.append((name, command))
        if isinstance(command, click.Group):
            found.extend((f"{name} {sub}", c) for sub, c in sorted(command.commands.items()))
    return found


COMMANDS = _commands()


def test_every_command_is_found_and_loads() -> None:
    """The lazily loaded command table names the commands the CLI offers, all loadable."""
    assert len(COMMANDS) > 20
    assert {"run", "review", "rules check", "prompts show", "install-cron"} <= {
        n for n, _ in COMMANDS
    }


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_has_help_text(name: str, command: click.Command) -> None:
    """`dreamgit CMD --help` exits 0 and the command has a short help line."""
    result = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ")
    assert command.get_short_help_str(limit=200).strip(), f"{name} has no help text"


@pytest.mark.parametrize("name", [n for n, _ in COMMANDS])
def test_command_appears_in_readme(name: str) -> None:
    """The README mentions every command, as `dreamgit CMD` or in a code span `CMD …`."""
    text = README.read_text(encoding="utf-8")
    pattern = rf"(dreamgit {re.escape(name)}\b|`{re.escape(name)}\b)"
    assert re.search(pattern, text), f"README.md does not mention `dreamgit {name}`"
