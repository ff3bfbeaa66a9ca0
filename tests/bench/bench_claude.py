"""Benchmark: a dream over a Claude Code memory folder of 10,000 flat topic files.

The folder is built from ``corpus.generate(N)`` in Claude Code's shape (``name``,
``description``, ``metadata.type`` front matter, no ``dream:`` block, a
``MEMORY.md`` of 150 hand-written lines) plus 100 new sessions, in one commit of
a bare repository whose config says ``format: claude-code``. Then one real
deterministic dream runs (default rules, one commit per operation, merged), and
a second one that must find nothing to do.

Run: ``python tests/bench/bench_claude.py [N ...]`` (default 10000).
Target (2 cores, the native format's): 10,000 memories and 100 sessions under 10 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_dream import SESSIONS, _session_text
from corpus import generate

from dreamgit.clock import parse_time
from dreamgit.dream.run import dream
from dreamgit.gitstore import GitStore, Identity
from dreamgit.ids import session_id
from dreamgit.model import Session
from dreamgit.store.adopt import config_text
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import render_session

KINDS = ("user", "feedback", "project", "reference")


def build(path: Path, n: int) -> tuple[MemoryRepo, object]:
    """A bare claude-code repository with ``n`` topic files and 100 pending sessions."""
    corpus = generate(n)
    files: dict[str, bytes | None] = {
        ".dreamgit/config.yaml": config_text("claude-code", "main").encode()
    }
    index = []
    latest = parse_time("2020-01-01T00:00:00Z")
    for k, item in enumerate(corpus.memories):
        latest = max(latest, parse_time(item["created"]))
        name = f"fact-{k:06d}"
        kind = KINDS[hash(item["topic"]) % 4]
        description = item["text"][:80].replace("\n", " ")
        files[f"{name}.md"] = (
            f"---\nname: {name}\ndescription: {description!r}\nmetadata:\n  type: {kind}\n---\n"
            f"{item['text']}\n"
        ).encode()
        if k < 150:
            index.append(f"- [{name}]({name}.md) — {description[:60]}")
    files["MEMORY.md"] = ("\n".join(index) + "\n").encode()
    rng = random.Random(n)
    now = latest + timedelta(days=1)
    for i in range(SESSIONS):
        when = now - timedelta(hours=SESSIONS - i)
        text = _session_text(rng)
        session = Session(session_id(when, text, str(i)), when, text)
        files[session.path] = render_session(session).encode()
    store = GitStore.init(path, bare=True)
    tree = store.build_tree(None, files)
    store.commit(
        "main", parents=[], tree=tree, message="bench: build", who=Identity("b", "b@x"), when=now
    )
    return MemoryRepo.open(path), now


def main() -> None:
    """Build, dream twice, print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("sizes", nargs="*", type=int, default=[10_000])
    for n in parser.parse_args().sizes:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            repo, now = build(Path(tmp) / "mem", n)
            built = time.perf_counter() - started
            started = time.perf_counter()
            record = dream(repo, now=now, force=True)
            first = time.perf_counter() - started
            started = time.perf_counter()
            again = dream(repo, now=now, force=True)
            second = time.perf_counter() - started
            index = repo.read_text("MEMORY.md") or ""
            print(
                f"claude-code n={n}: build {built:.1f}s, dream {first:.2f}s "
                f"({len(record['ops'])} ops, {record['memories_before']}→"
                f"{record['memories_after']} memories), second dream {second:.2f}s "
                f"({len(again['ops'])} ops); MEMORY.md {len(index.splitlines())} lines, "
                f"{len(index.encode())} bytes"
            )


if __name__ == "__main__":
    main()
