"""The global options of a command line, read without click, for the routes that skip it.

A Claude Code hook (``cli/hookrun.py``) and a recall (``cli/recallrun.py``) run at every
prompt, so ``dreamgit.cli.main`` answers their plainest command lines without importing
click. Both start the same way: ``--repo PATH`` and ``--now TIME``, each at most once and
as two separate words, then the command. This module reads that start as click's root
group would, the environment filling what is not given (``$DREAMGIT_REPO``,
``$DREAMGIT_NOW``; empty counts as unset, as click's ``envvar`` does); anything else is
left to click.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["Globals", "read_globals", "time_given"]

#: The global options a lean route takes before its command (``--debug`` is click's).
_OPTIONS = ("--repo", "--now")


class Globals(NamedTuple):
    """The global options as ``CliState`` holds them, and the words after them."""

    repo_path: str
    now_text: str | None
    rest: list[str]

    @property
    def path(self) -> Path:
        """The repository path as given."""
        return Path(self.repo_path)

    def now(self) -> datetime:
        """The time the command treats as now (``--now``, else the clock)."""
        return time_given(self.now_text)


def time_given(now_text: str | None) -> datetime:
    """The time ``--now`` gives (a UserError naming ``--now`` when it is not one), else
    the clock's, as ``CliState.now`` reads it."""
    from dreamgit.clock import parse_time, utcnow

    return parse_time(now_text, what="--now") if now_text else utcnow()


def read_globals(args: list[str]) -> Globals:
    """``--repo`` and ``--now`` from the start of ``args`` (each once, as two words)."""
    given: dict[str, str] = {}
    at = 0
    while at + 1 < len(args) and args[at] in _OPTIONS and args[at] not in given:
        given[args[at]] = args[at + 1]
        at += 2
    repo = given.get("--repo") or os.environ.get("DREAMGIT_REPO") or "."
    now = given.get("--now") or os.environ.get("DREAMGIT_NOW") or None
    return Globals(repo, now, args[at:])
