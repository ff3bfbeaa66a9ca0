"""Benchmark of whole dreams over realistic stores of 1,000 to 100,000 memories.

Each size is measured in a fresh process (so peak memory is that size's alone):

1. a store from ``corpus.generate(N)`` (realistic facts, about 5 % planted
   paraphrase duplicates and 5 % planted near-misses) plus 100 new sessions of
   realistic user statements, all in one commit of a bare repository;
2. ``run``: a real dream with the default rules, one commit per operation, merged
   into main; the time of each phase and the peak memory (ru_maxrss);
3. ``review`` with the run limits lifted: the plan a dream would make if nothing
   held it back, and the precision and recall of its merges on the planted pairs
   (a merge joining any other pair counts against precision; a planted
   near-miss joined is such a pair), and how many memories a newer value of the
   same subject and relation superseded (how many of them planted near-misses,
   which are exactly such changes, and how many planted duplicates, which should
   have merged instead).

Run: ``python tests/bench/bench_dream.py [N ...] [--run-only]`` (default 1000 10000
100000; ``--run-only`` times the dream alone, without the unlimited review; ``--warm``
first fills the caches in the git directory by a review in another process, as the
dream before this one would have: the figures of a dream after a dream; ``--after-apply``
first runs an applied dream in another process, after that review with ``--warm``: the
figures of the nightly dream, the one after an applied dream, whose merges, supersessions
and new memories the kept answers must follow).
``--against OTHER`` measures another version in the same run: OTHER is a checkout
holding ``.venv/bin/python`` (its own copy of this bench is run, so each version is
timed by code that knows its own phases; ``--run-only`` and ``--warm`` are passed to it
too, so its bench must know them; a bench that does not know ``--after-apply`` is stood
in for by this one, run by OTHER's python, which imports OTHER's code). The two run
``--repeat`` times each, paired and
interleaved (the order alternates each round) so load on the machine falls on both
alike; one line per size gives the medians and the ratio this / other, of wall time and,
where both benches report it, of CPU time (steadier on a shared machine).
Targets (2 cores): 10,000 memories and 100 sessions under 10 s; 100,000 under
2 minutes with near-linear growth; duplicate precision >= 0.98, recall >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate

from dreamgit.clock import parse_time
from dreamgit.dream import plan as plan_module
from dreamgit.dream import run as run_module
from dreamgit.dream.run import dream
from dreamgit.gitstore import GitStore, Identity
from dreamgit.ids import session_id
from dreamgit.model import (
    Memory,
    Session,
)
from dreamgit.ruleset import load_ruleset
from dreamgit.store.config import DEFAULT_CONFIG
from dreamgit.store.layout import EMPTY_INDEX
from dreamgit.store.memoryfile import render_memory
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import render_session

SESSIONS = 100
UNLIMITED = """
extends: default
limits: {max_changes_per_run: 1000000, max_adds_per_run: 1000000, max_new_chars_per_run: 100000000}
budgets: {max_memories: 10000000, max_per_topic: 10000000}
"""

_STATEMENTS = [
    "I prefer {a} over {b} for {task}.",
    "I use {a} for {task} now.",
    "I switched from {b} to {a} for {task}.",
    "Remember that the {thing} needs {a}.",
    "We decided to use {a} for the {thing}.",
    "I no longer use {b}.",
    "My {rel} {name} lives in {city}.",
    "Tomorrow I have a call with {name} about the {thing}.",
]
_FILL = {
    "a": [
        "Postgres",
        "Redis",
        "FastAPI",
        "Neovim",
        "pytest",
        "Docker",
        "Terraform",
        "Rust",
        "Kotlin",
        "Grafana",
        "Kafka",
        "SQLite",
        "htmx",
        "Tailwind",
        "uv",
        "Ruff",
    ],
    "b": [
        "MySQL",
        "Memcached",
        "Flask",
        "Emacs",
        "unittest",
        "Vagrant",
        "Ansible",
        "Go",
        "Java",
        "Kibana",
        "RabbitMQ",
        "DuckDB",
        "React",
        "Bootstrap",
        "pip",
        "Flake8",
    ],
    "task": [
        "the billing service",
        "data pipelines",
        "side projects",
        "the mobile backend",
        "integration tests",
        "the analytics dashboard",
        "internal tools",
        "prototypes",
    ],
    "thing": [
        "staging deploy",
        "release checklist",
        "quarterly report",
        "design review",
        "migration plan",
        "on-call rotation",
        "security audit",
        "customer demo",
    ],
    "rel": ["sister", "brother", "friend", "colleague", "mentor", "cousin"],
    "name": ["Maya", "Tomás", "Ingrid", "Kenji", "Amara", "Luca", "Priya", "Oskar"],
    "city": ["Lisbon", "Osaka", "Toronto", "Nairobi", "Krakow", "Valparaíso", "Tallinn"],
}


def _session_text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 6)):
        template = rng.choice(_STATEMENTS)
        fill = {k: rng.choice(v) for k, v in _FILL.items()}
        lines.append(f"User: {template.format(**fill)}")
        lines.append("Assistant: Noted, I will keep that in mind.")
    return "\n".join(lines)


def build(path: Path, n: int) -> tuple[MemoryRepo, datetime, Any]:
    """A bare repository with the corpus and 100 pending sessions; returns (repo, now, corpus)."""
    corpus = generate(n)
    files: dict[str, bytes | None] = {
        ".dreamgit/config.yaml": DEFAULT_CONFIG.encode(),
        "MEMORY.md": EMPTY_INDEX.encode(),
    }
    latest = datetime(2020, 1, 1, tzinfo=UTC)
    for k, item in enumerate(corpus.memories):
        created = parse_time(item["created"])
        latest = max(latest, created)
        memory = Memory(
            id=item["id"],
            topic=item["topic"],
            slug=f"m{k:06d}",
            text=item["text"],
            created=created,
            updated=created,
            key=item.get("key"),
        )
        files[memory.path] = render_memory(memory).encode()
    rng = random.Random(n)
    now = latest + timedelta(days=1)
    for i in range(SESSIONS):
        when = now - timedelta(hours=SESSIONS - i)
        text = _session_text(rng)
        session = Session(session_id(when, text, str(i)), when, text)
        files[session.path] = render_session(session).encode()
    store = GitStore.init(path, bare=True)
    tree = store.build_tree(None, files)
    who = Identity("bench", "bench@localhost")
    store.commit("main", parents=[], tree=tree, message="bench: build", who=who, when=now)
    return MemoryRepo(store), now, corpus


@contextmanager
def _timing(phases: dict[str, float]) -> Iterator[None]:
    """Wrap the phase functions so each call adds its time to ``phases``."""
    saved: list[tuple[Any, str, Callable[..., Any]]] = []

    def wrap(module: Any, name: str, label: str) -> None:
        original = getattr(module, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                phases[label] = phases.get(label, 0.0) + time.perf_counter() - start

        saved.append((module, name, original))
        setattr(module, name, timed)

    wrap(MemoryRepo, "snapshot", "read memories")
    wrap(plan_module, "plan_gather", "gather")
    wrap(plan_module, "plan_consolidate", "consolidate")
    wrap(plan_module, "plan_prune", "prune")
    wrap(plan_module, "_index_op", "index")
    wrap(run_module, "_apply", "commits + merge")
    try:
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


class _Clusters:
    """Union-find over memory ids: which memories ended up as one."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        while self._parent.get(x, x) != x:
            x = self._parent[x]
        return x

    def join(self, a: str, b: str) -> None:
        self._parent[self.find(a)] = self.find(b)

    def same(self, a: str, b: str) -> bool:
        return self.find(a) == self.find(b)

    def pairs(self) -> set[frozenset[str]]:
        groups: dict[str, list[str]] = {}
        for x in self._parent:
            groups.setdefault(self.find(x), []).append(x)
        for root in list(groups):
            if root not in groups[root]:
                groups[root].append(root)
        return {frozenset(p) for g in groups.values() for p in combinations(sorted(g), 2)}


