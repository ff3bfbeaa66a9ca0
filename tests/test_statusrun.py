"""A plain ``dreamgit status`` runs without click and prints what the click command prints."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli, cmd_memory, statusview  # both before any test patches either
from dreamgit.cli.statusrun import status_call
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT, git


def _process(
    args: list[str], repo: Path, **env: str
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``dreamgit ARGS`` in a fresh interpreter: what it printed, and its modules."""
    script = textwrap.dedent(
        f"""
        import atexit, sys
        atexit.register(lambda: sys.__stderr__.write("\\nMODULES " + " ".join(sys.modules)))
        from dreamgit.cli import main
        main({args!r})
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "DREAMGIT_REPO": str(repo), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    err, _, modules = done.stderr.rpartition("\nMODULES ")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, err), set(
        modules.split()
    )


def _by_click(args: list[str], repo: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, env={"DREAMGIT_REPO": str(repo)})
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A bare memory repository with memories, a session and a file that does not read."""
    path = tmp_path / "mem.git"
    repo = MemoryRepo.init(path, bare=True, now=NOW)
    repo.store.commit(
        "main",
        parents=[repo.tip()],
        tree=repo.store.build_tree(
            repo.tip(),
            {
                "memories/habits/bees.md": b"---\ndream:\n  id: m-bees\n---\nKeeps bees.\n",
                "memories/zzz/broken.md": b"---\n: [\n---\nx\n",
            },
        ),
        message="hand edits",
        who=repo.identity(),
        when=NOW,
    )
    return path


@pytest.mark.parametrize("words", [["status"], ["status", "--json"]])
def test_a_plain_status_prints_what_the_click_command_prints_without_loading_click(
    repo: Path, words: list[str]
) -> None:
    """Text and JSON, a problem warned about first: the same lines, streams and exit code,
    and the process never imports click."""
    args = ["--now", NOW_TEXT, *words]
    done, modules = _process(args, repo)
    assert (done.returncode, done.stdout, done.stderr) == _by_click(args, repo)
    assert "broken.md" in done.stderr
    assert done.stdout.startswith("{" if "--json" in words else "memories:")
    assert "click" not in modules and "dreamgit.cli.app" not in modules
    assert "difflib" not in modules  # the rules' "did you mean" helper loads it when it speaks


def test_a_bare_repositorys_status_loads_nothing_to_look_at_a_work_tree(repo: Path) -> None:
    """A bare repository has no work tree: its status (from the view the first one kept)
    imports neither the index reader nor ``subprocess``, which runs git's status."""
    args = ["--now", NOW_TEXT, "status"]
    first, _ = _process(args, repo)
    done, modules = _process(args, repo)
    assert (done.returncode, done.stdout) == (0, first.stdout)
    assert "dreamgit.dream.leanstatus" in modules and "dreamgit.cli.app" not in modules
    assert not {"subprocess", "dreamgit.store.leanworktree", "dreamgit.store.gitindex"} & modules


@pytest.mark.parametrize(
    ("args", "where"),
    [(["status"], "a folder that is no repository"), (["--now", "soon", "status"], "a bad --now")],
)
def test_a_plain_status_words_errors_as_the_root_group_does(
    tmp_path: Path, args: list[str], where: str
) -> None:
    """A user-fixable error: the root group's words and exit code, without click."""
    missing = tmp_path / "nowhere"
    done, modules = _process(args, missing)
    assert (done.returncode, done.stdout, done.stderr) == _by_click(args, missing), where
    assert done.returncode == 1 and done.stderr.startswith("error: ")
    assert "click" not in modules


def test_other_command_lines_and_output_click_would_change_go_through_click(repo: Path) -> None:
    """``--debug``, ``--repo=PATH``, ``--help`` and a stream that is not UTF-8 are click's."""
    assert status_call(["--debug", "status"]) is None
    assert status_call([f"--repo={repo}", "status"]) is None
    assert status_call(["status", "--help"]) is None
    assert status_call(["--repo", "x", "--repo", "y", "status"]) is None
    assert status_call(["--now", NOW_TEXT, "--repo", "x", "status", "--json"]) is not None
    done, modules = _process(["--now", NOW_TEXT, "status"], repo, PYTHONIOENCODING="latin-1")
    assert "click" in modules
    assert done.stdout.startswith("memories:")
    git(repo, "log", "-1")  # still a repository: nothing was written but caches


def test_a_plain_status_stopped_by_the_user_says_what_click_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the report is read: click's "Aborted!" on stderr and exit code 1."""
    from dreamgit.cli.statusrun import run_status

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(statusview, "status_output", interrupted)
    call = status_call(["--repo", str(tmp_path), "status"])
    assert call is not None
    with pytest.raises(SystemExit) as stopped:
        run_status(call)
    assert stopped.value.code == 1
    assert capsys.readouterr() == ("", "\nAborted!\n")
    monkeypatch.setattr(cmd_memory, "status_output", interrupted)
    by_click = CliRunner().invoke(cli, ["--repo", str(tmp_path), "status"])
    assert (by_click.exit_code, by_click.stdout, by_click.stderr) == (1, "", "\nAborted!\n")


def test_the_plain_command_line_reads_options_and_environment_as_click_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A value given wins over the environment, even an empty one; an empty variable is unset."""
    monkeypatch.setenv("DREAMGIT_REPO", "/env/mem")
    monkeypatch.setenv("DREAMGIT_NOW", "")
    assert status_call(["status"]) == ("/env/mem", None, ("status",))
    assert status_call(["--repo", "", "--now", "", "status"]) == ("", "", ("status",))
    monkeypatch.setenv("DREAMGIT_NOW", NOW_TEXT)
    found = status_call(["--repo", "/m", "status", "--json"])
    assert found == ("/m", NOW_TEXT, ("status", "--json"))


def test_a_plain_status_leaves_what_it_made_frozen(repo: Path) -> None:
    """Answered, a plain status freezes the objects it leaves: the collection Python makes
    as it finalizes walks none of them."""
    script = (
        "import gc, sys\nfrom dreamgit.cli import main\n"
        f"main(['--now', {NOW_TEXT!r}, 'status'])\n"
        "print(gc.get_freeze_count(), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "DREAMGIT_REPO": str(repo)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stderr.split()[-1]) > 10_000
