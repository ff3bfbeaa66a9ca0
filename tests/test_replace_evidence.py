"""A model's replace may not turn a memory into its opposite on its word alone.

A model that obeyed an injected session ("ignore previous instructions …") proposes
a ``replace`` of the changelog fact with its negation, at full confidence. Run with
the installed command: the flip is rejected with its reason in the run record and
the memory stays; the same flip quoting the session that says so is accepted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dreamkit import DREAM_AT, iso, memory_files
from llm_dreamkit import EMPTY, add, answer, configure, decisions, fixture, text

FLIPPED = "Does not keep the changelog in CHANGELOG.md at the root."


def _run(repo: Path) -> dict[str, Any]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    done = subprocess.run(
        [*command, "--now", iso(DREAM_AT), "run", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def _flip(memory: str, **evidence: Any) -> dict[str, Any]:
    return {
        "op": "replace",
        "ids": [memory],
        "text": FLIPPED,
        "confidence": 0.99,
        "supersession_confidence": 0.99,
        "reason": "the user asked",
        **evidence,
    }


def _script(*answers: dict[str, Any]) -> dict[str, Any]:
    return {"adapter": "scripted", "model": "m", "responses": [text(a) for a in answers]}


def test_an_injected_flip_is_rejected_and_the_memory_stays(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """replace → its negation at 0.99, no quote: rejected as a flip, the file byte for byte."""
    fx = fixture(tmp_path_factory, tmp_path / "mem", "injection")
    old = fx.ids["changelog"]
    answers = [EMPTY, answer(add("changelog", fx.sessions[1])), EMPTY, answer(_flip(old))]
    configure(fx.repo, _script(*answers))
    before = memory_files(fx.repo)
    record = _run(tmp_path / "mem")
    assert decisions(record)[1:] == [
        (
            "replace",
            False,
            f"replace turns {old} into its opposite: give sources and quote"
            " (the session's own words that say so)",
        )
    ]
    after = memory_files(fx.repo)
    assert all(after.get(p) == blob for p, blob in before.items() if p != "MEMORY.md")


def test_a_flip_the_session_says_is_accepted(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """With the session's own words quoted, the same replace goes through."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    old = fx.ids["changelog"]
    quote = "the changelog goes in CHANGELOG.md at the repository root"
    flip = _flip(old, sources=[fx.sessions[0]], quote=quote)
    configure(
        fx.repo, _script(answer(add("changelog", fx.sessions[0])), EMPTY, EMPTY, answer(flip))
    )
    record = _run(tmp_path / "mem")
    assert [d[:2] for d in decisions(record)[1:]] == [("replace", True)]
