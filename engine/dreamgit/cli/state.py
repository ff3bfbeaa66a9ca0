"""What the root group hands every command: the repository path, the clock, --debug."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["CliState", "pass_state"]


@dataclass
class CliState:
    """Global options, resolved lazily so ``--help`` never touches a repository."""

    repo_path: str
    now_text: str | None
    debug: bool

    @property
    def path(self) -> Path:
        """The repository path as given (``--repo``, ``$DREAMGIT_REPO`` or ``.``)."""
        return Path(self.repo_path)

    def now(self) -> datetime:
        """The time commands treat as now (read as the plain command lines read it)."""
        from dreamgit.cli.plainargs import time_given  # not at import: --help never needs it

        return time_given(self.now_text)

    def fixed_now(self) -> datetime | None:
        """The time given with ``--now``, or None when the clock should run."""
        from dreamgit.clock import parse_time

        return parse_time(self.now_text, what="--now") if self.now_text else None


pass_state = click.make_pass_decorator(CliState)
