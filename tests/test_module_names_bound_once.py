"""Every module-level name in engine/ is bound once. Two merges in a row had two branches each
add a pattern under one name to one module (`_CONTRAST` in gather/momentary.py, `_DONE` in
gather/dates.py): Python keeps the later one silently, and every function that read the name
got the other pattern."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from sourcekit import parsed, python_files

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "dreamgit"


def names_bound_twice(source: str) -> list[str]:
    """Names a module's top level binds more than once (assignments, functions, classes)."""
    return names_bound_twice_in(ast.parse(source))


def names_bound_twice_in(tree: ast.Module) -> list[str]:
    """Names a module's tree binds more than once at its top level."""
    bound: Counter[str] = Counter()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound[node.name] += 1
        elif isinstance(node, ast.Assign):
            bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and node.value and isinstance(node.target, ast.Name):
            bound[node.target.id] += 1
    return sorted(name for name, count in bound.items() if count > 1)


def test_no_module_binds_a_name_twice() -> None:
    twice = {
        str(path.relative_to(ENGINE)): names
        for path in python_files(ENGINE)
        if (names := names_bound_twice_in(parsed(path)))
    }
    assert twice == {}, "rename one of them: the later binding hides the earlier"


def test_a_pattern_bound_twice_is_seen() -> None:
    source = "import re\n_DONE = re.compile('a')\n\ndef f(): ...\n\n_DONE = re.compile('b')\n"
    assert names_bound_twice(source) == ["_DONE"]
    assert names_bound_twice("X = 1\nY = 2\n") == []
