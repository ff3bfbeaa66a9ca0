"""The trailer vocabulary: one module names every ``Dream-*`` trailer; writers and readers
use it, and no other module of the engine spells a trailer name itself."""

from __future__ import annotations

import ast
from pathlib import Path

from dreamgit import trailers as tr
from sourcekit import parsed, python_files

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "dreamgit"
VOCABULARY = ENGINE / "trailers.py"


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (they may name trailers in prose)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def trailer_literals(source: str) -> list[int]:
    """Lines of ``source`` where a string literal (not a docstring) spells ``Dream-``."""
    return trailer_lines(ast.parse(source))


def trailer_lines(tree: ast.Module) -> list[int]:
    """Lines of a module's tree where a string literal (not a docstring) spells ``Dream-``."""
    skip = _docstrings(tree)
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and "Dream-" in node.value
        and id(node) not in skip
    )


def test_no_module_but_the_vocabulary_spells_a_trailer_name() -> None:
    """A ``"Dream-`` string literal outside dreamgit/trailers.py fails, with file and line."""
    offenders = [
        f"{path.relative_to(ENGINE)}:{line}"
        for path in python_files(ENGINE)
        if path != VOCABULARY
        for line in trailer_lines(parsed(path))
    ]
    assert offenders == [], "use the names in dreamgit/trailers.py"


def test_the_literal_scan_sees_plain_and_formatted_strings_but_not_docstrings() -> None:
    """The guard itself: it finds the literal in an f-string and a plain one, not in prose."""
    source = (
        '"""Module: writes ``Dream-Op`` trailers."""\n'
        'A = "Dream-Op: add"\n'
        'def f(x):\n    """Names Dream-Run."""\n    return f"Dream-Run: {x}"\n'
    )
    assert trailer_literals(source) == [2, 5]


def test_trailers_written_are_read_back_by_name() -> None:
    """What trailers() writes as a last paragraph, parse_trailers() and find_trailer() read."""
    message = "forget: m-1, m-2\n\nwhy\n\n" + tr.trailers(
        (tr.OP, "forget"), (tr.MEMORY, "m-1, m-2"), (tr.SIGNALS, 3)
    )
    assert message.endswith("Dream-Op: forget\nDream-Memory: m-1, m-2\nDream-Signals: 3")
    assert tr.parse_trailers(message) == {
        "Dream-Op": "forget",
        "Dream-Memory": "m-1, m-2",
        "Dream-Signals": "3",
    }
    assert tr.find_trailer(message, tr.MEMORY) == "m-1, m-2"
    assert tr.find_trailer(message, tr.RUN) is None


def test_a_trailer_paragraph_needs_a_subject_before_it() -> None:
    """A message that is one paragraph has no trailers, even if it looks like one."""
    assert tr.parse_trailers("Dream-Op: add") == {}
