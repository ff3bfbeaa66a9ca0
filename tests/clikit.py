"""The installed command as a process, on a repository named by ``DREAMGIT_REPO``, and the
repositories end-to-end tests share as templates (made once a worker, copied for each test)."""

from __future__ import annotations

import copy
import functools
import gc
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def dreamgit(repo: Path, now: str, *args: str, stdin: str | None = None) -> str:
    """Run ``dreamgit --now NOW ARGS`` on ``repo``; its stdout (it must succeed)."""
    done = dreamgit_process(repo, now, *args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def installed_command() -> list[str]:
    """The installed ``dreamgit`` beside this interpreter (its venv need not be on PATH)."""
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "dreamgit"]


def dreamgit_process(
    repo: Path, now: str, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``dreamgit --now NOW ARGS`` on ``repo``, whatever its exit status."""
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    return subprocess.run(
        [*installed_command(), "--now", now, *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def prepared(repo: Path, now: str, *args: str, stdin: str | None = None) -> str:
    """A set-up step: ``dreamgit --now NOW ARGS`` on ``repo`` run in this process (click's
    runner, the same code as the command's) where the process is not what the test proves;
    its stdout (it must succeed). Saves the 0.2 to 0.3 s of CPU a process costs to start."""
    from click.testing import CliRunner

    from dreamgit.cli import cli

    argv = sys.argv
    # The program a command names as itself (install-hooks writes it into the hooks it
    # installs) is the installed command, as when that command runs as a process.
    sys.argv = [installed_command()[0], "--now", now, *args]
    try:
        done = CliRunner().invoke(
            cli, ["--now", now, *args], input=stdin, env={"DREAMGIT_REPO": str(repo)}
        )
    finally:
        sys.argv = argv
    assert done.exit_code == 0, (done.output, done.exception)
    return done.stdout


def active(repo: Path, now: str, *, in_process: bool = False) -> list[dict[str, Any]]:
    """The active memories as ``memories --json`` lists them: the installed command's
    answer, or with ``in_process`` the same command run in this process (``prepared``) for
    a test whose file already proves the listing through the process."""
    listing = prepared if in_process else dreamgit
    found: list[dict[str, Any]] = json.loads(listing(repo, now, "memories", "--json"))
    return found


class RepositoryTemplates:
    """Repositories that several end-to-end tests start from, made once and copied.

    ``copy(build, dest)`` runs ``build(path)`` the first time it is asked for (inside
    that test, so under its isolated home; ``build`` must depend on nothing else) and
    keeps what it made, by the name of ``build`` (or of the function a partial calls).
    Every call gets its own copy at ``dest`` and a copy of what ``build`` returned. A
    copy is the repository as the commands left it, the derived cache in its git
    directory included: a test changes its copy, never the template.
    """

    def __init__(self, root: Path) -> None:
        self._root = root
        self._made: dict[str, tuple[Path, Any]] = {}

    def copy(self, build: Callable[[Path], T], dest: Path, *, variant: str = "") -> T:
        """A fresh copy at ``dest`` of what ``build`` made; what it returned.

        ``variant`` tells apart templates one ``build`` makes with different arguments.
        """
        made_by = build.func if isinstance(build, functools.partial) else build
        name = f"{made_by.__module__}.{made_by.__qualname__}"
        if variant:
            name += "-" + hashlib.sha256(variant.encode()).hexdigest()[:12]
        if name not in self._made:
            made = self._root / name / "repo"
            shutil.rmtree(made.parent, ignore_errors=True)  # what a build that failed left
            made.parent.mkdir(parents=True)
            self._made[name] = (made, build(made))
            # A build run in this process may leave a store's SQLite connection for the
            # garbage collector; closed in the middle of a copy, it takes its WAL file
            # away between copytree's listing and its copying. Close them all first.
            gc.collect()
        source, result = self._made[name]
        shutil.copytree(source, dest, symlinks=True)
        found: T = copy.deepcopy(result)  # a test may change what it was given
        return found


def _init(now: str, options: tuple[str, ...], repo: Path) -> None:
    dreamgit(repo, now, "init", *options, str(repo))


def initialized(templates: RepositoryTemplates, repo: Path, now: str, *options: str) -> None:
    """At ``repo``, what ``dreamgit --now NOW init OPTIONS REPO`` makes: the command runs
    once a worker for each ``now`` and ``options``, and each caller gets a copy."""
    build = functools.partial(_init, now, options)
    templates.copy(build, repo, variant=repr((now, options)))
