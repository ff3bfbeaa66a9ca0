"""The test isolation of ``tests/conftest.py`` holds for module-scoped fixtures too.

A module-scoped fixture is made before the autouse fixture of its first test; it must
still see an empty HOME and git config of its own, not the developer's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel


@pytest.fixture(scope="module")
def seen_by_module_fixture(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What a module's own fixture sees of the environment when it is made."""
    return {
        "base": str(tmp_path_factory.getbasetemp()),
        "HOME": os.environ["HOME"],
        "XDG_CONFIG_HOME": os.environ.get("XDG_CONFIG_HOME", ""),
        "global git config": pygit2.settings.search_path[ConfigLevel.GLOBAL],
    }


def test_a_module_fixture_sees_an_empty_home_of_the_tests(
    seen_by_module_fixture: dict[str, str],
) -> None:
    """HOME, XDG and git's global config path lie under the tests' temporary folder."""
    base = Path(seen_by_module_fixture["base"])
    for name in ("HOME", "XDG_CONFIG_HOME", "global git config"):
        assert Path(seen_by_module_fixture[name]).is_relative_to(base), name


def test_a_test_gets_a_home_apart_from_its_modules(seen_by_module_fixture: dict[str, str]) -> None:
    """Each test has its own empty HOME, not the one its module's fixtures saw."""
    assert os.environ["HOME"] != seen_by_module_fixture["HOME"]
    assert not any(Path(os.environ["HOME"]).glob(".*"))
