"""``install-hooks`` and ``hook``: Claude Code hooks that log sessions and brief new ones."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dreamgit.cli.hookrun import EVENTS
from dreamgit.cli.state import CliState, pass_state

__all__ = ["hook", "install_hooks"]


@click.command("install-hooks")
@click.argument("agent", type=click.Choice(["claude-code"]))
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default="the current directory",
    help="The project whose .claude/settings.json gets the hooks.",
)
@click.option("--print", "print_only", is_flag=True, help="Print the settings; write nothing.")
@click.option("--uninstall", "--remove", "remove", is_flag=True, help="Remove dreamgit's hooks.")
@click.option(
    "--recall",
    is_flag=True,
    help="Also add a UserPromptSubmit hook: memories that answer each prompt (off by default).",
)
@pass_state
def install_hooks(
    state: CliState, agent: str, project: Path, print_only: bool, remove: bool, recall: bool
) -> None:
    """Install Claude Code hooks: SessionStart briefs from memory, SessionEnd logs the session.

    Merged into PROJECT/.claude/settings.json: the file's other settings and hooks
    are kept; installing again changes nothing; --uninstall removes only dreamgit's.
    """
    from dreamgit.cli.opening import open_repo
    from dreamgit.integrations import claude_hooks

    if remove:
        result = claude_hooks.uninstall(project)
    else:
        open_repo(state)  # the hooks would fail on every session if it were not one
        commands = claude_hooks.hook_commands(_program(), state.path.resolve(), recall=recall)
        result = claude_hooks.install(project, commands)
    if print_only:
        click.echo(result.text, nl=False)
        return
    claude_hooks.write(result)
    if not result.changed:
        said = "not there" if remove else "already installed"
        click.echo(f"{result.path}: dreamgit's Claude Code hooks {said}; unchanged", err=True)
    elif remove:
        click.echo(f"{result.path}: removed dreamgit's Claude Code hooks", err=True)
    else:
        click.echo(
            f"{result.path}: installed SessionStart (memory brief), SessionEnd and "
            "PreCompact (log the session) hooks"
            + (", and UserPromptSubmit (recall)" if recall else ""),
            err=True,
        )


def _program() -> str:
    """The dreamgit that runs now, by absolute path: a hook's PATH may not reach its venv."""
    running = Path(sys.argv[0])
    if running.name == "dreamgit" and running.exists():
        return str(running.resolve())
    import shutil  # only install-hooks asks: not at every hook's start

    return shutil.which("dreamgit") or "dreamgit"


@click.command()
@click.argument("agent", type=click.Choice(["claude-code"]))
@click.argument("event", type=click.Choice(EVENTS))
@pass_state
def hook(state: CliState, agent: str, event: str) -> None:
    """Run one installed hook: the hook's JSON input on stdin, as Claude Code gives it.

    session-start prints the memory brief; session-end logs the session's new turns;
    prompt-submit prints the memories that answer the prompt (nothing when none do).
    A project excluded in the configuration (claude-hooks: exclude:) gets nothing.
    A hook never blocks the agent: any failure is one line on stderr and exit 0.
    """
    from dreamgit.cli.hookrun import HookCall, run_hook

    run_hook(HookCall(state.repo_path, state.now_text, event))
