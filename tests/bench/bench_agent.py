"""Benchmark: what a dream keeps from real coding-agent sessions, replayed night by night.

Usage::

    python tests/bench/bench_agent.py SESSIONS_DIR [--labels FILE | --no-labels]
        [--memory-root DIR] [--sample N] [--json] [--until YYYY-MM-DD]

``SESSIONS_DIR`` is any folder of SpecStory Markdown exports (Cursor) or Claude Code
JSONL session files, read where it is and copied nowhere. The labelled set is the
public edobry/minsky repository (MIT) at commit
2d0f5d07ebe40b8b2245be819c49558147c3cad8, folder ``.specstory/history``: get it with
``git clone https://github.com/edobry/minsky && git -C minsky checkout 2d0f5d07ebe4``
and pass ``minsky/.specstory/history`` (``tests/bench/data/agent_labels.yaml`` holds
hand-made labels of 15 of its sessions, nothing of their text).

The replay is the one README describes for a user: a fresh memory repository with the
default rules and no LLM; sessions grouped into nights by the date they started; each
session logged with the clock at its time (``dreamgit log --file`` for SpecStory,
``dreamgit log --from claude-code`` on a folder holding only that file for JSONL); one
gated ``dreamgit run`` at 23:59 of each night and a forced one after the last, all
through the installed command. Then every active memory is judged
(``agent_scoring``): harness or tool text gathered (must be 0), garbled, momentary,
worth keeping; and of the labelled durable statements, how many one memory holds.

``--memory-root DIR`` keeps the repository (``DIR/repo``) and writes every memory with
its automatic judgement to ``DIR/memories.md``, and ``--sample N`` (default 50) of them,
drawn with a fixed seed, to ``DIR/sample.md`` for judging by hand, blind (their automatic
verdicts are in ``DIR/sample-auto.md``); ``--rejudge`` judges
the memories such a folder holds again without replaying.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agent_scoring import Judged, durable_kept, judge, summarize, word_sources
from agent_sessions import SessionFile, discover, nights, read_turns
from ruamel.yaml import YAML

LABELS = Path(__file__).resolve().parent / "data" / "agent_labels.yaml"
SEED = 24


def _command() -> list[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "dreamgit"]


class Refused(Exception):
    """dreamgit said no (exit 1, a user-fixable error): its message."""


def dreamgit(repo: Path, now: str, *args: str) -> str:
    """Run the installed ``dreamgit --now NOW ARGS`` on ``repo``; its stdout.

    A user-fixable refusal (exit 1) raises ``Refused``; any other failure stops the bench.
    """
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    done = subprocess.run(
        [*_command(), "--now", now, *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode == 1:
        raise Refused(done.stderr.strip().splitlines()[0] if done.stderr.strip() else "exit 1")
    if done.returncode != 0:
        raise SystemExit(f"dreamgit {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def _stamp(when: Any) -> str:
    return str(when.strftime("%Y-%m-%dT%H:%M:%SZ"))


def log_session(repo: Path, session: SessionFile) -> list[str]:
    """Log one session file at its own time; the ids dreamgit gave it."""
    now = _stamp(session.when)
    if session.kind == "specstory":
        return dreamgit(repo, now, "log", "--file", str(session.path)).split()
    with tempfile.TemporaryDirectory() as alone:
        os.symlink(session.path.resolve(), Path(alone) / session.path.name)
        return dreamgit(repo, now, "log", "--from", "claude-code", alone).split()


def replay(
    repo: Path, sessions: list[SessionFile], refused: dict[str, str]
) -> tuple[dict[str, SessionFile], int]:
    """Log and dream night by night; which session file each logged id came from, runs.

    A session dreamgit refuses to log is named in ``refused`` with its reason and left
    out; the rest of the replay goes on.
    """
    dreamgit(repo, _stamp(sessions[0].when), "init", str(repo))
    logged: dict[str, SessionFile] = {}
    runs = 0
    groups = nights(sessions)
    for number, night in enumerate(groups, start=1):
        for session in night:
            try:
                logged.update(dict.fromkeys(log_session(repo, session), session))
            except Refused as refusal:
                refused[session.path.name] = str(refusal)
                print(f"refused, left out: {refusal}", file=sys.stderr)
        end = night[-1].when.replace(hour=23, minute=59, second=0)
        last = number == len(groups)
        args = ["run", "--json", *(["--force"] if last else [])]
        try:
            record = json.loads(dreamgit(repo, _stamp(end), *args))
        except Refused as refusal:
            raise SystemExit(f"night {night[0].when.date()}: run refused: {refusal}") from None
        runs += 0 if record.get("skipped") else 1
        print(
            f"night {night[0].when.date()}: {len(night)} session(s), run "
            f"{'skipped' if record.get('skipped') else 'done'}",
            file=sys.stderr,
        )
    return logged, runs


def replay_or_reload(
    root: Path, sessions: list[SessionFile], *, rejudge: bool
) -> tuple[dict[str, SessionFile], int, dict[str, str]]:
    """Replay into ``root/repo`` and note what was logged in ``root/logged.json``; or, with
    ``rejudge``, read that note of an earlier replay. (logged ids, dreams, refused files)."""
    note = root / "logged.json"
    if rejudge:
        by_path = {str(s.path): s for s in sessions}
        saved = json.loads(note.read_text(encoding="utf-8"))
        logged = {sid: by_path[path] for sid, path in saved["logged"].items() if path in by_path}
        return logged, int(saved["runs"]), dict(saved.get("refused", {}))
    repo = root / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    root.mkdir(parents=True, exist_ok=True)
    refused: dict[str, str] = {}
    logged, runs = replay(repo, sessions, refused)
    saved = {"logged": {sid: str(s.path) for sid, s in logged.items()}, "runs": runs}
    note.write_text(json.dumps({**saved, "refused": refused}, indent=1), encoding="utf-8")
    return logged, runs, refused


def load_labels(path: Path) -> dict[str, list[dict[str, object]]]:
    """The labelled durable statements by session file name."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return {name: list(entry["durable"]) for name, entry in data["sessions"].items()}


