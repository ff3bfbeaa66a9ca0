"""A command pays only for what it runs: `--help` lists commands without loading them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.cli.commands import COMMANDS
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW


def _loaded() -> dict[str, click.Command]:
    with click.Context(cli) as ctx:
        found = {name: cli.get_command(ctx, name) for name in COMMANDS}
    return {name: command for name, command in found.items() if command is not None}


def _modules_after(args: list[str], repo: Path | None = None) -> set[str]:
    """The package's modules a fresh interpreter holds after running ``dreamgit ARGS``."""
    script = textwrap.dedent(
        f"""
        import sys
        from dreamgit.cli import main
        try:
            main({args!r})
        except SystemExit:
            pass
        print(" ".join(m for m in sys.modules if m.startswith("dreamgit")), file=sys.stderr)
        """
    )
    env = dict(os.environ, DREAMGIT_REPO=str(repo)) if repo else None
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return set(done.stderr.split())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_summary_in_the_table_is_the_first_paragraph_of_its_help(name: str) -> None:
    """The table's summary is what click would list for the command, word for word."""
    assert COMMANDS[name][1] == _loaded()[name].get_short_help_str(limit=10_000)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_help_lists_commands_as_click_would_with_every_command_loaded(width: int) -> None:
    """`dreamgit --help` is the listing click writes from the loaded commands, at any width."""
    plain = click.Group(
        name=cli.name,
        commands=_loaded(),
        params=cli.params,
        help=cli.help,
        context_settings=cli.context_settings,
    )
    ours = CliRunner().invoke(cli, ["--help"], terminal_width=width, prog_name="dreamgit")
    theirs = CliRunner().invoke(plain, ["--help"], terminal_width=width, prog_name="dreamgit")
    assert ours.exit_code == 0
    assert "\nCommands:\n  add " in ours.output
    assert ours.output == theirs.output


def test_help_loads_no_command_module() -> None:
    """`dreamgit --help` imports the command table, not the commands and the engine below."""
    loaded = _modules_after(["--help"])
    assert "dreamgit.cli.commands" in loaded
    assert not {m for m in loaded if m.startswith("dreamgit.cli.cmd_")}
    engine = ("dreamgit.store", "dreamgit.dream", "dreamgit.ruleset", "dreamgit.recall")
    assert not {m for m in loaded if m.startswith(engine)}


def test_version_is_what_click_prints_without_loading_click() -> None:
    """`dreamgit --version` (the installed command) says what click's version option says,
    and the process never imports click, the command table or the crash log's modules."""
    script = (
        "import sys\n"
        "from dreamgit.cli import main\n"
        "main(['--version'])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = set(done.stderr.split())
    assert not loaded & {"click", "dreamgit.cli.app", "dreamgit.cli.commands", "platform"}
    installed = subprocess.run(["dreamgit", "--version"], capture_output=True, text=True)
    by_click = CliRunner().invoke(cli, ["--version"], prog_name="dreamgit")
    assert (installed.returncode, installed.stdout) == (0, by_click.output) == (0, done.stdout)
    assert by_click.exit_code == 0


def test_help_does_not_load_the_clock() -> None:
    """`dreamgit --help` reads no time: the clock is loaded by the commands that do."""
    assert "dreamgit.clock" not in _modules_after(["--help"])


@pytest.mark.parametrize("args", [["add", "Likes oolong tea", "--topic", "food"], ["status"]])
def test_everyday_commands_load_no_gathering(tmp_path: Path, args: list[str]) -> None:
    """`add` and `status` rewrite or read the index without loading the gather phase."""
    MemoryRepo.init(tmp_path / "mem", now=NOW)
    loaded = _modules_after(args, repo=tmp_path / "mem")
    assert "dreamgit.store.repo" in loaded
    assert not {m for m in loaded if m.startswith("dreamgit.dream.gather")}
