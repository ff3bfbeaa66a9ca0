"""The code fingerprints of the kept readings and comparisons name what decides them.

A kept reading is dropped when its fingerprint changes, and at 100,000 memories reading
every text again costs minutes; so the fingerprint covers the code that reads (every module
of the package that code imports, found here from the source) and not the data's shape or
the storage, and an edit outside it keeps what was kept.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.update_readings import COMPARED_BY, READ_BY
from dreamgit.store.keptframes import code_fingerprint

PACKAGE = Path(__import__("dreamgit").__file__).resolve().parent

#: Modules the reading code imports that decide no reading: the package, the data's shape
#: (the caches are keyed by the values read from it), where readings are kept, and what
#: those need. The walk stops at them.
DECIDE_NOTHING = {
    "dreamgit",
    "dreamgit.model",
    "dreamgit.usercache",
    "dreamgit.store.keptframes",
    "dreamgit.store.keptlayout",
    "dreamgit.store.sqlitecache",
}


def _source(module: str) -> Path | None:
    path = PACKAGE.parent.joinpath(*module.split("."))
    for found in (path.with_suffix(".py"), path / "__init__.py"):
        if found.exists():
            return found
    return None


def _imported(path: Path) -> set[str]:
    """The package's modules ``path`` imports when it runs (not for type checking)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dreamgit"):
            module = str(node.module)
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names if _source(f"{module}.{a.name}"))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("dreamgit"))
    return found


def _deciding(*roots: str) -> set[str]:
    """Every module of the package the ``roots`` reach by import, short of
    :data:`DECIDE_NOTHING`, as paths relative to the package."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        module = todo.pop()
        if module in seen or module in DECIDE_NOTHING:
            continue
        seen.add(module)
        path = _source(module)
        if path is not None:
            todo.extend(_imported(path))
    return {p.relative_to(PACKAGE).as_posix() for m in seen if (p := _source(m)) is not None}


def _covered(path: str, parts: tuple[str, ...]) -> bool:
    return any(path == part or path.startswith(f"{part}/") for part in parts)


@pytest.mark.parametrize(
    ("parts", "roots"),
    [
        (READ_BY, ["dreamgit.dream.consolidate.update_frames"]),
        (
            COMPARED_BY,
            [
                "dreamgit.dream.consolidate.update",
                "dreamgit.dream.consolidate.update_memo",
                "dreamgit.dream.consolidate.update_kept",
                "dreamgit.dream.consolidate.update_layout",
            ],
        ),
    ],
    ids=["readings", "comparisons"],
)
def test_the_fingerprint_covers_every_module_the_code_imports(
    parts: tuple[str, ...], roots: list[str]
) -> None:
    """A module the reading or comparing code imports that its fingerprint leaves out
    would let a kept answer outlive the code that made it."""
    missing = sorted(p for p in _deciding(*roots) if not _covered(p, parts))
    assert not missing, f"add these to the fingerprint's parts (or to DECIDE_NOTHING): {missing}"
    assert all(_covered(part, parts) for part in READ_BY if parts is COMPARED_BY)


def _edited(package: Path, path: str) -> str:
    with (package / path).open("a", encoding="utf-8") as file:
        file.write("\n# an edit\n")
    return path


def test_an_edit_outside_what_decides_keeps_the_fingerprints(tmp_path: Path) -> None:
    """Editing the data's shape or the phase that calls the check keeps both fingerprints;
    editing the comparison changes only its own; editing the reading changes both."""
    package = tmp_path / "dreamgit"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))

    def prints() -> tuple[str, str]:
        return (
            code_fingerprint.__wrapped__(package, READ_BY),
            code_fingerprint.__wrapped__(package, COMPARED_BY),
        )

    first = prints()
    _edited(package, "model.py")
    _edited(package, "dream/consolidate/phase.py")
    assert prints() == first
    _edited(package, "dream/consolidate/update_layout.py")
    second = prints()
    assert second[0] == first[0]
    assert second[1] != first[1]
    _edited(package, "extract/frame.py")
    third = prints()
    assert third[0] != second[0]
    assert third[1] != second[1]
