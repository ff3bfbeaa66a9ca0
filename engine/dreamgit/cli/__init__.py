"""The ``dreamgit`` command line: click over the library.

Each ``cmd_*`` module parses its arguments, calls the library and renders the
result; importing it adds its commands to the root group. The root group in
``app.py`` is the one place where exceptions become exit codes.
"""

from __future__ import annotations

from dreamgit.cli import cmd_cron, cmd_memory  # noqa: F401 - importing registers the commands
from dreamgit.cli.app import cli, main

__all__ = ["cli", "main"]
