"""Every message dreamgit raises to a user is pinned by some test.

The package's source is read (not run): each ``raise SomeError("text…")`` or
``raise SomeError(f"… {x} …")`` whose class derives from ``DreamgitError`` (or is
another error whose text reaches the user) gives its message's literal fragments;
an ``InternalSignal`` is raised and caught inside the library and never shown, so its
words are not a user's message;
one distinctive fragment (any of 12 characters or more, else the longest) must
appear in a string of some test file. A new message without a test fails here, naming the file, the
line and the fragment, so whoever added it can pin it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click

import dreamgit
from dreamgit.dsl.functions import ArgumentTypeError
from dreamgit.dsl.regexsafe import PatternError
from dreamgit.errors import DreamgitError, InternalSignal
from dreamgit.llm.proposals import ProposalFormatError
from sourcekit import parsed, python_files

PACKAGE = Path(dreamgit.__file__).parent
TESTS = Path(__file__).parent
#: Errors outside DreamgitError's tree whose text reaches the user: click's usage errors,
#: the DSL's and the pattern checker's, which become an expression's message, and a
#: model's malformed answer, which is recorded and shown to the model to repair.
OTHER_USER_FACING: tuple[type[Exception], ...] = (
    click.UsageError,
    ArgumentTypeError,
    PatternError,
    ProposalFormatError,
)
#: Shorter fragments ("{x}: {y}") are not the message's own words: nothing to pin.
MIN_FRAGMENT = 6
#: A fragment this long is distinctive on its own: a test holding any one of them pins
#: the message (a message cut by several placeholders may be pinned by its opening).
DISTINCTIVE = 12


@dataclass(frozen=True)
class Site:
    """One raise of a dreamgit error with literal text in its message."""

    file: str
    line: int
    error: str
    fragment: str
    #: Every part of the message that pins it when a test holds it.
    pins: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.error}: {self.fragment!r}"


def _error_classes() -> dict[str, type[Exception]]:
    """Every user-facing error class (DreamgitError's tree but the internal signals, and
    the others), by name."""
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="dreamgit."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: dict[str, type[Exception]] = {}
    todo: list[type[Exception]] = [DreamgitError, *OTHER_USER_FACING]
    while todo:
        cls = todo.pop()
        if issubclass(cls, InternalSignal):
            continue  # caught inside the library; one that escapes gets the crash log
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def _fragments(node: ast.expr) -> list[str]:
    """The literal parts of a message expression (a string, an f-string, or a + of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _fragments(node.left) + _fragments(node.right)
    return []


def _message_arg(name: str, call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "message":
            return keyword.value
    # MemoryFileError(path, message, ...) and ArgumentTypeError(index, message): second.
    index = 1 if name in ("MemoryFileError", "ArgumentTypeError") else 0
    return call.args[index] if len(call.args) > index else None


def _raise_sites(classes: dict[str, type[Exception]]) -> Iterator[Site]:
    for path in python_files(PACKAGE):
        for node in ast.walk(parsed(path)):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in classes:
                continue
            message = _message_arg(name, node.exc)
            parts = [p.strip() for p in _fragments(message) if message is not None]
            parts = [p for p in parts if len(p) >= MIN_FRAGMENT]
            if parts:
                rel = path.relative_to(PACKAGE.parent).as_posix()
                longest = max(parts, key=len)
                pins = tuple(p for p in parts if len(p) >= DISTINCTIVE) or (longest,)
                yield Site(rel, node.lineno, name, longest, pins)


@functools.cache
def _package_raise_sites() -> tuple[Site, ...]:
    """The raise sites of the whole package, found once for both tests (a few seconds)."""
    return tuple(_raise_sites(_error_classes()))


def _test_strings() -> list[str]:
    """Every string literal of the test files (implicit concatenations already joined)."""
    strings: list[str] = []
    for path in python_files(TESTS):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.append(node.value)
            elif isinstance(node, ast.JoinedStr):
                strings.append("\0".join(_fragments(node)))
    return strings


def test_the_checker_finds_raise_sites_and_their_words() -> None:
    """The walk sees the package's raises: a known message is found with its fragment."""
    sites = _package_raise_sites()
    assert len(sites) > 100
    assert any(
        s.file == "dreamgit/store/repo.py"
        and "is already a dreamgit memory repository" in s.fragment
        and "is already a dreamgit memory repository" in s.fragment
        for s in sites
    )
    # an internal signal's words never reach a user: the lean store's doubts are not sites
    assert not any(s.file == "dreamgit/store/leanpacks.py" for s in sites)
    assert any(s.error == "MemoryFileError" for s in sites)


def test_every_raised_message_is_pinned_by_a_test() -> None:
    """Each raise site's distinctive words appear in some test file; the failure lists the rest."""
    # One text of them all, parted by NUL as an f-string's holes are: a pin (source text,
    # never a NUL) is in it exactly when it is in one of them, found in one scan.
    strings = "\0".join(_test_strings())
    unpinned = [
        str(site) for site in _package_raise_sites() if not any(pin in strings for pin in site.pins)
    ]
    assert not unpinned, "messages no test pins (add a test that asserts them):\n" + "\n".join(
        unpinned
    )
