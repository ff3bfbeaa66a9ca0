"""Benchmark of the rules engine: compiling default.yaml and a 20-rule prune phase.

Run by hand: ``python tests/bench/bench_rules.py``. Targets (DESIGN.md, issue 3):
compiling default.yaml under 50 ms; evaluating a 20-rule prune phase over 10,000
memories under 0.5 s. Environments are built once per memory (as the dream does),
and that cost is reported separately.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from dreamgit.model import PRIORITIES, Memory
from dreamgit.ruleset import load_bundled, load_ruleset
from dreamgit.ruleset import merge as ruleset_merge
from dreamgit.ruleset.context import memory_env

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
MEMORIES = 10_000

# Sixteen rules on top of default's four prune rules: twenty in all, of every shape.
EXTRA_RULES = """\
prune:
  - {name: scratch-topic, when: "topic == 'scratch' and idle > 3d"}
  - {name: todo-done, when: "text matches '(?i)^done:' and age > 2d"}
  - {name: tagged-temp, when: "'temp' in tags and age > 12h"}
  - {name: low-confidence, when: "confidence < 0.2 and recalls == 0 and age > 3d"}
  - {name: tiny, when: "chars < 8 and priority <= low"}
  - {name: huge-unrecalled, when: "chars > 4000 and recalls == 0 and idle > 30d"}
  - {name: stale-project, when: "type == 'project' and idle > 120d and recalls < 2"}
  - {name: stale-reference, when: "type == 'reference' and idle > 365d"}
  - {name: old-sessions-only, when: "len(sources) == 0 and age > 180d and priority < high"}
  - name: decayed
    when: "exp(-days(idle) / 30) * (1 + min(recalls, 5)) < 0.01 and priority < high"
  - {name: keyless-dupe-topic, when: "key == '' and topic in ['misc', 'inbox'] and idle > 60d"}
  - {name: debug-notes, when: "startswith(lower(name), 'debug') and age > 7d"}
  - {name: expired-keys, when: "contains(key, 'tmp.') and age > 1d"}
  - {name: ephemeral-tags, when: "jaccard(tags, ['session', 'scratch']) > 0.5 and age > 2d"}
  - {name: very-idle, when: "idle > 2w * 26 and recalls == 0 and priority == normal"}
  - {name: never-confident, when: "confidence * 10 + recalls < 1 and not (priority == high)"}
"""


def _memories(count: int) -> list[Memory]:
    rng = random.Random(42)
    topics = ["preferences", "project", "scratch", "misc", "inbox", "identity", "tools"]
    types = ["user", "feedback", "project", "reference"]
    out = []
    for i in range(count):
        age = timedelta(hours=rng.uniform(1, 24 * 400))
        words = rng.randint(2, 40)
        out.append(
            Memory(
                id=f"m-{i:08d}",
                topic=rng.choice(topics),
                slug=f"memory-{i}",
                text=" ".join(
                    rng.choice(["uses", "pytest", "deploy", "done:", "fast"]) for _ in range(words)
                ),
                created=NOW - age,
                updated=NOW - age * rng.random(),
                name=rng.choice(["debug-trace", "prefers-x", "deploy-steps"]),
                type=rng.choice(types),
                priority=rng.choice(PRIORITIES),
                key=rng.choice([None, None, "tmp.build", "python.runner"]),
                tags=tuple(
                    rng.sample(["temp", "session", "scratch", "python", "ci"], rng.randint(0, 2))
                ),
                sources=tuple(f"s-{j}" for j in range(rng.randint(0, 2))),
                confidence=rng.random(),
                recalls=rng.choice([0, 0, 0, 1, 3, 10]),
            )
        )
    return out


def _timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def _compile_default() -> object:
    load_bundled.cache_clear()
    ruleset_merge._read_bundled.cache_clear()
    return load_bundled("default")


def main() -> None:
    """Print the figures."""
    start = time.perf_counter()
    _compile_default()
    first = time.perf_counter() - start
    median, best = _timed(_compile_default, 20)
    print(f"compile default.yaml, first in process (parser from cache): {first * 1000:7.1f} ms")
    print(
        f"compile default.yaml, median of 20 / best:            {median * 1000:7.1f} ms"
        f" / {best * 1000:.1f} ms"
    )

    rs = load_ruleset(EXTRA_RULES, filename="bench.yaml")
    rules = [r.when for r in rs.prune]
    assert len(rules) == 20, len(rules)
    memories = _memories(MEMORIES)

    envs: list[dict[str, object]] = []
    median, _ = _timed(
        lambda: envs.__setitem__(slice(None), [memory_env(m, NOW) for m in memories]), 5
    )
    print(f"build {MEMORIES:,} memory environments, median of 5:       {median * 1000:7.1f} ms")

    def prune_phase() -> int:
        pruned = 0
        for env in envs:
            for expr in rules:
                if expr.evaluate(env):
                    pruned += 1
                    break
        return pruned

    def every_rule() -> int:
        return sum(1 for env in envs for expr in rules if expr.evaluate(env))

    median, best = _timed(prune_phase, 7)
    print(
        f"20-rule prune phase over {MEMORIES:,} memories (first match): {median * 1000:7.1f} ms"
        f" (best {best * 1000:.1f} ms; {prune_phase():,} pruned)"
    )
    median, best = _timed(every_rule, 5)
    print(
        f"all 20 rules on every memory (200,000 evaluations):     {median * 1000:7.1f} ms"
        f" (best {best * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