def judge_all(memories: list[dict[str, Any]], logged: dict[str, SessionFile]) -> list[Judged]:
    """Every memory judged against the words of the sessions it came from."""
    cache: dict[Path, Any] = {}
    judged = []
    for memory in memories:
        files = {logged[s].path for s in memory.get("sources", []) if s in logged}
        turns = []
        for path in sorted(files):
            if path not in cache:
                cache[path] = read_turns(next(f for f in logged.values() if f.path == path))
            turns.extend(cache[path])
        judged.append(judge(memory, word_sources(turns)))
    return judged


def write_dumps(root: Path, judged: list[Judged], sample: int) -> None:
    """Every memory with its judgement, and a fixed sample for reading by hand."""

    def line(j: Judged) -> str:
        why = ", ".join([*j.shapes, *j.garbled, *([j.momentary] if j.momentary else [])])
        return f"- `{j.id}` **{j.verdict}** ({why or '-'}; words: {j.source}) {j.text}"

    (root / "memories.md").write_text(
        "# Every active memory, judged automatically\n\n" + "\n".join(map(line, judged)) + "\n",
        encoding="utf-8",
    )
    drawn = random.Random(SEED).sample(judged, min(sample, len(judged)))
    (root / "sample.md").write_text(
        f"# {len(drawn)} memories drawn with seed {SEED}, to judge by hand\n\n"
        "Write your verdict (worth / momentary / harness / garbled) in the brackets, then\n"
        "compare with sample-auto.md, which holds the automatic ones.\n\n"
        + "".join(f"{k}. [ ] `{j.id}` {j.text}\n" for k, j in enumerate(drawn, start=1)),
        encoding="utf-8",
    )
    (root / "sample-auto.md").write_text(
        "".join(f"{k}. {line(j)[2:]}\n" for k, j in enumerate(drawn, start=1)), encoding="utf-8"
    )


