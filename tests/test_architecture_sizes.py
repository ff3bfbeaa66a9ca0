"""Sizes in engine/: no module over 500 lines, no function over 80. Today's offenders are
listed by name; the lists can only shrink (a new offender fails, and so does an entry that
is no longer one, so it is taken off)."""

from __future__ import annotations

import ast
from pathlib import Path

from sourcekit import parsed, python_files, source

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "dreamgit"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80

#: Modules over the limit on 2026-11-26, to split (issue 30); none may join (all split now).
LONG_MODULES: set[str] = set()

#: Functions over the limit on 2026-11-26, as ``path:name``; none may join (all split now).
LONG_FUNCTIONS: set[str] = set()


def module_sizes(root: Path) -> dict[str, int]:
    """Lines of each module under ``root``, by path relative to it."""
    return {str(p.relative_to(root)): len(source(p).splitlines()) for p in python_files(root)}


def function_sizes(root: Path) -> dict[str, int]:
    """Lines of each function (from ``def`` to its last line), as ``path:name``."""
    sizes = {}
    for path in python_files(root):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                name = f"{path.relative_to(root)}:{node.name}"
                sizes[name] = max(sizes.get(name, 0), node.end_lineno - node.lineno + 1)
    return sizes


def test_no_new_module_over_500_lines() -> None:
    """Every module over the limit is on the list, and every one listed is still over it."""
    long = {p for p, n in module_sizes(ENGINE).items() if n > MAX_MODULE_LINES}
    assert sorted(long - LONG_MODULES) == [], "split it before 500 lines"
    assert sorted(LONG_MODULES - long) == [], "no longer over the limit: take it off the list"


def test_no_new_function_over_80_lines() -> None:
    """Every function over the limit is on the list, and every one listed is still over it."""
    long = {f for f, n in function_sizes(ENGINE).items() if n > MAX_FUNCTION_LINES}
    assert sorted(long - LONG_FUNCTIONS) == [], "split it where a name would explain a step"
    assert sorted(LONG_FUNCTIONS - long) == [], "no longer over the limit: take it off the list"


def test_the_measures_see_a_long_function_and_module(tmp_path: Path) -> None:
    """The guard itself: an 81-line function and a 501-line module are seen."""
    body = "".join(f"    x{i} = {i}\n" for i in range(80))
    (tmp_path / "big.py").write_text("def long():\n" + body + "\n" * 420)
    assert function_sizes(tmp_path) == {"big.py:long": 81}
    assert module_sizes(tmp_path) == {"big.py": 501}
