"""Shared fixtures for the dream tests: a memory repository built at fixed times, and judges.

:func:`build_repo` writes hand-added memories (two pairs sharing a ``key``, two
near-duplicate pairs, a core fact and an identity fact) and five sessions, one a
day, so a dream at :data:`DREAM_AT` has work in every phase: adds in gather,
at least two supersessions and two merges in consolidate, a prune, the index.
Everything happens at fixed times under a fixed identity, so two builds give the
same commit ids. The real ``git`` binary and the real command line (CliRunner or
a subprocess) are the judges; nothing here mocks git.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.store import layout, operations
from dreamgit.store.repo import MemoryRepo

#: When the hand-added memories are written; sessions follow a day apart.
T0 = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)
#: When the fixture's dream runs: a day after the last session.
DREAM_AT = T0 + timedelta(days=6)


@dataclass(frozen=True)
class Seed:
    """A memory added by hand ``hours`` after :data:`T0`."""

    text: str
    topic: str
    priority: str = "normal"
    key: str | None = None
    hours: int = 0


#: A core fact, an identity fact, two keyed slots written twice, two near-duplicate pairs,
#: and an ephemeral note old enough to be pruned.
MEMORIES: tuple[Seed, ...] = (
    Seed("User's name is Ada Lovelace.", "identity", "core", "user.name"),
    Seed("Lives in Lisbon, Portugal.", "identity"),
    Seed("Uses Flask for the web services at work.", "tools"),
    Seed("Prefers pytest over unittest for Python tests.", "preferences"),
    Seed("Editor theme is solarized light.", "preferences", key="editor.theme"),
    Seed("Deploys go out on Tuesdays.", "work", key="deploy.day"),
    Seed("Keeps the changelog in CHANGELOG.md at the root.", "work"),
    Seed("Editor theme is gruvbox dark.", "preferences", key="editor.theme", hours=1),
    Seed("Deploys go out on Thursdays.", "work", key="deploy.day", hours=1),
    Seed("keeps the changelog in changelog.md at the root!", "work", hours=1),
    Seed("Prefers pytest over unittest for python tests", "preferences", hours=1),
    Seed("Has a haircut appointment on 2026-11-11 at 9.", "schedule", "ephemeral"),
)

#: Sessions, logged one a day from T0 + 1 day: a tool, a note, a switch, a near date.
SESSIONS: tuple[str, ...] = (
    "User: I use Neovim as my editor.\nAssistant: Noted.",
    "User: Remember that the staging deploy needs the VPN.",
    "User: I switched from Flask to FastAPI for all new services.",
    "User: Tomorrow I have a dentist appointment at 10.",
    "User: I prefer dark mode in every editor.",
)


def iso(when: datetime) -> str:
    """``when`` as the command line's ``--now`` takes it."""
    return format_time(when)


def build_repo(
    root: Path,
    *,
    bare: bool = False,
    memories: Sequence[Seed] = MEMORIES,
    sessions: Sequence[str] = SESSIONS,
    config: str | None = None,
) -> MemoryRepo:
    """A memory repository at ``root`` with ``memories`` and then ``sessions``, at fixed times."""
    repo = MemoryRepo.init(root, bare=bare, now=T0)
    if config is not None:
        set_config(repo, config, now=T0)
    for seed in memories:
        operations.add_memory(
            repo,
            seed.text,
            topic=seed.topic,
            priority=seed.priority,
            key=seed.key,
            now=T0 + timedelta(hours=seed.hours),
        )
    for day, text in enumerate(sessions, start=1):
        operations.log_session(repo, text, now=T0 + timedelta(days=day))
    return repo


_BUILT: dict[bool, Path] = {}


def fixture_copy(factory: pytest.TempPathFactory, root: Path, *, bare: bool = False) -> MemoryRepo:
    """The default :func:`build_repo`, built once per test session and copied to ``root``."""
    if bare not in _BUILT:
        _BUILT[bare] = factory.mktemp("dreamkit") / "mem"
        build_repo(_BUILT[bare], bare=bare)
    shutil.copytree(_BUILT[bare], root, symlinks=True)
    return MemoryRepo.open(root)


def set_config(repo: MemoryRepo, text: str, *, now: datetime) -> None:
    """Commit ``text`` as the repository's ``.dreamgit/config.yaml``."""
    repo.commit_main(
        "config: test rules", lambda _tip: {layout.CONFIG: text.encode("utf-8")}, now=now
    )