def _clusters(ops: Sequence[Mapping[str, Any]], kinds: set[str]) -> _Clusters:
    clusters = _Clusters()
    for op in ops:
        if op["op"] in kinds:
            first, *rest = op["memories"]
            for other in rest:
                clusters.join(other, first)
    return clusters


_WARM_UP = """
import sys
from dreamgit.clock import parse_time
from dreamgit.dream.run import dream
from dreamgit.store.repo import MemoryRepo
apply = sys.argv[3] == "apply"
dream(MemoryRepo.open(sys.argv[1]), now=parse_time(sys.argv[2]), force=True, apply=apply)
"""


def warm_up(path: Path, now: datetime, *, apply: bool = False) -> float:
    """A ``review`` of the store in another process, as the dream before this one would
    have left the caches in the git directory (``apply``: an applied dream, as the night
    before would have left the store too); its seconds."""
    start = time.perf_counter()
    how = "apply" if apply else "review"
    subprocess.run([sys.executable, "-c", _WARM_UP, str(path), now.isoformat(), how], check=True)
    return time.perf_counter() - start


def measure(
    n: int, *, run_only: bool = False, warm: bool = False, after_apply: bool = False
) -> dict[str, Any]:
    """Everything for one size, in this process (``run_only``: the dream alone, no review;
    ``warm``: the caches in the git directory filled first by a review in another process;
    ``after_apply``: then an applied dream in another process), in a folder of its own
    that is removed after (a store of 100,000 is gigabytes)."""
    work = Path(tempfile.mkdtemp(prefix=f"dreamgit-dream-{n}-"))
    try:
        return _measured(work, n, run_only=run_only, warm=warm, after_apply=after_apply)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measured(
    work: Path, n: int, *, run_only: bool, warm: bool, after_apply: bool
) -> dict[str, Any]:
    start = time.perf_counter()
    repo, now, corpus = build(work / "run.git", n)
    built = time.perf_counter() - start
    warmed = warm_up(work / "run.git", now) if warm else None
    applied = warm_up(work / "run.git", now, apply=True) if after_apply else None
    if applied is not None:
        repo = MemoryRepo.open(str(work / "run.git"))  # the branch the other process moved
    phases: dict[str, float] = {}
    with _timing(phases):
        start, cpu = time.perf_counter(), time.process_time()
        record = dream(repo, now=now, force=True)
        total, cpu = time.perf_counter() - start, time.process_time() - cpu
    run = {
        "n": n,
        "build_s": round(built, 2),
        **({"warm_up_s": round(warmed, 2)} if warmed is not None else {}),
        **({"applied_before_s": round(applied, 2)} if applied is not None else {}),
        "run_s": round(total, 2),
        "run_cpu_s": round(cpu, 2),
        "phases_s": {k: round(v, 2) for k, v in phases.items()},
        "run_ops": len(record["ops"]),
        "run_counts": record["counts"],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    if run_only:
        return run
    review_repo, _, _ = build(work / "review.git", n)
    start = time.perf_counter()
    plan = dream(review_repo, now=now, force=True, apply=False, ruleset=load_ruleset(UNLIMITED))
    review_time = time.perf_counter() - start
    merged = _clusters(plan["ops"], {"merge"})
    joined = _clusters(plan["ops"], {"merge", "supersede"})
    fact = _Clusters()
    for a, b in corpus.duplicates:
        fact.join(a, b)
    planted = {frozenset(p) for p in corpus.duplicates}
    misses = {frozenset(p) for p in corpus.near_misses}
    merged_pairs = merged.pairs()
    right = {p for p in merged_pairs if fact.same(*p)}
    # Newer values of one subject and relation: a planted near-miss (one value changed)
    # is such a pair; any other pair of different facts would be a wrong supersession.
    by_value = [
        frozenset(op["memories"][:2]) for op in plan["ops"] if op["rule"] == "supersede-newer-value"
    ]
    return {
        **run,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "review_unlimited_s": round(review_time, 2),
        "merged_pairs": len(merged_pairs),
        # A merged pair is right when both memories state the same planted fact.
        "precision": round(len(right) / len(merged_pairs), 4) if merged_pairs else 1.0,
        "recall": round(sum(merged.same(*p) for p in planted) / len(planted), 4),
        "near_misses_merged": sum(merged.same(*p) for p in misses),
        # A planted duplicate that shares a key is resolved by supersession (newer wins).
        "recall_merge_or_same_key": round(sum(joined.same(*p) for p in planted) / len(planted), 4),
        "superseded_by_newer_value": len(by_value),
        "of_them_near_misses": len(set(by_value) & misses),
        "of_them_same_fact": sum(fact.same(*p) for p in by_value),
    }


def _one(command: list[str], n: int, more: list[str]) -> dict[str, Any]:
    """One size measured by ``command`` (a python and a copy of this bench) in a fresh process."""
    result = subprocess.run(
        [*command, "--one", str(n), *more], capture_output=True, text=True, check=True
    )
    found: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


def _other(checkout: Path, more: list[str]) -> list[str]:
    """The python and bench of the checkout ``--against`` names: this bench, run by that
    python (on that checkout's code), when its own does not know a flag of ``more``."""
    python, bench = checkout / ".venv" / "bin" / "python", checkout / "tests/bench/bench_dream.py"
    if not python.exists() or not bench.exists():
        raise SystemExit(f"{checkout}: give a checkout with .venv/bin/python and {bench.name}")
    known = bench.read_text(encoding="utf-8")
    if _AFTER_APPLY in more and f'"{_AFTER_APPLY}"' not in known:
        bench = Path(__file__).resolve()
    return [str(python), str(bench)]


_AFTER_APPLY = "--after-apply"


def _paired(
    this: list[str], other: list[str], n: int, repeat: int, more: list[str]
) -> dict[str, Any]:
    """Medians of both versions' run time and peak memory over interleaved rounds."""
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
    for k in range(repeat):
        order = [("this", this), ("other", other)]
        for name, command in order if k % 2 == 0 else order[::-1]:
            runs[name].append(_one(command, n, more))

    def median(name: str, field: str) -> float:
        return round(float(statistics.median(r[field] for r in runs[name])), 2)

    def ratio(field: str) -> dict[str, float]:
        this_s, other_s = median("this", field), median("other", field)
        return {"this": this_s, "other": other_s, "ratio": round(this_s / other_s, 3)}

    return {
        "n": n,
        "repeat": repeat,
        "run_s": ratio("run_s"),
        # CPU seconds, where the other's bench reports them: on a shared machine the
        # steadier figure (wall time there is mostly waiting for a core)
        **(
            {"run_cpu_s": ratio("run_cpu_s")}
            if all("run_cpu_s" in r for r in runs["other"])
            else {}
        ),
        "ops": {name: [r["run_ops"] for r in runs[name]] for name in runs},
        "phases_s": {
            name: {
                phase: round(statistics.median(r["phases_s"].get(phase, 0.0) for r in got), 2)
                for phase in got[0]["phases_s"]
            }
            for name, got in runs.items()
        },
        "peak_rss_mb": {name: median(name, "peak_rss_mb") for name in runs},
        "load": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    """Measure each size in its own process and print one JSON line per size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10_000, 100_000])
    parser.add_argument(
        "--run-only", action="store_true", help="time the dream alone (no unlimited review)"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="fill the caches first (a review in another process): a dream after a dream",
    )
    parser.add_argument(
        _AFTER_APPLY,
        action="store_true",
        help="run an applied dream first (another process): the nightly dream after one",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--against", type=Path, help="another checkout, with its own .venv")
    parser.add_argument("--repeat", type=int, default=3, help="paired rounds with --against")
    args = parser.parse_args()
    if args.one:
        found = measure(
            args.one, run_only=args.run_only, warm=args.warm, after_apply=args.after_apply
        )
        print(json.dumps(found))
        return
    this = [sys.executable, __file__]
    flags = {"--run-only": args.run_only, "--warm": args.warm, _AFTER_APPLY: args.after_apply}
    more = [flag for flag, given in flags.items() if given]
    for n in args.sizes:
        if args.against is None:
            print(json.dumps(_one(this, n, more)), flush=True)
        else:
            other = _other(args.against, more)
            print(json.dumps(_paired(this, other, n, args.repeat, more)), flush=True)


if __name__ == "__main__":
    main()
