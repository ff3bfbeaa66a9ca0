"""Benchmark of the everyday commands as processes, and of two versions side by side.

Usage: ``python tests/bench/bench_commands.py [N] [--repeat R] [--against OTHER]``
(default N: 10000). Builds a bare repository of N memories (``bench_foundation``'s
store), then times ``dreamgit recall QUERY --no-record``, ``status`` and ``add`` as
processes of the installed command (and ``recall`` again right after each ``add``,
when the caches must follow one new file), then ``status`` and ``add`` again in a clone
of it with a work tree (main checked out, as an agent's memory folder is), and once
more in a clone whose index holds no ``stat`` data (``index from dreamgit``): dreamgit
staged every file it wrote so, and where no ``git status`` ever refreshes the index (an
agent's own folder) its entries all ended up so; git and libgit2 then hash each file at
every look at the work tree. dreamgit's staging now records the missing stat data of
files that hold their entry's blob (``gitstore/indexstat.py``), so the first ``add``
there heals the index and the later rows should match the fresh clone's. Wall clock
and the CPU time of the process (user + system; steadier than the wall clock on a
shared machine), medians of R.
The first ``recall`` is timed on its own: it builds the caches in the git directory.

``--against OTHER`` times another version in the same run: OTHER is a ``dreamgit``
executable or a checkout holding ``.venv/bin/dreamgit`` (e.g. an export of the last
tag with its own venv). Each version gets its own copy of the repository; runs are
paired and interleaved (the order alternates each round) so load on the machine
falls on both alike, and each line ends with the ratio this / other.

Bytecode is written for both (``PYTHONDONTWRITEBYTECODE`` is dropped from the
environment): users' installs have it, and compiling every module again in every
process would swamp what is measured.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_foundation import NOW, WORDS, build_repository

from dreamgit.clock import format_time


@dataclass
class Version:
    """One installed dreamgit, its own copy of the repository, and what it measured."""

    name: str
    command: str
    repo: Path
    worktree: Path
    staged: Path
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)

    def run(self, what: str, *args: str, repo: Path | None = None) -> None:
        """Run ``dreamgit ARGS`` once in ``repo`` (default: the bare one); keep its wall
        and CPU milliseconds under ``what``."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["DREAMGIT_REPO"] = str(repo or self.repo)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [self.command, "--now", format_time(NOW), *args],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: dreamgit {' '.join(args)} failed:\n{done.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.wall.setdefault(what, []).append(wall * 1000)
        self.cpu.setdefault(what, []).append(cpu * 1000)


def _command(path: Path) -> str:
    """The dreamgit executable that ``--against`` names."""
    found = path / ".venv" / "bin" / "dreamgit" if path.is_dir() else path
    if not found.exists():
        raise SystemExit(f"{path}: no dreamgit there (give an executable or a checkout with .venv)")
    return str(found)


def _round(versions: list[Version], k: int) -> None:
    """One paired round: each command once per version, the versions' order alternating."""
    query = f"{WORDS[k % len(WORDS)]} {WORDS[(3 * k + 5) % len(WORDS)]}"
    for version in versions if k % 2 == 0 else versions[::-1]:
        version.run("recall (warm)", "recall", query, "--no-record")
        version.run("status", "status")
        version.run("add", "add", f"Bench fact number {k}", "--topic", "bench")
        version.run("recall after an add", "recall", f"{query} fact", "--no-record")
        version.run("status (work tree)", "status", repo=version.worktree)
        version.run(
            "add (work tree)",
            "add",
            f"Work tree fact {k}",
            "--topic",
            "bench",
            repo=version.worktree,
        )
        version.run("status (index from dreamgit)", "status", repo=version.staged)
        version.run(
            "add (index from dreamgit)",
            "add",
            f"Staged fact {k}",
            "--topic",
            "bench",
            repo=version.staged,
        )


def _clone(bare: Path, into: Path) -> Path:
    """A clone of ``bare`` with main checked out and no remote: an agent's memory folder."""
    subprocess.run(["git", "clone", "-q", str(bare), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "remote", "remove", "origin"], check=True)
    return into


def _clone_staged(bare: Path, into: Path) -> Path:
    """A clone of ``bare`` whose index entries carry no ``stat`` data, as the entries
    dreamgit staged for the files it wrote did."""
    import pygit2  # only here: the rest of the bench runs the installed command

    _clone(bare, into)
    index = pygit2.Index(str(into / ".git" / "index"))
    for entry in list(index):
        index.add(pygit2.IndexEntry(entry.path, entry.id, entry.mode))
    index.write()
    return into


def _report(versions: list[Version], n: int) -> None:
    names = list(versions[0].wall)
    width = max(len(name) for name in names)
    header = "  ".join(f"{v.name + ' wall / cpu ms':>24}" for v in versions)
    print(f"\n{'N = ' + str(n):<{width}}  {header}" + ("   ratio wall / cpu" * (len(versions) > 1)))
    for name in names:
        walls = [statistics.median(v.wall[name]) for v in versions]
        cpus = [statistics.median(v.cpu[name]) for v in versions]
        cells = "  ".join(f"{w:>13.0f} / {c:>8.0f}" for w, c in zip(walls, cpus, strict=True))
        ratio = (
            f"   {walls[0] / walls[1]:.2f} / {cpus[0] / cpus[1]:.2f}" if len(versions) > 1 else ""
        )
        print(f"{name:<{width}}  {cells}{ratio}")


def _version(name: str, command: str, base: Path) -> Version:
    """A version with its bare repository ``base/NAME.git`` and its two clones."""
    bare = base / f"{name}.git"
    worktree = _clone(bare, base / name)
    return Version(name, command, bare, worktree, _clone_staged(bare, base / f"{name}-staged"))


def main() -> None:
    """Build the repository, time each version, print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--against", type=Path, help="another dreamgit, or a checkout with .venv")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="dreamgit-bench-"))
    try:
        start = time.perf_counter()
        build_repository(base / "this.git", args.n)
        print(f"built {args.n} memories in {time.perf_counter() - start:.1f} s")
        this = shutil.which("dreamgit", path=str(Path(sys.executable).parent)) or "dreamgit"
        versions = [_version("this", this, base)]
        if args.against is not None:
            shutil.copytree(base / "this.git", base / "other.git")
            versions.append(_version("other", _command(args.against), base))
        for version in versions:  # the first call after a clone: the caches are built
            version.run("recall, first call (builds caches)", "recall", "python", "--no-record")
            version.run(
                "recall, first call (work tree)",
                "recall",
                "python",
                "--no-record",
                repo=version.worktree,
            )
            version.run(
                "recall, first call (index from dreamgit)",
                "recall",
                "python",
                "--no-record",
                repo=version.staged,
            )
        for k in range(args.repeat):
            _round(versions, k)
        _report(versions, args.n)
        load = os.getloadavg()[0]
        print(f"\n{os.cpu_count()} CPUs, load {load:.1f}, python {sys.version.split()[0]}")
    finally:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
