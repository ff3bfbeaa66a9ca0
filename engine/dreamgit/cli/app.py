"""The root command group, its global options and the error boundary.

Exit codes: 0 success, 1 a user-fixable error, 2 usage, 3 an internal error
(with a crash log whose path is printed), 4 an LLM provider failure that a
scheduler may retry, 5 a dream left for review because it broke memory tests.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import NoReturn

import click

from dreamgit.cli.commands import COMMANDS
from dreamgit.cli.state import CliState
from dreamgit.errors import DreamgitError, InternalSignal, environment_problem
from dreamgit.version import __version__

__all__ = ["cli", "main"]


class _Boundary(click.Group):
    """The root group: loads commands on demand and turns exceptions into exit codes."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, attr = entry[0].split(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Click's own listing, from the table's summaries: loading each command to read its
        # help would import the whole engine for `dreamgit --help`.
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit))
            for name in self.list_commands(ctx)
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader went away (`dreamgit memories | head`): not an error of ours.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(1)
        except DreamgitError as exc:
            if isinstance(exc, InternalSignal):  # escaped from where it is caught: a bug
                _crash(ctx, exc)
            if exc.exit_code == 3 and _debug(ctx):
                raise
            click.echo(f"error: {exc.render()}", err=True)
            ctx.exit(exc.exit_code)
        except Exception as exc:
            problem = environment_problem(exc)
            if problem is not None:  # a full disk, a read-only store: not a crash
                click.echo(f"error: {problem.render()}", err=True)
                ctx.exit(problem.exit_code)
            _crash(ctx, exc)


def _debug(ctx: click.Context) -> bool:
    return isinstance(ctx.obj, CliState) and ctx.obj.debug


@click.group(cls=_Boundary, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--repo",
    envvar="DREAMGIT_REPO",
    default=".",
    show_default="$DREAMGIT_REPO or the current directory",
    help="The memory repository.",
)
@click.option(
    "--now",
    envvar="DREAMGIT_NOW",
    default=None,
    help="ISO-8601 time to use as now (ages, commit times); default: the clock.",
)
@click.option("--debug", is_flag=True, help="Re-raise internal errors instead of a crash log.")
@click.version_option(__version__, prog_name="dreamgit")
@click.pass_context
def cli(ctx: click.Context, repo: str, now: str | None, debug: bool) -> None:
    """Keep an AI agent's memory in git and consolidate it in dream cycles."""
    ctx.obj = CliState(repo_path=repo, now_text=now, debug=debug)


def _crash(ctx: click.Context, exc: Exception) -> NoReturn:
    """An internal error: re-raised under ``--debug``, else a crash log and exit 3."""
    if _debug(ctx):
        raise exc
    from dreamgit.cli.crashlog import write_crash_log  # only a crash needs it

    path = write_crash_log(exc)
    click.echo(f"internal error: {exc!r}\ncrash log: {path}", err=True)
    ctx.exit(3)


def main(argv: list[str] | None = None) -> None:
    """Run the command line and exit with its code."""
    cli.main(args=argv, prog_name="dreamgit")
