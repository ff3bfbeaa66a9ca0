"""What a plain `pip install .` brings: few packages, so the tool installs small and fast.

The closure is read from pyproject.toml's dependencies and the installed packages' own
requirements (markers evaluated, extras left out), as pip resolves it; `.ci/plain-install`
counts the same in a fresh venv and runs the commands there.
"""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
#: The project itself counts, as `pip list` shows it; pip and setuptools do not.
MOST_PACKAGES = 25


def _plain_install_closure() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {canonicalize_name(project["name"])}
    todo = [Requirement(line) for line in project["dependencies"]]
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        extras = set(requirement.extras)
        if name in found and not extras:
            continue
        found.add(name)
        for line in importlib.metadata.requires(name) or []:
            needed = Requirement(line)
            marker = needed.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in {"", *extras}):
                todo.append(Requirement(str(needed).split(";")[0]))
    return found


def test_a_plain_install_brings_at_most_25_packages() -> None:
    """`pip install .` without extras stays within the count the issue set (mcp is an extra)."""
    closure = _plain_install_closure()
    assert len(closure) <= MOST_PACKAGES, sorted(closure)
    assert "mcp" not in closure and "dreamgit" in closure