def table(figures: dict[str, Any], labelled: bool) -> str:
    """The figures as a Markdown table."""
    shares, counts = figures["shares"], figures["counts"]
    rows = [
        ("memories after the last night", str(figures["memories"])),
        *(
            (f"{name} (auto)", f"{counts[key]} ({shares[key]:.0%})")
            for key, name in (
                ("worth", "worth keeping"),
                ("momentary", "momentary"),
                ("harness", "harness or tool text"),
                ("garbled", "garbled"),
            )
        ),
    ]
    if labelled:
        rows.append(
            (
                "durable statements kept",
                f"{figures['durable_kept']} of {figures['durable_labelled']} "
                f"({figures['durable_kept_share']:.0%}); by a memory judged worth keeping: "
                f"{figures['durable_kept_by_worth']}",
            )
        )
    out = ["| measure | value |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)]
    for key in ("harness_shapes", "garbled_reasons", "momentary_reasons", "sources"):
        found = ", ".join(f"{k} {v}" for k, v in figures[key].items()) or "none"
        out.append(f"\n{key.replace('_', ' ')}: {found}")
    return "\n".join(out)


def main() -> None:
    """Replay, judge, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sessions", type=Path, help="a folder of SpecStory .md or Claude .jsonl")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--no-labels", action="store_true", help="measure without labels")
    parser.add_argument("--memory-root", type=Path, help="keep the repository and dumps here")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--until", help="replay only nights up to this date (YYYY-MM-DD)")
    parser.add_argument(
        "--rejudge", action="store_true", help="judge the memories --memory-root already holds"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.rejudge and args.memory_root is None:
        raise SystemExit("--rejudge needs --memory-root DIR of an earlier run")
    sessions = discover(args.sessions)
    if args.until:
        sessions = [s for s in sessions if s.when.date().isoformat() <= args.until]
    if not sessions:
        raise SystemExit(f"{args.sessions}: no SpecStory .md or Claude Code .jsonl sessions")
    labels = {} if args.no_labels else load_labels(args.labels)
    missing = sorted(set(labels) - {s.path.name for s in sessions})
    if missing:
        print(f"labelled sessions not replayed, left out: {', '.join(missing)}", file=sys.stderr)
        labels = {name: found for name, found in labels.items() if name not in missing}
    root = args.memory_root or Path(tempfile.mkdtemp(prefix="bench-agent-"))
    repo = root / "repo"
    started = time.perf_counter()
    logged, runs, refused = replay_or_reload(root, sessions, rejudge=args.rejudge)
    seconds = time.perf_counter() - started
    last = sessions[-1].when + timedelta(days=1)
    memories = json.loads(dreamgit(repo, _stamp(last), "memories", "--json"))
    judged = judge_all(memories, logged)
    kept = durable_kept(labels, [str(m.get("text", "")) for m in memories])
    worth = [j.text for j in judged if j.verdict == "worth"]
    figures = summarize(judged, kept, durable_kept(labels, worth))
    figures.update(
        sessions=len(sessions), nights=len(nights(sessions)), runs=runs, refused=refused,
        logged=len({s.path for s in logged.values()}),
        replay_seconds=None if args.rejudge else round(seconds, 1),
        durable_by_session={name: f"{sum(k)}/{len(k)}" for name, k in kept.items()},
    )  # fmt: skip
    write_dumps(root, judged, args.sample)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        kept_in = f"; memories judged in {root}" if args.memory_root else ""
        print(
            f"{figures['sessions']} sessions ({len(refused)} refused by dreamgit log), "
            f"{figures['nights']} nights, {runs} dreams, "
            f"{seconds:.0f} s{kept_in}"
        )
        print(table(figures, bool(labels)))
    if args.memory_root is None:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