def where(repo: MemoryRepo) -> Path:
    """The directory git commands run in (the work tree, or the bare git directory)."""
    return repo.store.workdir or repo.store.git_dir


def git(repo: MemoryRepo | Path, *args: str) -> str:
    """Run the real git binary on ``repo`` and return its stdout; fail loudly on an error."""
    path = where(repo) if isinstance(repo, MemoryRepo) else repo
    done = subprocess.run(
        ["git", "-C", str(path), *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"git {' '.join(args)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def refs(repo: MemoryRepo) -> dict[str, str]:
    """Every ref of the repository and the object it points at, as git lists them."""
    out = git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
    return dict(line.split(" ", 1) for line in out.splitlines())


def dream_branches(repo: MemoryRepo) -> list[str]:
    """Names of the ``dream/*`` branches that exist."""
    return sorted(repo.store.branches(layout.DREAM_BRANCH_PREFIX))


def worktree_files(repo: MemoryRepo) -> dict[str, str]:
    """Every file of the work tree outside ``.git`` → a hash of its bytes."""
    top = repo.store.workdir
    assert top is not None, "a bare repository has no work tree"
    found = {}
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top)
        if rel.parts[0] != ".git" and path.is_file():
            found[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def tree_of(repo: MemoryRepo, rev: str = layout.MAIN) -> str:
    """The tree id of ``rev``."""
    return git(repo, "rev-parse", f"{rev}^{{tree}}").strip()


def memory_files(repo: MemoryRepo, rev: str = layout.MAIN) -> dict[str, str]:
    """Path → blob id of every memory file, plus MEMORY.md, at ``rev``."""
    out = git(repo, "ls-tree", "-r", rev, "--", "memories", layout.INDEX)
    found = {}
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        found[path] = meta.split()[2]
    return found


def invoke(repo: MemoryRepo | Path, *args: str, now: datetime = DREAM_AT) -> Result:
    """The command line in-process (CliRunner) on ``repo`` at ``now``."""
    path = where(repo) if isinstance(repo, MemoryRepo) else repo
    return CliRunner().invoke(cli, ["--repo", str(path), "--now", iso(now), *args])


def invoke_json(repo: MemoryRepo | Path, *args: str, now: datetime = DREAM_AT) -> Any:
    """The JSON a command prints with ``--json``; fails unless it exits 0."""
    result = invoke(repo, *args, "--json", now=now)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def start(repo: MemoryRepo, *args: str, now: datetime = DREAM_AT, fault: str | None = None) -> Any:
    """Start the real command as a subprocess (``python -m dreamgit``); returns the Popen.

    ``fault`` names a crash point (``$DREAMGIT_FAULT``) where it kills itself. It
    runs from the repository's parent: ``-m`` puts the working directory first on
    ``sys.path``, so that directory must not hold anything called ``dreamgit``.
    """
    path = where(repo)
    env = {k: v for k, v in os.environ.items() if k != "DREAMGIT_FAULT"}
    if fault is not None:
        env["DREAMGIT_FAULT"] = fault
    return subprocess.Popen(
        [sys.executable, "-m", "dreamgit", "--repo", str(path), "--now", iso(now), *args],
        cwd=path.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def spawn(
    repo: MemoryRepo, *args: str, now: datetime = DREAM_AT, fault: str | None = None
) -> subprocess.CompletedProcess[str]:
    """:func:`start` the command and wait for it (two minutes at most)."""
    process = start(repo, *args, now=now, fault=fault)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def op_view(ops: Sequence[dict[str, Any]]) -> list[tuple[str, str, str, tuple[str, ...], str]]:
    """What an operation is, without where it was committed: op, phase, rule, memories, summary."""
    return [(op["op"], op["phase"], op["rule"], tuple(op["memories"]), op["summary"]) for op in ops]


def forced_dream(repo: MemoryRepo) -> tuple[tuple[Any, ...], str]:
    """``run --force`` as a process: its run id, operations (:func:`op_view`) and deferred
    work, and the tree main is left at; what two dreams compare to be the same dream."""
    record = invoke_json(repo, "run", "--force")
    return (record["run_id"], op_view(record["ops"]), record["deferred"]), tree_of(repo)
