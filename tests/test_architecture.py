"""The package's folders are its layers: no import circles, and only the store touches git.

The layer order itself is an import-linter contract in ``pyproject.toml`` (``lint-imports``
in ``.ci/run``); these tests add what a layers contract cannot say.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """dreamgit's import graph, type-checking imports and imports inside functions included."""
    return grimp.build_graph("dreamgit", include_external_packages=True, cache_dir=None)


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root) & modules)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    imported = graph.find_modules_directly_imported_by(child) & modules
                    work.append((child, iter(sorted(imported))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_of_the_package_imports_itself_in_a_circle(graph: grimp.ImportGraph) -> None:
    """No import circle anywhere, however it is closed (lazily, or only for types)."""
    modules = {m for m in graph.modules if m == "dreamgit" or m.startswith("dreamgit.")}
    assert _cycles(graph, modules) == []


def test_cycle_finder_reports_a_circle() -> None:
    """The circle check itself finds a circle of two modules (so its silence means something)."""
    fake = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        fake.add_module(name)
    fake.add_import(importer="pkg.a", imported="pkg.b")
    fake.add_import(importer="pkg.b", imported="pkg.a")
    fake.add_import(importer="pkg.c", imported="pkg.a")
    assert _cycles(fake, {"pkg.a", "pkg.b", "pkg.c"}) == [["pkg.a", "pkg.b"]]


def test_only_gitstore_imports_pygit2(graph: grimp.ImportGraph) -> None:
    """Every git object goes through ``store.gitstore``: only its modules import pygit2."""
    package = "dreamgit.gitstore"
    importers = graph.find_modules_that_directly_import("pygit2")
    outside = {m for m in importers if m != package and not m.startswith(f"{package}.")}
    assert importers
    assert outside == set()


def test_every_package_says_what_it_owns_and_may_import() -> None:
    """Each package's ``__init__`` docstring names what it may import."""
    packages = sorted((ROOT / "engine" / "dreamgit").rglob("__init__.py"))
    data = {"demo_data", "github_templates"}
    missing = [
        str(p.relative_to(ROOT))
        for p in packages
        if p.parent.name not in data and "May import" not in p.read_text(encoding="utf-8")
    ]
    assert missing == []


def test_layers_contract_holds() -> None:
    """``lint-imports`` keeps the layers of pyproject.toml: no lower layer imports a higher."""
    result = subprocess.run(
        [sys.executable, "-m", "importlinter.cli", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
