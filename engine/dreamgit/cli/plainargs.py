"""A command line read without click, when it has exactly the shape a fast path serves.

``dreamgit [--repo PATH] [--now TIME] WORDS…``: the global options as separate words, each
at most once, before the command's words; the environment fills what is not given, as
click's ``envvar`` does (an empty variable: unset; an empty value given: given). The
caller checks the words (:func:`command_words` reads a command's options of the plain
shape) and leaves any other shape (``--repo=PATH``, ``--debug``, ``--help``, a typo) to
click. Used by the Claude Code hooks (``cli/hookrun.py``), ``recall``
(``cli/recallrun.py``), ``add`` (``cli/addrun.py``) and ``status`` (``cli/statusrun.py``),
which run often and pay click's import (40 ms of CPU) for nothing.

May import: nothing of the package but the clock (lazily).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["CommandWords", "PlainCall", "command_words", "plain_call", "time_given"]


class CommandWords(NamedTuple):
    """A command's words after its name, read: the one word that is not an option, the
    options given with a value, the values of a repeatable option, the flags given."""

    argument: str
    valued: dict[str, str]
    repeated: list[str]
    flags: set[str]


def command_words(
    words: tuple[str, ...],
    *,
    valued: Collection[str],
    plain_value: Callable[[str, str], bool],
    flags: Collection[str] = (),
    repeatable: str | None = None,
) -> CommandWords | None:
    """``words`` read when each option of ``valued`` comes at most once with a value
    ``plain_value(option, value)`` accepts, ``repeatable`` any number of times with a
    value that is not an option, each of ``flags`` at most once, and exactly one word
    that is not an option; else None (click's to read, or to refuse)."""
    argument: str | None = None
    given: dict[str, str] = {}
    repeated: list[str] = []
    raised: set[str] = set()
    at = 0
    while at < len(words):
        word = words[at]
        if word in valued and word not in given and at + 1 < len(words):
            value = words[at + 1]
            if value.startswith("-") or not plain_value(word, value):
                return None
            given[word] = value
            at += 2
        elif word == repeatable and at + 1 < len(words) and not words[at + 1].startswith("-"):
            repeated.append(words[at + 1])
            at += 2
        elif word in flags and word not in raised:
            raised.add(word)
            at += 1
        elif argument is None and not word.startswith("-"):
            argument = word
            at += 1
        else:
            return None
    return None if argument is None else CommandWords(argument, given, repeated, raised)


#: The global options a plain command line may carry before its words.
_OPTIONS = ("--repo", "--now")


class PlainCall(NamedTuple):
    """The global options of a plain command line (as ``CliState`` holds them) and the
    words after them."""

    repo_path: str
    now_text: str | None
    words: tuple[str, ...]

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


def plain_call(args: list[str]) -> PlainCall:
    """The global options given first in ``args`` (each once, as separate words), filled
    from the environment, and the words that follow them."""
    given: dict[str, str] = {}
    at = 0
    while at + 1 < len(args) and args[at] in _OPTIONS and args[at] not in given:
        given[args[at]] = args[at + 1]
        at += 2
    # A value given wins, even empty, as with click; the environment's counts when set.
    repo = given["--repo"] if "--repo" in given else os.environ.get("DREAMGIT_REPO") or "."
    now = given["--now"] if "--now" in given else os.environ.get("DREAMGIT_NOW") or None
    return PlainCall(repo, now, tuple(args[at:]))
