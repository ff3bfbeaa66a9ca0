"""Benchmark of deterministic gathering and change supersession.

Usage: ``python tests/bench/bench_extract.py [--sessions N] [--memories M]``
(defaults 100 and 10000). Generates N seeded transcripts of about 2 KB (user and
assistant turns, code blocks, every sentence distinct so the per-call sentence
memo cannot help), times :func:`extract_candidates` over all of them with cold
caches, then times :func:`find_change_supersessions` of the candidates against M
stored memories. Target: 100 sessions well under a second.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from dreamgit.dream.consolidate.supersede import find_change_supersessions
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.extract import lexicon as extract_lexicon
from dreamgit.model import Memory

T0 = datetime(2026, 11, 20, tzinfo=UTC)
TOOLS = str.split(
    "Flask FastAPI Django pytest unittest Vim Neovim Emacs zsh fish pnpm npm uv Postgres"
)
PEOPLE = str.split("Dana Sam Ana Lee Kim Noor Ivo Mia")
PLACES = str.split("Berlin Lisbon Oslo Porto Madrid Austin Leeds")


def _user(rng: random.Random, i: int) -> str:
    a, b = rng.sample(TOOLS, 2)
    return rng.choice(
        [
            f"User: I prefer {a} over {b} for project {i}.",
            f"User: I switched from {a} to {b} for service {i} last week.",
            f"User: Can you check why job {i} fails? It times out after {i % 60} minutes.",
            f"User: Tomorrow I'm presenting roadmap item {i} to {rng.choice(PEOPLE)}.",
            f"User: I use {a} for ticket {i}, and we deploy with {b}.",
            f"User: My colleague {rng.choice(PEOPLE)} lives in {rng.choice(PLACES)} ({i}).",
            f"User: Please fix the failing test in module_{i}.py and rerun CI.",
        ]
    )


def _agent(rng: random.Random, i: int) -> str:
    return rng.choice(
        [
            f"Assistant: Done. I changed {i % 7 + 1} files and all {i} tests passed.",
            f"Assistant: I prefer to run the linter first; ruff reports {i % 13} issues.",
            f"```python\ndef handler_{i}(request):\n    return {{'n': {i}}}\n```",
            f"Assistant: Job {i} failed because the cache key changed; I updated it.",
        ]
    )


def sessions(n: int, seed: int = 11) -> list[str]:
    """``n`` distinct transcripts of about 2 KB each."""
    rng = random.Random(seed)
    out, counter = [], 0
    for _ in range(n):
        lines: list[str] = []
        while sum(len(x) + 1 for x in lines) < 2000:
            counter += 1
            lines.append(_user(rng, counter) if counter % 2 else _agent(rng, counter))
        out.append("\n".join(lines))
    return out


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    texts = sessions(args.sessions)
    extract_lexicon.find_tools.cache_clear()
    extract_lexicon.canonical_spelling.cache_clear()
    start = time.perf_counter()
    candidates = [
        c
        for i, text in enumerate(texts)
        for c in extract_candidates(text, session_id=f"s-{i}", created=T0 + timedelta(hours=i))
    ]
    took = time.perf_counter() - start
    size = sum(map(len, texts))
    print(f"extract: {len(texts)} sessions, {size} chars, {len(candidates)} candidates, "
          f"{took * 1000:.0f} ms")  # fmt: skip
    stored = [
        Memory(
            id=f"m-{i}",
            topic="tools",
            slug=f"m-{i}",
            text=f"Uses {TOOLS[i % len(TOOLS)]} for job {i}.",
            created=T0 - timedelta(days=1),
            updated=T0 - timedelta(days=1),
            key=f"k.{i % 100}",
        )
        for i in range(args.memories)
    ]
    start = time.perf_counter()
    plan = find_change_supersessions(candidates, stored)
    took = time.perf_counter() - start
    print(f"supersede: {len(candidates)} candidates vs {len(stored)} memories, "
          f"{len(plan.supersessions)} supersessions, {took * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
