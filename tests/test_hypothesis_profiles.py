"""The property tests' depth (tests/conftest.py): the ``suite`` profile in the README's test
command, ``thorough`` when ``--hypothesis-profile thorough`` asks for the nightly's."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).parent
#: Set by the test that runs this file again with another profile.
_EXPECTED = "DREAMGIT_EXPECTED_PROFILE"
_drawn: list[int] = []


@given(st.integers())
def _draw(number: int) -> None:
    _drawn.append(number)


def test_a_property_test_tries_as_many_examples_as_the_profile_in_force_says() -> None:
    """``suite`` unless the run named another: 50 examples, or the nightly's 500."""
    expected = os.environ.get(_EXPECTED, "suite")
    assert settings.get_current_profile_name() == expected
    _drawn.clear()
    _draw()
    assert len(_drawn) == {"suite": 50, "thorough": 500}[expected]


def test_the_nightly_profile_is_at_least_as_deep_as_any_test_asked_for_on_its_own() -> None:
    """No property test loses depth in the nightly run: 400 was the most one asked for."""
    thorough = settings.get_profile("thorough")
    assert thorough.max_examples >= 400 and thorough.deadline is None


def _own_counts(source: str) -> list[int]:
    """The lines of ``source`` where a property test sets its own ``max_examples``
    (``@settings(max_examples=...)``; registering a profile is not one)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "settings"
        and any(keyword.arg == "max_examples" for keyword in node.keywords)
    ]


def test_no_property_test_sets_its_own_example_count() -> None:
    """A count of its own overrides both profiles: 400 examples in every run of the README's
    command (eight times the suite's) and fewer than the nightly's 500. The profile decides."""
    assert _own_counts("@settings(max_examples=9, deadline=None)\ndef f(): ...") == [1]
    found = {
        path.name: lines
        for path in sorted(TESTS.glob("**/*.py"))
        if (lines := _own_counts(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.slow
def test_hypothesis_profile_thorough_is_the_profile_of_the_run(tmp_path: Path) -> None:
    """``--hypothesis-profile thorough`` reaches the property tests, conftest's default
    notwithstanding. The inner pytest loads no plugin it does not need; it took 15 to 25 s in
    some runs of a fresh clone (1 to 2 s in others), so it runs with the slow tests. The
    likely cause, seen in test_cpu_durations' twin: a pytest in the user's shared folder
    removes older runs' folders as it ends; this one keeps its folders in the test's own."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
         "-p", "no:randomly", "-p", "no:xdist", "--hypothesis-profile", "thorough",
         f"{__file__}::test_a_property_test_tries_as_many_examples_as_the_profile_in_force_says",
         "--basetemp", str(tmp_path / "inner")],
        capture_output=True, text=True, check=False, cwd=TESTS.parent,
        env=dict(os.environ, **{_EXPECTED: "thorough"}),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout, done.stdout
