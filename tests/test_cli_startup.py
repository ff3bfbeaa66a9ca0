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

from clikit import installed_command, prepared
from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.cli.commands import COMMANDS
from dreamgit.store.repo import MemoryRepo
from dreamkit import set_config
from gitcheck import NOW, NOW_TEXT


def _loaded() -> dict[str, click.Command]:
    with click.Context(cli) as ctx:
        found = {name: cli.get_command(ctx, name) for name in COMMANDS}
    return {name: command for name, command in found.items() if command is not None}


def _modules_after(
    args: list[str], repo: Path | None = None, *, only: str = "dreamgit"
) -> set[str]:
    """The modules (those under ``only``; every one with ``only=""``) a fresh interpreter
    holds after running ``dreamgit ARGS``."""
    script = textwrap.dedent(
        f"""
        import sys
        from dreamgit.cli import main
        try:
            main({args!r})
        except SystemExit:
            pass
        print(" ".join(m for m in sys.modules if m.startswith({only!r})), file=sys.stderr)
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
    installed = subprocess.run([*installed_command(), "--version"], capture_output=True, text=True)
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


#: Never loaded by a plain `add` or `status` once the caches hold the store's views: click,
#: YAML, the rules' parser, the prompts' templates, the structural diff, a model's layer.
_NEVER_EVERYDAY = ("click", "ruamel", "lark", "jinja2", "deepdiff", "dreamgit.extract")
#: Of the dream: only what keeps MEMORY.md and the status view (an add), and the lean status.
_EVERYDAY_DREAM = (
    "dreamgit.dream.index",
    "dreamgit.dream.placing",
    "dreamgit.dream.reindex",
    "dreamgit.dream.statusviews",
    "dreamgit.dream.leanstatus",
    "dreamgit.dream.statusbranches",
    "dreamgit.dream.gate",
    "dreamgit.dream.healthfacts",
    "dreamgit.dream.healthparts",
)
#: Loaded only where git's own files cannot answer: libgit2 and, through it, ssl.
_GIT_LIBRARY = ("pygit2", "ssl")


def _beyond_everyday(loaded: set[str], *, git_library: bool) -> set[str]:
    """What ``loaded`` holds that a plain add or status should not need (libgit2 allowed
    with ``git_library``)."""
    never = _NEVER_EVERYDAY + (() if git_library else _GIT_LIBRARY)
    inside = tuple(f"{name}." for name in never)
    return {
        m
        for m in loaded
        if m in never
        or m.startswith(inside)
        or (m.startswith("dreamgit.dream.") and not m.startswith(_EVERYDAY_DREAM))
        or (m.startswith("dreamgit.llm.") and m != "dreamgit.llm.injection")
    }


@pytest.mark.parametrize("bare", [True, False])
def test_a_plain_add_and_status_load_only_what_they_use(
    tmp_path: Path, bare: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a first add and status kept their views (in this process), the commands as an
    agent runs them load none of click, YAML, the rules' parser, the dream's phases or the
    LLM layer; in a bare repository not libgit2 either (git's own files answer), where a
    work tree's add still needs it (its files and git's index follow the commit)."""
    # The rules' parsed trees are kept in the user's cache (dsl/treecache.py), the first
    # added dropped beyond 1,000: this worker's earlier tests may have filled it with their
    # own expressions, and this process holds its own. A cache of the test's own, filled
    # by a first status as a process, as an agent's is.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = tmp_path / "mem"
    MemoryRepo.init(repo, bare=bare, now=NOW)
    prepared(repo, NOW_TEXT, "add", "Likes oolong tea", "--topic", "food")
    _modules_after(["--now", NOW_TEXT, "status"], repo)
    adding = ["--now", NOW_TEXT, "add", "Likes green tea", "--topic", "food"]
    added = _modules_after(adding, repo, only="")
    status = _modules_after(["--now", NOW_TEXT, "status"], repo, only="")
    assert "dreamgit.cli.addrun" in added and "dreamgit.dream.leanstatus" in status
    assert ("pygit2" in added) is not bare
    assert not _beyond_everyday(added, git_library=not bare)
    assert not _beyond_everyday(status, git_library=False)


def _with_a_session(repo: Path, config: str | None = None) -> None:
    engine = DreamEngine(MemoryRepo.init(repo, now=NOW), now=NOW)
    if config is not None:
        set_config(engine.repo, config, now=NOW)
    engine.log_session("User: I keep my recipes in a plain text file under git.")


#: Loaded only to ask a model: the answer's contract (pydantic), the prompts (jinja2) and
#: the installed adapters' entry points (importlib.metadata).
_FOR_A_MODEL = ("pydantic", "pydantic_core", "jinja2", "importlib.metadata")
_FOR_A_MODEL_PACKAGES = tuple(f"{name}." for name in _FOR_A_MODEL)


def _for_a_model(loaded: set[str]) -> set[str]:
    return {m for m in loaded if m in _FOR_A_MODEL or m.startswith(_FOR_A_MODEL_PACKAGES)}


#: What a dream with no model still loads of the LLM layer: the adapter's type (a run may be
#: handed one) and the module that finds none configured, the check for instruction-shaped
#: text (every statement gets it) and the caps of a run. Not the proposal contract, the
#: asking, the cache nor the model's phases.
_NO_MODEL_NEEDS = {"dreamgit.llm", "dreamgit.llm.base", "dreamgit.llm.injection"}
_NO_MODEL_NEEDS |= {"dreamgit.llm.runlimits", "dreamgit.dream.llm_setup"}


def _llm_layer(loaded: set[str]) -> set[str]:
    return {
        m for m in loaded if m.startswith(("dreamgit.llm", "dreamgit.dream.llm_"))
    } - _NO_MODEL_NEEDS


@pytest.mark.parametrize(
    "args",
    [["run", "--force"], ["review", "--force"], ["status"], ["add", "Likes oolong", "-t", "food"]],
)
def test_commands_with_no_model_configured_load_no_pydantic_and_no_jinja(
    tmp_path: Path, args: list[str]
) -> None:
    """With no model configured, a dream that gathers a session, its review and the everyday
    commands import neither the model contract's pydantic, nor the prompts' jinja2, nor
    importlib.metadata to look for adapters, nor the LLM layer's asking and its phases."""
    _with_a_session(tmp_path / "mem")
    loaded = _modules_after(args, repo=tmp_path / "mem", only="")
    assert "dreamgit.store.repo" in loaded
    assert not _for_a_model(loaded)
    assert not _llm_layer(loaded)


def test_a_dream_that_asks_a_model_loads_its_contract_and_prompts(tmp_path: Path) -> None:
    """The same dream with the scripted model configured does load them: what the test
    above counts is what asking a model needs."""
    config = "extends: default\nllm:\n  adapter: scripted\n  model: m\n"
    _with_a_session(tmp_path / "mem", config)
    loaded = _modules_after(["run", "--force"], repo=tmp_path / "mem", only="")
    assert "dreamgit.dream.gather" in loaded
    assert _for_a_model(loaded) >= set(_FOR_A_MODEL)
    assert _llm_layer(loaded) >= {"dreamgit.dream.llm_phase", "dreamgit.llm.proposals"}


@pytest.mark.parametrize("args", [["history"], ["diff"]])
def test_only_diff_loads_the_structural_diff(tmp_path: Path, args: list[str]) -> None:
    """deepdiff (which brings numpy and pydantic) is loaded by `diff` alone: `history`,
    `merge`, `discard` and `revert` share its module but not that cost."""
    _with_a_session(tmp_path / "mem")
    loaded = _modules_after(args, repo=tmp_path / "mem", only="")
    assert "dreamgit.cli.cmd_git" in loaded
    assert ("deepdiff" in loaded) == (args[0] == "diff")
