"""README and --help stay true: every command has help text and is in the README."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dreamgit.cli import cli

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands() -> list[tuple[str, click.Command]]:
    """Every command by its full name (``rules check``), groups and their subcommands."""
    found = []
    with click.Context(cli) as ctx:
        named = [(name, cli.get_command(ctx, name)) for name in cli.list_commands(ctx)]
    for name, command in named:
        assert command is not None, f"{name} is listed but does not load"
        found.append((name, command))
        if isinstance(command, click.Group):
            found.extend((f"{name} {sub}", c) for sub, c in sorted(command.commands.items()))
    return found


COMMANDS = _commands()


def test_every_command_is_found_and_loads() -> None:
    """The lazily loaded command table names the commands the CLI offers, all loadable."""
    assert len(COMMANDS) > 20
    assert {"run", "review", "rules check", "prompts show", "install-cron"} <= {
        n for n, _ in COMMANDS
    }


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_has_help_text(name: str, command: click.Command) -> None:
    """`dreamgit CMD --help` exits 0 and the command has a short help line."""
    result = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ")
    assert command.get_short_help_str(limit=200).strip(), f"{name} has no help text"


@pytest.mark.parametrize("name", [n for n, _ in COMMANDS])
def test_command_appears_in_readme(name: str) -> None:
    """The README mentions every command, as `dreamgit CMD` or in a code span `CMD …`."""
    text = README.read_text(encoding="utf-8")
    pattern = rf"(dreamgit {re.escape(name)}\b|`{re.escape(name)}\b)"
    assert re.search(pattern, text), f"README.md does not mention `dreamgit {name}`"


def _walkthrough() -> list[str]:
    """The shell lines of the README's "Using it" walkthrough, comments stripped."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Using it") :]
    block = section[section.index("```sh\n") + len("```sh\n") :]
    block = block[: block.index("```")]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.mark.slow  # the README's walkthrough as written: a dozen commands, a dream, a revert
def test_readme_walkthrough_dreams_and_its_run_can_be_reverted(tmp_path: Path) -> None:
    """Following "Using it" as written (the installed command, a fresh HOME) ends in a dream."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    command = shutil.which("dreamgit") or str(Path(sys.executable).parent / "dreamgit")
    env = {
        "PATH": f"{Path(command).parent}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(tmp_path / ".gitconfig"),
    }
    lines = _walkthrough()
    assert lines[0].startswith("dreamgit init ~/agent-memory")
    script = []
    for line in lines:
        if "RUN" in line.split():
            script.append(
                'RUN="$(dreamgit history --json | python3 -c '
                '\'import json,sys; print(json.load(sys.stdin)[0]["run_id"])\')"'
            )
            line = line.replace(" RUN", ' "$RUN"')
        script.append(f"{line}\necho '--- {line.split()[1]}'")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", "\n".join(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dream due:        yes" in done.stdout
    assert "skipped" not in done.stdout
    run_out = done.stdout.split("--- review\n")[1].split("--- run\n")[0]
    assert " add " in run_out and ": merged into main (dream/" in run_out
    history = subprocess.run(
        ["dreamgit", "--repo", str(tmp_path / "agent-memory"), "history", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    [run] = json.loads(history.stdout)
    assert run["status"] == "reverted" and run["counts"]["add"] >= 3


def test_ci_runs_the_readme_test_command() -> None:
    """`.ci/run` installs and tests with the quick start's second command, as written."""
    text = README.read_text(encoding="utf-8")
    quick = text.split("# 2. install with the test extra, and run the tests\n")[1].split("\n")[0]
    command = quick.split(" && ", 2)[2]  # after the venv is made and activated
    assert command.startswith("pip install -e '.[test]' && python -m pytest")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert f"\n{command}\n" in ci


def test_ci_runs_the_slow_tests_the_readme_command_leaves_out() -> None:
    """The quick start deselects `slow`; `.ci/run` runs exactly those after it."""
    text = README.read_text(encoding="utf-8")
    quick = text.split("# 2. install with the test extra, and run the tests\n")[1].split("\n")[0]
    assert quick.endswith('python -m pytest -n auto -m "not slow"')
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    after = ci[next(i for i, line in enumerate(ci) if line.endswith(quick.split(" && ")[-1])) :]
    assert "python -m pytest -n auto -m slow" in after
