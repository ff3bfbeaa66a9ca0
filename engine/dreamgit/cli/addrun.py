"""``dreamgit add`` without click, when its command line is exactly a plain one.

An agent adds memories as it works, and click's import is ~45 ms of CPU of a process
that writes one file and one commit. ``dreamgit.cli.main`` hands ``[--repo P] [--now T]
add TEXT --topic T [--priority P] [--tag X]… [--key K] [--type T] [--json]`` (each option
but ``--tag`` at most once, as separate words, the choices click offers; see
``cli/plainargs.py``) to :func:`run_add`, which adds through the same library calls as
the click command and prints what it prints. An add writes, so it is never run twice:
everything click would do differently is decided before anything is read — a stream
that is not UTF-8 goes to click — and after the write this path answers every outcome
itself as the root group words it (an error and its exit code, an internal error's crash
log, the warnings a write leaves), with click's ``echo`` only for text holding an escape
character. Any other shape (``--help``, ``--debug``, ``--tag=x``) goes straight to click.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from typing import NamedTuple, NoReturn, TextIO

from dreamgit.cli.plainargs import PlainCall, command_words, plain_call
from dreamgit.model import MEMORY_TYPES, PRIORITIES

__all__ = ["AddCall", "add_call", "run_add"]

#: The options with a value, and the values click's choices allow.
_VALUED = ("--topic", "--priority", "--key", "--type")
_CHOICES = {"--priority": PRIORITIES, "--type": MEMORY_TYPES}


class AddCall(NamedTuple):
    """An add's command line, read."""

    globals: PlainCall
    text: str
    topic: str
    priority: str
    tags: tuple[str, ...]
    key: str | None
    kind: str
    as_json: bool


def add_call(args: list[str]) -> AddCall | None:
    """The add a command line asks for when it has the plain shape, else None."""
    found = plain_call(args)
    if found.words[:1] != ("add",):
        return None
    read = command_words(
        found.words[1:],
        valued=_VALUED,
        plain_value=lambda option, value: value in _CHOICES.get(option, (value,)),
        flags=("--json",),
        repeatable="--tag",
    )
    if read is None or "--topic" not in read.valued:
        return None
    valued = read.valued
    return AddCall(
        found,
        read.argument,
        valued["--topic"],
        valued.get("--priority", "normal"),
        tuple(read.repeated),
        valued.get("--key"),
        valued.get("--type", "user"),
        "--json" in read.flags,
    )


def run_add(call: AddCall) -> bool:
    """Add as the click command does and return True (exiting with the root group's
    code when it fails), or do nothing and return False when click must answer."""
    if not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return False
    from dreamgit.cli.opening import open_repo_at, report_left_out
    from dreamgit.errors import DreamgitError, InternalSignal, environment_problem
    from dreamgit.gitstore.offline import leave_out_https

    leave_out_https()  # an add moves nothing over the network: pygit2 needs no HTTPS

    repo = None
    try:
        try:
            from dreamgit.dream.statusviews import follow_status_view
            from dreamgit.integrations.remember import remember
            from dreamgit.recall.views import follow_view

            now = call.globals.now()
            repo = open_repo_at(call.globals.path, now, lean=True)
            done = remember(
                repo,
                call.text,
                topic=call.topic,
                priority=call.priority,
                tags=call.tags,
                key=call.key,
                type=call.kind,
                now=now,
            )
            follow_view(repo)  # the next recall answers from the derived store
            follow_status_view(repo)  # and the next status
            if call.as_json:
                value = {**done.memory.to_dict(), "reinforced": done.reinforced}
                _echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))
                return True
            if done.reinforced:
                _echo(
                    f"warning: {done.memory.id} already says this: reinforced it instead "
                    "of adding a second one",
                    err=True,
                )
            _echo(done.memory.id)
            return True
        finally:
            if repo is not None:
                report_left_out(repo)  # as click's context does when the command closes
    except (KeyboardInterrupt, EOFError):
        _echo("\nAborted!", err=True)  # click's words when it is stopped
        raise SystemExit(1) from None
    except BrokenPipeError:
        # The reader went away, as the root group says it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    except DreamgitError as exc:
        if isinstance(exc, InternalSignal):
            _crash(exc)
        _echo(f"error: {exc.render()}", err=True)
        raise SystemExit(exc.exit_code) from None
    except Exception as exc:
        problem = environment_problem(exc)
        if problem is None:
            _crash(exc)
        _echo(f"error: {problem.render()}", err=True)
        raise SystemExit(problem.exit_code) from None


def _crash(exc: BaseException) -> NoReturn:
    """An internal error: a crash log and exit 3, as the root group does without --debug."""
    from dreamgit.cli.crashlog import write_crash_log

    path = write_crash_log(exc)
    _echo(f"internal error: {exc!r}\ncrash log: {path}", err=True)
    raise SystemExit(3) from None


def _utf8(stream: TextIO) -> bool:
    """Whether click would write to ``stream`` as it is (it re-encodes other streams)."""
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "utf-8"
    except LookupError:
        return False


def _echo(text: str, *, err: bool = False) -> None:
    """``click.echo(text, err=err)``: written as is unless it holds an escape character,
    which click strips off a stream that is not a terminal."""
    if "\x1b" in text:
        import click

        click.echo(text, err=err)
        return
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()
