"""Each top-level package's "May import" line says what it imports: a package it imports but
does not name fails, and so does one it names but never imports (a line that drifted).

The line is also the import-linter contract: pyproject.toml holds, for each package, a
`forbidden` contract of every other top-level part of dreamgit its line does not name, and
a test checks the two agree, so `lint-imports` enforces exactly what the docstring says.
When a line changes, `python tests/test_architecture_may_import.py` prints every contract as
pyproject.toml should hold it.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sourcekit import parsed, python_files

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine" / "dreamgit"
#: What "the kernel" names: the modules at the bottom of the layers.
KERNEL = frozenset(
    {
        "errors",
        "clock",
        "ids",
        "jsontext",
        "leanhash",
        "lazyre",
        "model",
        "records",
        "faults",
        "trailers",
        "usercache",
        "packagefiles",
        "version",
    }
)
#: Packages whose line is checked. ``integrations`` may import "every library layer below"
#: the API, which names no list; ``cli`` everything. The subpackages of ``dream`` and
#: ``store`` are for the next pass (issue 30: gather and consolidate are being edited).
PACKAGES = (
    "dream",
    "dsl",
    "extract",
    "gitstore",
    "history",
    "llm",
    "recall",
    "report",
    "ruleset",
    "store",
)


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
    for path in python_files(package):
        for node in ast.walk(parsed(path)):
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


def top_level_parts(engine: Path) -> set[str]:
    """The modules and packages directly under dreamgit (what a "May import" line can name)."""
    return {
        path.stem if path.is_file() else path.name
        for path in engine.iterdir()
        if (path.suffix == ".py" and not path.name.startswith("__"))
        or (path / "__init__.py").is_file()
    }


def contract_for(name: str, docstring: str, parts: set[str]) -> dict[str, Any]:
    """The import-linter contract a package's "May import" line stands for."""
    forbidden = sorted(parts - may_import(docstring) - {name})
    return {
        "name": f"{name} imports only what its 'May import' line names",
        "type": "forbidden",
        "source_modules": [f"dreamgit.{name}"],
        "forbidden_modules": [f"dreamgit.{part}" for part in forbidden],
        # The line names direct imports; what those import in turn is their own line's business.
        "allow_indirect_imports": True,
    }


def _docstring(name: str) -> str:
    docstring = ast.get_docstring(ast.parse((ENGINE / name / "__init__.py").read_text()))
    assert docstring is not None
    return docstring


def _contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}


@pytest.mark.parametrize("name", PACKAGES)
def test_the_import_linter_contract_is_the_may_import_line(name: str) -> None:
    """pyproject.toml forbids the package exactly what its line leaves out."""
    expected = contract_for(name, _docstring(name), top_level_parts(ENGINE))
    assert _contracts().get(expected["name"]) == expected, (
        f"{name}: its 'May import' line and pyproject.toml's contract differ; the contract "
        "should read as the expected value above"
    )


def test_a_drifted_line_no_longer_matches_its_contract() -> None:
    """Naming one more package in the line changes the contract it stands for, so it fails."""
    parts = top_level_parts(ENGINE)
    contract = _contracts()[contract_for("llm", _docstring("llm"), parts)["name"]]
    drifted = _docstring("llm").replace("``templating``,", "``templating``, ``recall``,")
    assert drifted != _docstring("llm")
    assert contract_for("llm", drifted, parts) != contract
    assert "dreamgit.recall" in contract["forbidden_modules"]


def test_lint_imports_fails_on_an_import_the_line_leaves_out(tmp_path: Path) -> None:
    """lint-imports enforces the generated contract: importing what the line omits fails."""
    root = tmp_path / "dreamgit"
    for part, source in {
        "": '"""The root."""\n',
        "kernel": '"""May import: nothing."""\n',
        "low": '"""May import: ``kernel``."""\nfrom dreamgit import kernel\n',
        "side": '"""May import: ``kernel``."""\n',
    }.items():
        (root / part).mkdir(parents=True, exist_ok=True)
        (root / part / "__init__.py").write_text(source)
    (root / "side" / "mod.py").write_text("from dreamgit import low\n")
    contract = contract_for("side", "May import: ``kernel``.", top_level_parts(root))
    assert contract["forbidden_modules"] == ["dreamgit.low"]
    config = tmp_path / "contracts.toml"
    lines = [
        "[tool.importlinter]",
        'root_package = "dreamgit"',
        "[[tool.importlinter.contracts]]",
        *(f"{key} = {_toml(value)}" for key, value in contract.items()),
    ]
    config.write_text("\n".join(lines) + "\n")
    done = _lint_imports(config)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "dreamgit.side.mod -> dreamgit.low" in done.stdout
    (root / "side" / "mod.py").write_text("from dreamgit import kernel\n")
    done = _lint_imports(config)
    assert done.returncode == 0, done.stdout + done.stderr


def _lint_imports(config: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the package beside ``config`` (not the installed dreamgit)."""
    lint = "from importlinter.cli import lint_imports_command as c; c()"
    return subprocess.run(
        [sys.executable, "-c", lint, "--config", str(config), "--no-cache"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(config.parent)},
        cwd=config.parent,
        check=False,
    )


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return f'"{value}"'


def contract_toml(contract: dict[str, Any]) -> str:
    """A contract as pyproject.toml writes it (the forbidden modules wrapped at 100)."""
    modules = ", ".join(f'"{m}"' for m in contract["forbidden_modules"])
    wrapped = textwrap.indent(textwrap.fill(modules, 96, break_on_hyphens=False), "    ")
    return (
        "[[tool.importlinter.contracts]]\n"
        f'name = "{contract["name"]}"\n'
        f'type = "{contract["type"]}"\n'
        f'source_modules = ["{contract["source_modules"][0]}"]\n'
        f"forbidden_modules = [\n{wrapped},\n]\n"
        f"allow_indirect_imports = {_toml(contract['allow_indirect_imports'])}\n"
    )


def test_the_printed_contracts_read_back_as_the_lines_say() -> None:
    """What the script prints for pyproject.toml is, read as TOML, each line's contract."""
    parts = top_level_parts(ENGINE)
    for name in PACKAGES:
        expected = contract_for(name, _docstring(name), parts)
        printed = tomllib.loads(contract_toml(expected))["tool"]["importlinter"]["contracts"]
        assert printed == [expected], name


if __name__ == "__main__":
    for package in PACKAGES:
        print(contract_toml(contract_for(package, _docstring(package), top_level_parts(ENGINE))))
