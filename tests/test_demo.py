"""The quick start's first command: `dreamgit demo` runs a real dream on shipped data."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


def _demo(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dreamgit", "demo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_demo_dreams_and_shows_operations_status_memories_and_log(tmp_path: Path) -> None:
    """Every kind of operation appears, FastAPI replaces Flask, and git log lists the commits."""
    result = _demo(tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    sections = ["== dreamgit run", "== dreamgit status", "== dreamgit memories", "== git log"]
    assert [out.index(s) for s in sections] == sorted(out.index(s) for s in sections)
    for op in (" reinforce ", " add ", " supersede ", " merge ", " index ", " diary "):
        assert op in out.split("== dreamgit status")[0], op
    assert "supersede-by-change" in out and "merge-near-duplicates" in out
    memories = out.split("== dreamgit memories")[1].split("== git log")[0]
    assert "tools/uses-fastapi" in memories and "flask" not in memories
    log = out.split("== git log --oneline")[1].split("\n\n")[0].strip().splitlines()
    assert log[0].split(" ", 1)[1].startswith("record: dream ")
    assert log[-1].split(" ", 1)[1] == "init: dreamgit memory repository"
    assert (tmp_path / "dreamgit-demo" / "MEMORY.md").is_file()


def test_demo_refuses_a_path_that_holds_something(tmp_path: Path) -> None:
    """An existing, non-empty folder is left alone with a message saying what to do."""
    target = tmp_path / "taken"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")
    result = _demo(tmp_path, str(target))
    assert result.returncode == 1
    assert result.stderr == (
        f"error: {target} already exists and is not empty\n"
        f"hint: remove it (rm -rf {target}) or give the demo another path\n"
    )
    assert [p.name for p in target.iterdir()] == ["notes.txt"]


@pytest.mark.slow
def test_demo_keeps_one_memory_per_fact_with_readable_titles(tmp_path: Path) -> None:
    """One pytest preference however often it was said; titles are clauses of the text."""
    result = _demo(tmp_path)
    assert result.returncode == 0, result.stderr
    root = tmp_path / "dreamgit-demo"
    texts = {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in (root / "memories").rglob("*.md")
    }
    bodies = {path: text.split("---\n", 2)[2] for path, text in texts.items()}
    assert len([t for t in bodies.values() if "pytest" in t]) == 1
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    titles = re.findall(r"^- \[(.+?)\]\((memories/[^)]+)\)", index, flags=re.MULTILINE)
    # Short-term (low, ephemeral) memories enter the index only once promoted (issue 13).
    durable = {
        path for path, text in texts.items() if not re.search(r"priority: (low|ephemeral)\n", text)
    }
    assert {path for _, path in titles} == durable
    for title, path in titles:
        body = " ".join(bodies[path].split())
        assert body.casefold().startswith(title.casefold()), (title, body)
    assert "Has dentist appointment 10 so no" not in index


def test_demo_json_prints_the_run_record_and_the_status(tmp_path: Path) -> None:
    """`demo --json` gives the run record and the status report as one JSON document."""
    import json

    result = _demo(tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["path"] == "dreamgit-demo"
    assert report["run"]["merged"] is True and report["run"]["ops"]
    assert report["status"]["memories"] == report["run"]["memories_after"]
