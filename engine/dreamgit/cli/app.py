"""The root command group, its global options and the error boundary.

Exit codes: 0 success, 1 a user-fixable error, 2 usage, 3 an internal error
(with a crash log whose path is printed), 4 an LLM provider failure that a
scheduler may retry, 5 a dream left for review because it broke memory tests.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
import traceback
from datetime import datetime
from pathlib import Path

import click

from dreamgit.cli.state import CliState
from dreamgit.errors import DreamgitError, environment_problem
from dreamgit.version import __version__

__all__ = ["cli", "main"]


#: Every command and the module that defines it, imported only when the command runs,
#: so `dreamgit log` does not pay for loading the rules engine or the LLM layer.
COMMANDS: dict[str, str] = {
    "init": "dreamgit.cli.cmd_memory:init",
    "log": "dreamgit.cli.cmd_log:log",
    "add": "dreamgit.cli.cmd_memory:add",
    "show": "dreamgit.cli.cmd_memory:show",
    "memories": "dreamgit.cli.cmd_memory:memories",
    "topics": "dreamgit.cli.cmd_memory:topics",
    "forget": "dreamgit.cli.cmd_memory:forget",
    "restore": "dreamgit.cli.cmd_restore:restore",
    "status": "dreamgit.cli.cmd_memory:status",
    "run": "dreamgit.cli.cmd_dream:run",
    "review": "dreamgit.cli.cmd_dream:review",
    "compact": "dreamgit.cli.cmd_dream:compact",
    "merge": "dreamgit.cli.cmd_git:merge",
    "discard": "dreamgit.cli.cmd_git:discard",
    "revert": "dreamgit.cli.cmd_git:revert",
    "diff": "dreamgit.cli.cmd_git:diff",
    "history": "dreamgit.cli.cmd_git:history",
    "redact": "dreamgit.cli.cmd_redact:redact",
    "rules": "dreamgit.cli.cmd_rules:rules",
    "prompts": "dreamgit.cli.cmd_prompts:prompts",
    "install-cron": "dreamgit.cli.cmd_cron:install_cron",
    "install-hooks": "dreamgit.cli.cmd_hooks:install_hooks",
    "hook": "dreamgit.cli.cmd_hooks:hook",
    "export": "dreamgit.cli.cmd_transfer:export",
    "import": "dreamgit.cli.cmd_transfer:import_",
    "demo": "dreamgit.cli.cmd_demo:demo",
    "recall": "dreamgit.cli.cmd_recall:recall",
    "promote": "dreamgit.cli.cmd_recall:promote",
    "mcp": "dreamgit.cli.cmd_recall:mcp",
    "test": "dreamgit.cli.cmd_test:test",
    "report": "dreamgit.cli.cmd_report:report",
}


class _Boundary(click.Group):
    """The root group: loads commands on demand and turns exceptions into exit codes."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

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
            if exc.exit_code == 3 and _debug(ctx):
                raise
            click.echo(f"error: {exc.render()}", err=True)
            ctx.exit(exc.exit_code)
        except Exception as exc:
            problem = environment_problem(exc)
            if problem is not None:  # a full disk, a read-only store: not a crash
                click.echo(f"error: {problem.render()}", err=True)
                ctx.exit(problem.exit_code)
            if _debug(ctx):
                raise
            path = _write_crash_log(exc)
            click.echo(f"internal error: {exc!r}\ncrash log: {path}", err=True)
            ctx.exit(3)


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


def _write_crash_log(exc: BaseException) -> Path:
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(state) / "dreamgit" / "crash"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"crash-{stamp}-{os.getpid()}.log"
    versions = _versions()
    body = "".join(traceback.format_exception(exc))
    path.write_text(f"{versions}\nargv: {sys.argv!r}\n\n{body}", encoding="utf-8")
    return path


def _versions() -> str:
    parts = [f"dreamgit {__version__}", f"python {platform.python_version()}"]
    # Distribution metadata, not `module.__version__` (deprecated in click 8.2+).
    for name in ("pygit2", "lark", "ruamel.yaml", "jinja2", "click", "deepdiff"):
        try:
            parts.append(f"{name} {importlib.metadata.version(name)}")
        except Exception:
            parts.append(f"{name} ?")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    """Run the command line and exit with its code."""
    cli.main(args=argv, prog_name="dreamgit")
