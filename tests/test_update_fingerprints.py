"""The newer-value check's caches are tagged with what decides their answers, no more.

A reading (``update-readings``) depends on the framing code and the modules that frame
a memory's text; an update and the check's layout with its counts (``subject-updates``,
the kept layout) on the modules the check and the count check import too. Neither
depends on ``model.py`` or on the rest of consolidation: an edit there (a docstring)
must keep the caches, which over 100,000 memories cost a minute to fill again.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.update_readings import FOUND_BY, READ_BY
from dreamgit.store.keptframes import code_fingerprint

_PACKAGE = Path(__file__).resolve().parents[1] / "engine" / "dreamgit"


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package's source, to edit."""
    copy = tmp_path / "dreamgit"
    shutil.copytree(_PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return copy


def _fingerprint(package: Path, parts: tuple[str, ...]) -> str:
    return code_fingerprint.__wrapped__(package, parts)


def _edit(package: Path, module: str) -> None:
    path = package / module
    path.write_text(path.read_text() + "\n# edited\n")


@pytest.mark.parametrize("parts", [READ_BY, FOUND_BY], ids=["readings", "updates"])
def test_an_edit_to_the_model_keeps_the_fingerprint(package: Path, parts: tuple[str, ...]) -> None:
    """Editing model.py (or the dream loop) keeps the readings' and updates' caches."""
    before = _fingerprint(package, parts)
    _edit(package, "model.py")
    _edit(package, "dream/run.py")
    assert _fingerprint(package, parts) == before


@pytest.mark.parametrize(
    "module",
    ["dream/consolidate/update_frames.py", "dream/consolidate/restate.py", "extract/frame.py"],
)
def test_an_edit_to_what_reads_a_memory_changes_both_fingerprints(
    package: Path, module: str
) -> None:
    """Editing the code that frames a memory's text gives other readings and updates."""
    before = [_fingerprint(package, parts) for parts in (READ_BY, FOUND_BY)]
    _edit(package, module)
    after = [_fingerprint(package, parts) for parts in (READ_BY, FOUND_BY)]
    assert after[0] != before[0]
    assert after[1] != before[1]


def test_an_edit_to_the_comparison_keeps_the_readings(package: Path) -> None:
    """Editing how subjects or counts are compared keeps the readings, not the updates."""
    readings, updates = _fingerprint(package, READ_BY), _fingerprint(package, FOUND_BY)
    _edit(package, "dream/consolidate/update.py")
    _edit(package, "dream/consolidate/count_layout.py")
    assert _fingerprint(package, READ_BY) == readings
    assert _fingerprint(package, FOUND_BY) != updates


def test_every_part_of_the_readings_fingerprint_exists() -> None:
    """A part that names no file would make the fingerprint fail and nothing be kept."""
    assert all((_PACKAGE / part).exists() for part in (*READ_BY, *FOUND_BY))


def test_an_edit_to_the_rest_of_consolidation_keeps_the_updates(package: Path) -> None:
    """Editing the phase or the duplicates' code keeps the updates' and layout's caches."""
    before = _fingerprint(package, FOUND_BY)
    for module in ("phase.py", "judged_pairs.py", "merge_text.py", "retire.py"):
        _edit(package, f"dream/consolidate/{module}")
    assert _fingerprint(package, FOUND_BY) == before


#: What the check imports that decides none of its answers: a memory's other fields, the
#: package's errors and clock, where the kept answers and compiled patterns are stored and
#: the JSON text they are stored as.
_DECIDES_NOTHING = ("model.py", "clock.py", "errors.py", "store/", "usercache.py", "jsontext.py")


def test_the_updates_fingerprint_holds_every_module_the_check_imports() -> None:
    """A module the newer-value or count check imports is in FOUND_BY (else an edit to it
    would keep answers that code no longer gives)."""
    covered = {f for part in FOUND_BY for f in _files(_PACKAGE / part)}
    starts = [f"dream/consolidate/{m}.py" for m in ("update", "update_memo", "counts")]
    missing = [
        name
        for name in _imported(starts)
        if _PACKAGE / name not in covered and not name.startswith(_DECIDES_NOTHING)
    ]
    assert missing == []


def _files(target: Path) -> list[Path]:
    return sorted(target.rglob("*.py")) if target.is_dir() else [target]


def _imported(starts: list[str]) -> set[str]:
    """The package's modules (paths relative to it) that ``starts`` import, at any depth."""
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse((_PACKAGE / name).read_text())):
            modules: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            todo.extend(_module_file(m) for m in modules if _module_file(m))
    return seen


def _module_file(module: str) -> str:
    """``dreamgit.a.b`` as ``a/b.py``; "" when not one of the package's modules (a folder's
    ``__init__`` decides nothing: ``from dreamgit import textsim`` imports textsim)."""
    parts = module.split(".")
    name = "/".join(parts[1:]) + ".py"
    return name if parts[0] == "dreamgit" and (_PACKAGE / name).is_file() else ""
