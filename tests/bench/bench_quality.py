"""Benchmark of what a dream keeps: the development set's protocol, through the real dream.

Usage::

    python tests/bench/bench_quality.py [--eval-dir DIR] [--memory-root DIR]
                                        [--conversations ID ...] [--jobs 1|2]
                                        [--reflect on|off|list]

``--eval-dir`` is the development set (default ``../shared/eval-dev`` relative to the
repository root, or to the folder above it for a worktree); it holds ``score_memory.py``
and a prepared set (``locomo/``). For each conversation: a fresh memory repository;
every session logged in file-name order with the clock set to the session's date (file
name, else the ``# Date:`` header; sessions of one date a second apart, in file order);
a gated ``run`` after every third session and a forced run after the last, all with the
bundled default rules and no LLM; then the text of every active memory written to
``MEMORY_ROOT/<conv>/<id>.md``. The shared scorer then scores that memory and the raw
transcripts, and the figures are printed side by side per category and overall: hit@1500,
present, size versus raw, copies per present answer.
Nothing of the set is copied anywhere: memories go to a temporary directory unless
``--memory-root`` names one; there, a conversation's ``*.md`` files from an earlier run are
replaced, so the figures are this run's.

Conversations run in-process through the Python API; ``--jobs 2`` runs two at a time
(never more: the machine's cores are shared).

``--reflect off`` turns the reflect phase off (``reflect: {enabled: false}`` in each
repository's config), to compare; ``--reflect list`` keeps it on and prints every
reflection the runs committed, one id a line (``<conv>/<rule>/<memory or theme>``), and
writes them with their evidence to ``MEMORY_ROOT/<conv>/reflections.json`` (not read by
the scorer; the session ids there map to the set's file names), for labelling by hand.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
_FILE_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})_(\d{2})(\d{2})")
_HEADER_DATE = re.compile(r"^#\s*Date:\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?", re.M)
RUN_EVERY = 3


def default_eval_dir() -> Path:
    """``../shared/eval-dev`` from the repository root (or from a worktree's parent)."""
    for base in (REPO_ROOT.parent, REPO_ROOT.parent.parent):
        if (base / "shared" / "eval-dev").is_dir():
            return base / "shared" / "eval-dev"
    return REPO_ROOT.parent / "shared" / "eval-dev"


def load_scorer(eval_dir: Path) -> ModuleType:
    """The eval set's ``score_memory.py`` as a module (its functions, not its command)."""
    spec = importlib.util.spec_from_file_location("score_memory", eval_dir / "score_memory.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"{eval_dir}: no score_memory.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def session_time(path: Path, text: str) -> datetime:
    """The session's date: from its file name, else from a ``# Date:`` header line."""
    m = _FILE_DATE.match(path.name) or _HEADER_DATE.search(text)
    if m is None:
        raise SystemExit(f"{path}: no session date in the file name or a '# Date:' line")
    parts = [int(g) if g else 0 for g in m.groups()]
    return datetime(*parts[:5], tzinfo=UTC)  # type: ignore[misc]  # five ints


def reflection_id(conv: str, op: dict[str, Any]) -> str:
    """A reflection's id, the same from run to run: conversation, rule, memory or theme."""
    about = ",".join(op["memories"]) or op["summary"].split("'")[1]
    return f"{conv}/{op['rule']}/{about}"


def dream_conversation(conv_dir: str, out_dir: str, reflect: str = "on") -> dict[str, Any]:
    """Log one conversation's sessions and dream as the protocol says; write its memories."""
    from dreamgit import DreamEngine, MemoryRepo

    sessions = sorted(Path(conv_dir, "sessions").glob("*.txt"))
    started = time.perf_counter()
    runs = 0
    reflections: list[dict[str, Any]] = []
    logged: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="dreamgit-quality-") as tmp:
        repo = MemoryRepo.init(Path(tmp) / "memory")
        if reflect == "off":
            config = (repo.read_text(".dreamgit/config.yaml") or "") + "reflect: {enabled: false}\n"
            repo.commit_main(
                "bench: reflect off",
                lambda _tip: {".dreamgit/config.yaml": config.encode()},
                now=datetime.now(UTC),
            )
        engine = DreamEngine(repo)
        previous = datetime.min.replace(tzinfo=UTC)
        for k, path in enumerate(sessions, start=1):
            text = path.read_text(encoding="utf-8")
            # sessions that share a date keep their file order, a second apart, as the
            # set's protocol says: otherwise no newer value within a batch is newer
            when = max(session_time(path, text), previous + timedelta(seconds=1))
            previous = when
            engine = DreamEngine(repo, now=when)
            logged[engine.log_session(text).id] = path.name
            last = k == len(sessions)
            if last or k % RUN_EVERY == 0:
                record = engine.dream(force=last)
                runs += not record.get("skipped")
                conv = Path(conv_dir).name
                reflections += [
                    {"id": reflection_id(conv, op), "run": record.run_id, **op}
                    for op in record.ops
                    if op["phase"] == "reflect"
                ]
        memories = engine.memories()
    target = Path(out_dir, Path(conv_dir).name)
    target.mkdir(parents=True, exist_ok=True)
    for stale in target.glob("*.md"):  # a run before this one: the scorer would read it too
        stale.unlink()
    for memory in memories:
        (target / f"{memory.id}.md").write_text(memory.text + "\n", encoding="utf-8")
    if reflect == "list":
        listing = {"reflections": reflections, "sessions": logged}
        (target / "reflections.json").write_text(json.dumps(listing, indent=1), encoding="utf-8")
    return {
        "reflections": [r["id"] for r in reflections],
        "conversation": Path(conv_dir).name,
        "sessions": len(sessions),
        "runs": runs,
        "memories": len(memories),
        "seconds": round(time.perf_counter() - started, 2),
    }


def score(scorer: Path, prepared: Path, mode: list[str], ids: list[str]) -> dict[str, Any]:
    """The shared scorer's JSON report for one mode (``--raw`` or ``--memory ROOT``)."""
    cmd = [sys.executable, str(scorer), str(prepared), *mode]
    if ids:
        cmd += ["--conversations", *ids]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    report: dict[str, Any] = json.loads(out)
    return report


def _row(name: str, figures: dict[str, Any], size: float | None) -> str:
    def fmt(key: str) -> str:
        value = figures.get(key)
        return f"{value:8.3f}" if isinstance(value, int | float) else f"{'-':>8}"

    size_text = f"{size:8.3f}" if size is not None else f"{'':>8}"
    return (
        f"{name:<14}{fmt('hit@B')}{fmt('present')}{size_text}"
        f"{fmt('copies_per_present_answer')}{figures.get('scored', ''):>8}"
    )


def print_table(memory: dict[str, Any], raw: dict[str, Any]) -> None:
    """Per category and overall: the dream's memory beside the raw transcripts."""
    print(f"{'':<14}{'hit@1500':>8}{'present':>8}{'size':>8}{'copies':>8}{'scored':>8}")
    categories = sorted(set(memory["categories"]) | set(raw["categories"]))
    for label, report in (("dream", memory), ("raw", raw)):
        ratio = report["size"]["ratio_memory_to_raw"]
        print(f"-- {label}")
        for cat in categories:
            figures = report["categories"].get(cat, {})
            if figures.get("scored"):
                print(_row(cat, figures, None))
        print(_row("overall", report.get("overall", {}), ratio))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--eval-dir", type=Path, default=default_eval_dir())
    parser.add_argument("--set", default="locomo", help="prepared set inside --eval-dir")
    parser.add_argument("--memory-root", type=Path, help="keep the memories here")
    parser.add_argument("--conversations", nargs="*", default=[])
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--json", action="store_true", help="print the reports as JSON too")
    parser.add_argument("--reflect", choices=("on", "off", "list"), default="on")
    args = parser.parse_args()
    prepared = args.eval_dir / args.set
    scorer = args.eval_dir / "score_memory.py"
    if not scorer.is_file() or not (prepared / "conversations").is_dir():
        raise SystemExit(f"{args.eval_dir}: no score_memory.py and {args.set}/conversations here")
    convs = sorted(p for p in (prepared / "conversations").iterdir() if p.is_dir())
    if args.conversations:
        convs = [p for p in convs if p.name in args.conversations]
    with tempfile.TemporaryDirectory(prefix="dreamgit-memory-root-") as tmp:
        root = args.memory_root or Path(tmp)
        started = time.perf_counter()
        if args.jobs == 1:
            rows = [dream_conversation(str(c), str(root), args.reflect) for c in convs]
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                more = [str(root)] * len(convs), [args.reflect] * len(convs)
                rows = list(pool.map(dream_conversation, map(str, convs), *more))
        elapsed = time.perf_counter() - started
        for row in rows:
            print(
                f"{row['conversation']}: {row['sessions']} sessions, {row['runs']} runs, "
                f"{row['memories']} memories, {row['seconds']} s"
            )
        print(f"dreams: {elapsed:.1f} s for {len(rows)} conversations\n")
        if args.reflect == "list":
            listed = [i for row in rows for i in row["reflections"]]
            print(f"reflections: {len(listed)}", *listed, "", sep="\n")
        ids = [c.name for c in convs] if args.conversations else []
        memory = score(scorer, prepared, ["--memory", str(root)], ids)
    raw = score(scorer, prepared, ["--raw"], ids)
    print_table(memory, raw)
    if args.json:
        print(json.dumps({"memory": memory, "raw": raw}, indent=1))


if __name__ == "__main__":
    main()
