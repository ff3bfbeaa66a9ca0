"""The ``dreamgit`` command line: click over the library.

Each ``cmd_*`` module parses its arguments, calls the library and renders the
result. The root group in ``app.py`` names every command and its module, loads
a module only when one of its commands runs, and is the one place where
exceptions become exit codes.

May import: everything in the package; nothing imports it (``__main__`` and the
console script aside).
"""

from __future__ import annotations

from dreamgit.cli.app import cli, main

__all__ = ["cli", "main"]
