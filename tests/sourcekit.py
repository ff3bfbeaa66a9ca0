"""The package's (and the tests') source, read and parsed once a worker for the tests that scan it.

The architecture, size, trailer, binding and pinned-message tests each walk every module's
syntax tree; parsing the ~300 modules again for each of them cost about a second of CPU
a test. ``parsed`` keeps one tree per file for the worker's life. The trees are shared:
a test reads them (``ast.walk``, ``id`` of a node) and never changes one.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine" / "dreamgit"
TESTS = ROOT / "tests"


def python_files(root: Path) -> tuple[Path, ...]:
    """Every ``.py`` file under ``root``, sorted (the checkout's listed once)."""
    return _kept_files(root) if _in_checkout(root) else tuple(sorted(root.rglob("*.py")))


def source(path: Path) -> str:
    """The text of ``path`` (a file of the checkout read once)."""
    return _kept_source(path) if _in_checkout(path) else path.read_text(encoding="utf-8")


def parsed(path: Path) -> ast.Module:
    """The syntax tree of ``path``; a file of the checkout is parsed once and its tree
    shared (read it, never change it). A file a test wrote elsewhere is read each time."""
    return _kept_tree(path) if _in_checkout(path) else ast.parse(source(path))


def _in_checkout(path: Path) -> bool:
    return path.is_relative_to(ENGINE) or path.is_relative_to(TESTS)


@functools.cache
def _kept_files(root: Path) -> tuple[Path, ...]:
    return tuple(sorted(root.rglob("*.py")))


@functools.cache
def _kept_source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def _kept_tree(path: Path) -> ast.Module:
    return ast.parse(_kept_source(path))
