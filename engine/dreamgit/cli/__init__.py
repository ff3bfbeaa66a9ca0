"""The ``dreamgit`` command line: click over the library.

Each ``cmd_*`` module parses its arguments, calls the library and renders the
result; importing it adds its commands to the root group. The root group in
``app.py`` is the one place where exceptions become exit codes.
"""

from __future__ import annotations

from dreamgit.cli import (  # noqa: F401 - importing a module registers its commands
    cmd_cron,
    cmd_demo,
    cmd_dream,
    cmd_git,
    cmd_memory,
    cmd_prompts,
    cmd_rules,
)
from dreamgit.cli.app import cli, main

__all__ = ["cli", "main"]
