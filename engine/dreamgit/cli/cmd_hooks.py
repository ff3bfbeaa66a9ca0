"""``install-hooks`` and ``hook``: Claude Code hooks that log sessions and brief new ones."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import DreamgitError

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

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
    return shutil.which("dreamgit") or "dreamgit"


@click.command()
@click.argument("agent", type=click.Choice(["claude-code"]))
@click.argument("event", type=click.Choice(["session-start", "session-end", "prompt-submit"]))
@pass_state
def hook(state: CliState, agent: str, event: str) -> None:
    """Run one installed hook: the hook's JSON input on stdin, as Claude Code gives it.

    session-start prints the memory brief; session-end logs the session's new turns;
    prompt-submit prints the memories that answer the prompt (nothing when none do).
    A project excluded in the configuration (claude-hooks: exclude:) gets nothing.
    A hook never blocks the agent: any failure is one line on stderr and exit 0.
    """
    try:
        _run_hook(state, event, _payload())
    except DreamgitError as exc:
        click.echo(f"dreamgit hook {event}: {exc.message}", err=True)
    except Exception as exc:  # a hook must never stop the agent's session
        click.echo(f"dreamgit hook {event}: skipped ({exc!r})", err=True)


def _payload() -> dict[str, Any]:
    text = "" if sys.stdin.isatty() else sys.stdin.read()
    value = json.loads(text) if text.strip() else {}
    return value if isinstance(value, dict) else {}


class _Opened:
    """The repository a hook reads, opened (and pygit2 imported) at most once, when needed.

    A work tree's configuration and MEMORY.md are read as files, so the session-start
    hook there never opens git; a bare repository's are read from git's loose objects
    (``claude_hooks.committed_text``), and on any doubt the repository is opened, once
    for both.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._repo: MemoryRepo | None = None

    def repo(self) -> MemoryRepo:
        """The memory repository, read-only use: no index renderer, checked initialised."""
        if self._repo is None:
            from dreamgit.store.repo import MemoryRepo

            self._repo = MemoryRepo.open(self.folder)
            self._repo.require_initialised()
        return self._repo

    def config_text(self) -> str | None:
        """The work tree's configuration as a file (a bare repository's: the committed one)."""
        try:
            return (self.folder / ".dreamgit" / "config.yaml").read_text(encoding="utf-8")
        except FileNotFoundError:
            from dreamgit.integrations.hookreads import committed_text

            found = committed_text(self.folder, ".dreamgit/config.yaml")
            if found is not None:
                return found
            repo = self.repo()
            tip = repo.tip()
            return repo.read_text(".dreamgit/config.yaml", at=tip) if tip else None


def _run_hook(state: CliState, event: str, payload: dict[str, Any]) -> None:
    # Imported here, and only what each hook needs: a hook runs at every session start.
    from dreamgit.integrations.claude_hooks import excluded, hook_settings

    opened = _Opened(state.path)
    settings = hook_settings(opened.config_text())
    cwd = payload.get("cwd")
    if excluded(cwd if isinstance(cwd, str) else None, settings.exclude):
        return  # the user left this project out: no brief, no recall, no logging
    if event == "prompt-submit":
        _prompt_submit(state, opened, payload, settings.recall_chars)
    elif event == "session-start":
        _session_start(state, opened)
    else:
        _session_end(state, payload)


def _prompt_submit(
    state: CliState, opened: _Opened, payload: dict[str, Any], recall_chars: int
) -> None:
    from dreamgit.integrations.claude_hooks import recall_brief

    prompt = payload.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        # Read-only (record=False), from the derived store when it holds HEAD's commit:
        # no git opened then; else the repository without an index renderer, so none
        # of the write path (cmd_memory, operations, the secret scanner) is imported.
        said = recall_brief(
            state.path, prompt, now=state.now(), chars=recall_chars, repo=opened.repo
        )
        if said:
            click.echo(said)


def _session_start(state: CliState, opened: _Opened) -> None:
    from dreamgit.integrations.claude_hooks import brief_of, session_brief, worktree_brief
    from dreamgit.integrations.hookreads import committed_text

    brief = worktree_brief(state.path)
    if brief is None:  # a bare repository: the committed index, without git if it can
        index = committed_text(state.path, "MEMORY.md")
        brief = brief_of(index) if index is not None else session_brief(opened.repo())
    if brief:
        click.echo(brief)


def _session_end(state: CliState, payload: dict[str, Any]) -> None:
    from dreamgit.integrations.claude_hooks import log_session, logged_already

    # Nothing new since the last log (a PreCompact after SessionEnd, a session resumed and
    # closed): said from git's files alone, without opening the repository.
    said = logged_already(state.path, payload)
    if said is None:
        from dreamgit.cli.opening import open_repo

        said = log_session(open_repo(state), payload, now=state.now())
    click.echo(said, err=True)
