"""``--cpu-durations N`` (tests/conftest.py): the tests that spent the most CPU, listed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def test_cpu_durations_lists_the_costliest_phases_with_the_total(tmp_path: Path) -> None:
    """A run of one file ends with the heading, the total and N lines naming test and phase.

    The inner pytest loads no plugin it does not need (xdist alone costs a second to start)
    and keeps its folders in this test's own: in the user's shared one it would remove, as it
    ends, the folders of older runs beyond the last three (5 to 15 s of CPU on a machine
    where others run the suite too, 1 s when none were left)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
         "-p", "no:randomly", "-p", "no:xdist", str(TESTS / "test_isolation.py"),
         "--cpu-durations", "2", "--basetemp", str(tmp_path / "inner")],
        capture_output=True, text=True, check=False, cwd=TESTS.parent,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.split("most CPU spent (", 1)[1].splitlines()
    assert summary[0].split(" s in all)")[0].replace(".", "", 1).isdigit(), summary[0]
    listed = [line for line in summary[1:] if "tests/test_isolation.py::" in line]
    assert len(listed) == 2, summary
    assert all(line.split()[1] in ("setup", "call", "teardown") for line in listed), listed
