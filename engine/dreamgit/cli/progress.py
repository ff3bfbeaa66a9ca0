"""Showing a long command's phases on a terminal, and nothing anywhere else.

A dream over thousands of memories takes seconds; on a terminal the current
phase is shown on stderr ("dreamgit: gathering from 12 sessions…"), rewritten
in place and cleared at the end, dimmed unless ``NO_COLOR`` is set (then each
phase is one plain line, with no escape sequences at all). When stderr is not
a terminal (a pipe, a log file, a scheduler) or the command prints ``--json``,
nothing is shown, so output meant for programs stays clean.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = ["progress_reporter"]

_CLEAR = "\r\x1b[2K"
_DIM, _RESET = "\x1b[2m", "\x1b[0m"


@contextmanager
def progress_reporter(
    *, enabled: bool = True, stream: TextIO | None = None
) -> Iterator[Callable[[str], None]]:
    """A callable to tell the phases to; shows them only on a terminal, when enabled."""
    out = stream if stream is not None else sys.stderr
    if not enabled or not out.isatty():
        yield lambda _message: None
        return
    plain = "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb"
    shown = False

    def report(message: str) -> None:
        nonlocal shown
        text = f"dreamgit: {message}…"
        if plain:
            out.write(text + "\n")
        else:
            out.write(f"{_CLEAR}{_DIM}{text}{_RESET}")
            shown = True
        out.flush()

    try:
        yield report
    finally:
        if shown:
            out.write(_CLEAR)
            out.flush()
