"""Run ``dreamgit recall`` without click when the command line is plainly a recall's.

An agent recalls at every prompt, and click's import is ~45 ms of CPU before anything
is read: ``dreamgit.cli.main`` hands a command line of the shape ``[--repo P] [--now T]
recall QUERY [--top-k N] [--chars N] [--topic T] [--type T] [--scope S] [--no-record]
[--json]`` (each option at most once, as separate words) to :func:`run_recall`, which
answers from the derived store (``recall/cached.py``) and prints what the click command
prints, through the same :func:`recall_output`. Whenever that path cannot answer — no
view of HEAD's commit, a bad query or ``--now``, anything unexpected — it prints and
records nothing and click's ``recall`` command runs instead, which answers (or reports
the error) as it always did. Any other shape (``--help``, ``--debug``, ``--top-k=3``, a
repeated option) goes straight to click.
"""

from __future__ import annotations

import codecs
import json
import sys
from typing import TYPE_CHECKING, NamedTuple, TextIO

from dreamgit.cli.plainargs import PlainCall, command_words, plain_call
from dreamgit.recall.query import RecallQuery

if TYPE_CHECKING:
    from dreamgit.recall.ranking import RecallResult

__all__ = ["RecallCall", "recall_call", "recall_output", "run_recall"]

#: The options with a value (those of ``_NUMBERS`` a count).
_VALUED = ("--top-k", "--chars", "--topic", "--type", "--scope")
_NUMBERS = ("--top-k", "--chars")
_FLAGS = ("--no-record", "--json")


class RecallCall(NamedTuple):
    """A recall's command line, read: its global options, its query and ``--json``."""

    globals: PlainCall
    ask: RecallQuery
    as_json: bool


def recall_call(args: list[str]) -> RecallCall | None:
    """The recall a command line asks for when it has the plain shape (see the module
    docstring), else None: click parses it."""
    found = plain_call(args)
    if found.words[:1] != ("recall",):
        return None
    read = command_words(
        found.words[1:],
        valued=_VALUED,
        plain_value=lambda option, value: option not in _NUMBERS or _plain_number(value),
        flags=_FLAGS,
    )  # a negative number or "--top-k x" is click's to read
    if read is None:
        return None
    valued, flags = read.valued, read.flags
    ask = RecallQuery(
        read.argument,
        top_k=_count(valued.get("--top-k")),
        chars=_count(valued.get("--chars")),
        topic=valued.get("--topic"),
        type=valued.get("--type"),
        scope=valued.get("--scope"),
        record=False if "--no-record" in flags else None,
    )
    return RecallCall(found, ask, "--json" in flags)


def _plain_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _count(text: str | None) -> int | None:
    return None if text is None else int(text)


def run_recall(call: RecallCall) -> bool:
    """Answer ``call`` from the derived store and print it as the click command does;
    False, having printed and recorded nothing, when click's command must answer."""
    from dreamgit.recall.cached import cached_recall

    try:
        result = cached_recall(call.globals.path, call.ask, now=call.globals.now())
    except Exception:
        # A bad query or --now, or a surprise: click's command meets the same and
        # reports it in its words, with its exit code (and a crash log for a bug).
        return False
    if result is None:
        return False
    out, err = recall_output(result, as_json=call.as_json)
    try:
        if err is not None:
            _echo(err, sys.stderr)
        if out is not None:
            _echo(out, sys.stdout)
    except BrokenPipeError:
        # The reader went away: as click's boundary does, quiet and exit 1.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    return True


def recall_output(result: RecallResult, *, as_json: bool) -> tuple[str | None, str | None]:
    """What ``dreamgit recall`` prints of ``result``: (stdout, stderr), each without its
    final newline, None when nothing goes there."""
    if as_json:
        from dreamgit.report.tokens import estimate_tokens

        answer = "\n".join(h.memory.text for h in result.hits)
        value = {**result.to_dict(), "tokens": estimate_tokens(answer)}
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False), None
    lines = []
    for hit in result.hits:
        also = f" (+{len(hit.group)} alike)" if hit.group else ""
        lines.append(f"{hit.memory.id}\t{hit.score:.3f}\t{hit.memory.text}{also}")
    return ("\n".join(lines) if lines else None), (None if lines else "no memory matches")


def _echo(text: str, stream: TextIO) -> None:
    """``click.echo(text)`` to ``stream``: written as is, unless click would change it
    (an escape sequence it strips off a terminal, a stream it re-encodes), when click
    writes it."""
    if "\x1b" in text or _ascii(getattr(stream, "encoding", None) or "ascii"):
        import click

        click.echo(text, err=stream is sys.stderr)
        return
    stream.write(text + "\n")
    stream.flush()


def _ascii(encoding: str) -> bool:
    """Whether click takes a stream of ``encoding`` for a misconfigured one (and wraps it)."""
    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False
