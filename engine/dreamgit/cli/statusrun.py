"""``dreamgit status`` without click, when its command line is exactly a plain one.

An agent or a prompt bar asks for the status often, and click's import is 40 ms of CPU
before the repository is opened. ``dreamgit.cli.main`` hands ``[--repo PATH] [--now TIME]
status [--json]`` (see ``cli/plainargs.py``) to :func:`run_status`, which prints the lines
the click command prints (``cli/statusview.py``), an error as the root group words it,
with its exit code. What click would print differently is left to click, which runs the
command again (status writes nothing but caches): an internal error (click writes the
crash log), a stream that is not UTF-8, or output with an escape character (click strips
ANSI codes from output that is not a terminal). Nothing is printed before that is known.
"""

from __future__ import annotations

import codecs
import os
import sys
from typing import TextIO

from dreamgit.cli.plainargs import PlainCall, plain_call

__all__ = ["run_status", "status_call"]

#: The words of a plain status command line.
_SHAPES = (("status",), ("status", "--json"))


def status_call(args: list[str]) -> PlainCall | None:
    """The call when ``args`` is a plain ``status`` command line, else None."""
    call = plain_call(args)
    return call if call.words in _SHAPES else None


def run_status(call: PlainCall) -> bool:
    """Print the status as the click command would and return True (exiting with the
    root group's code on a user-fixable error), or print nothing and return False when
    click must answer."""
    from dreamgit.cli.statusview import status_output
    from dreamgit.errors import DreamgitError, InternalSignal, environment_problem

    try:
        lines, problems = status_output(call.path, call.now(), as_json="--json" in call.words)
    except (KeyboardInterrupt, EOFError):
        # What click's main says when it is stopped: an empty line, then "Aborted!".
        _write(sys.stderr, ["", "Aborted!"])
        raise SystemExit(1) from None
    except InternalSignal:
        return False
    except DreamgitError as exc:
        return _fail(exc.render(), exc.exit_code)
    except Exception as exc:
        problem = environment_problem(exc)
        return False if problem is None else _fail(problem.render(), problem.exit_code)
    warnings = [f"warning: {problem}" for problem in problems]
    if not _plain(sys.stdout, lines) or not _plain(sys.stderr, warnings):
        return False
    try:
        _write(sys.stderr, warnings)
        _write(sys.stdout, lines)
    except BrokenPipeError:
        # The reader went away (`dreamgit status | head -1`), as the root group says it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    return True


def _fail(message: str, code: int) -> bool:
    if not _plain(sys.stderr, [message]):
        return False
    _write(sys.stderr, [f"error: {message}"])
    raise SystemExit(code)


def _plain(stream: TextIO, lines: list[str]) -> bool:
    """Whether click would write ``lines`` to ``stream`` as they are."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False
    return utf8 and not any("\x1b" in line for line in lines)


def _write(stream: TextIO, lines: list[str]) -> None:
    for line in lines:
        stream.write(f"{line}\n")
        stream.flush()  # as click.echo does, so stderr and stdout interleave as they did
