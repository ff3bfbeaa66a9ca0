"""`mcp` is an optional extra: without the SDK every command but `dreamgit mcp` works, and
`dreamgit mcp` says how to install it. The installed command runs as a process in which
the SDK cannot be imported (a package of that name on PYTHONPATH that refuses to load)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gitcheck import NOW_TEXT

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _without_mcp(tmp_path: Path) -> dict[str, str]:
    """An environment where ``import mcp`` and ``import mcp_types`` fail as if uninstalled."""
    hidden = tmp_path / "hidden"
    for name in ("mcp", "mcp_types"):
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(
            f"raise ModuleNotFoundError({f'No module named {name!r}'!r}, name={name!r})\n"
        )
    return dict(os.environ, PYTHONPATH=str(hidden))


def _run(env: dict[str, str], repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    return subprocess.run(
        [*command, "--repo", str(repo), "--now", NOW_TEXT, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_mcp_without_the_sdk_says_how_to_install_it(tmp_path: Path) -> None:
    """`dreamgit mcp` with no SDK: exit 1 and the pip command, not a crash."""
    env = _without_mcp(tmp_path)
    repo = tmp_path / "mem"
    assert _run(env, repo, "init").returncode == 0
    done = _run(env, repo, "mcp")
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        "error: dreamgit mcp needs the MCP SDK, which is not installed\n"
        "hint: install the extra: pip install 'dreamgit[mcp]'\n"
    )


def test_other_commands_work_without_the_sdk(tmp_path: Path) -> None:
    """init, add, run, recall and prompts show --schema need nothing of the MCP SDK."""
    env = _without_mcp(tmp_path)
    repo = tmp_path / "mem"
    for args in (
        ("init",),
        ("add", "Deploys the docs site from the gh-pages branch.", "--topic", "projects"),
        ("run", "--force"),
        ("recall", "docs site"),
        ("prompts", "show", "--schema"),
    ):
        done = _run(env, repo, *args)
        assert done.returncode == 0, (args, done.stderr)
    assert "gh-pages" in _run(env, repo, "recall", "docs site").stdout


def test_the_sdk_is_an_extra_and_the_test_extra_brings_it() -> None:
    """pyproject: mcp is not a runtime dependency; the mcp and test extras name it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.startswith("mcp")]
    assert [d for d in project["optional-dependencies"]["mcp"] if d.startswith("mcp")]
    assert [d for d in project["optional-dependencies"]["test"] if d.startswith("mcp")]
