"""Run one Claude Code hook, without click when the command line is exactly a hook's.

A hook runs at every session start, prompt and session end, and click's import is
40 ms of CPU before anything is read: ``dreamgit.cli.main`` hands a command line of
the shape ``install-hooks`` writes (``--repo PATH [--now TIME] hook claude-code
EVENT``) straight to :func:`run_hook`; any other shape (``--help``, ``--debug``, an
unknown event) goes through click's ``hook`` command, which calls the same function.
Each event reads only what it needs (``integrations/claude_hooks.py``,
``integrations/hookreads.py``); a hook never blocks the agent: any failure is one
line on stderr and exit 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from dreamgit.cli.plainargs import plain_call, time_given
from dreamgit.errors import DreamgitError

if TYPE_CHECKING:
    from datetime import datetime

    from dreamgit.store.repo import MemoryRepo

__all__ = ["EVENTS", "HookCall", "hook_call", "run_hook"]

#: The hooks ``install-hooks`` writes, by the event step their command ends with.
EVENTS = ("session-start", "session-end", "prompt-submit")


class HookCall(NamedTuple):
    """The global options and the event of a hook's command line (as ``CliState`` holds)."""

    repo_path: str
    now_text: str | None
    event: str

    @property
    def path(self) -> Path:
        """The repository path as given."""
        return Path(self.repo_path)

    def now(self) -> datetime:
        """The time the hook treats as now (``--now``, else the clock)."""
        return time_given(self.now_text)


def hook_call(args: list[str]) -> HookCall | None:
    """The hook a command line runs when it is exactly ``[--repo P] [--now T] hook
    claude-code EVENT`` (options as separate words, each once), else None: click parses it."""
    call = plain_call(args)
    if call.words[:-1] != ("hook", "claude-code") or call.words[-1] not in EVENTS:
        return None
    return HookCall(call.repo_path, call.now_text, call.words[-1])


def run_hook(call: HookCall) -> None:
    """Run the hook with its JSON input from stdin; a failure is one line on stderr."""
    try:
        _dispatch(call, _payload())
    except DreamgitError as exc:
        _say(f"dreamgit hook {call.event}: {exc.message}", err=True)
    except Exception as exc:  # a hook must never stop the agent's session
        _say(f"dreamgit hook {call.event}: skipped ({exc!r})", err=True)


def _say(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


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


def _dispatch(call: HookCall, payload: dict[str, Any]) -> None:
    # Imported here, and only what each hook needs: a hook runs at every session start.
    from dreamgit.integrations.claude_hooks import excluded, hook_settings

    opened = _Opened(call.path)
    settings = hook_settings(opened.config_text())
    cwd = payload.get("cwd")
    if excluded(cwd if isinstance(cwd, str) else None, settings.exclude):
        return  # the user left this project out: no brief, no recall, no logging
    if call.event == "prompt-submit":
        _prompt_submit(call, opened, payload, settings.recall_chars)
    elif call.event == "session-start":
        _session_start(call, opened)
    else:
        _session_end(call, payload)


def _prompt_submit(
    call: HookCall, opened: _Opened, payload: dict[str, Any], recall_chars: int
) -> None:
    from dreamgit.integrations.claude_hooks import recall_brief

    prompt = payload.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        # Read-only (record=False), from the derived store when it holds HEAD's commit:
        # no git opened then; else the repository without an index renderer, so none
        # of the write path (cmd_memory, operations, the secret scanner) is imported.
        said = recall_brief(call.path, prompt, now=call.now(), chars=recall_chars, repo=opened.repo)
        if said:
            _say(said)


def _session_start(call: HookCall, opened: _Opened) -> None:
    from dreamgit.integrations.claude_hooks import brief_of, session_brief, worktree_brief
    from dreamgit.integrations.hookreads import committed_text

    brief = worktree_brief(call.path)
    if brief is None:  # a bare repository: the committed index, without git if it can
        index = committed_text(call.path, "MEMORY.md")
        brief = brief_of(index) if index is not None else session_brief(opened.repo())
    if brief:
        _say(brief)


def _session_end(call: HookCall, payload: dict[str, Any]) -> None:
    from dreamgit.integrations.claude_hooks import log_session, logged_already

    # Nothing new since the last log (a PreCompact after SessionEnd, a session resumed and
    # closed): said from git's files alone, without opening the repository.
    said = logged_already(call.path, payload)
    if said is None:
        from dreamgit.cli.opening import open_repo_at  # no click: a hook runs without it

        now = call.now()
        said = log_session(open_repo_at(call.path, now), payload, now=now)
    _say(said, err=True)
