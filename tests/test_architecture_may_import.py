"""Each top-level package's "May import" line says what it imports: a package it imports but
does not name fails, and so does one it names but never imports (a line that drifted)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "dreamgit"
#: What "the kernel" names: the modules at the bottom of the layers.
KERNEL = frozenset({"errors", "clock", "ids", "model", "records", "faults", "trailers", "version"})
#: Packages whose line is checked. ``integrations`` may import "every library layer below"
#: the API, which names no list; ``cli`` everything. The subpackages of ``dream`` and
#: ``store`` are for the next pass (issue 30: gather and consolidate are being edited).
PACKAGES = ("dream", "dsl", "extract", "history", "llm", "recall", "report", "ruleset", "store")


def may_import(docstring: str) -> set[str]:
    """The names a "May import:" sentence allows, up to its "never" or its end."""
    text = " ".join(docstring.split())
    found = re.search(r"May import:(.*?)(?:;\s*never\b|\.(?:\s|$))", text)
    assert found is not None, "no 'May import:' sentence"
    line = found.group(1)
    names = set(re.findall(r"``([a-z_]+)``", line))
    return names | KERNEL if "the kernel" in line else names


def imported(package: Path) -> set[str]:
    """The other parts of dreamgit (first name under it) a package's modules import."""
    found = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
                if node.module == "dreamgit":
                    names = [f"dreamgit.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "dreamgit" and len(parts) > 1 and parts[1] != package.name:
                    found.add(parts[1])
    return found


@pytest.mark.parametrize("name", PACKAGES)
def test_may_import_line_matches_the_imports(name: str) -> None:
    """What the package imports is what its line allows, and all it allows is used."""
    package = ENGINE / name
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
    assert docstring is not None
    allowed, used = may_import(docstring), imported(package)
    assert sorted(used - allowed) == [], f"{name} imports what its 'May import' line omits"
    assert sorted(allowed - used - KERNEL) == [], (
        f"{name}'s 'May import' names what it never imports"
    )


def test_the_line_is_read_up_to_never_or_its_end() -> None:
    """The guard itself: names after "never" are not allowed; "the kernel" is the kernel."""
    allowed = may_import("May import: ``store``, ``dsl`` and the kernel; never ``dream``.")
    assert allowed == {"store", "dsl"} | KERNEL
    assert may_import("May import: ``templating``. More prose with ``llm``.") == {"templating"}


def test_a_drifted_line_is_caught(tmp_path: Path) -> None:
    """A package importing a sibling its line omits, or naming one it never imports, fails."""
    package = tmp_path / "dreamgit" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""May import: ``store`` and ``llm``."""\n')
    (package / "mod.py").write_text("def f():\n    from dreamgit.dream import run\n")
    assert imported(package) == {"dream"}
    allowed = may_import("May import: ``store`` and ``llm``.")
    assert imported(package) - allowed == {"dream"}
    assert allowed - imported(package) == {"store", "llm"}
