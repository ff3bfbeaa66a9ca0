"""reflect, end to end with the installed command: themes, lasting truths and lessons.

Four days of an agent's sessions, logged one a day and dreamt once: a fact said every
day, a correction said on the last three, and two memories that share a concept. The
dream proposes each reflection with its evidence as its own commit; nothing reaches
MEMORY.md before promotion; ``review`` shows what ``run`` applies; ``revert --op``
takes one back. Each command runs as the installed command at least once here (the
dream the tests share, ``memories``, ``promote``, ``review``, ``revert``); the other steps
run in this process through click's runner, the same code without the cost of a process.
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clikit import RepositoryTemplates, active, dreamgit, prepared

DAYS = ("2027-03-01", "2027-03-02", "2027-03-03", "2027-03-04")
DREAM = "2027-03-04T20:00:00Z"
FACT = "Our nightly backups are copied to a storage bucket in Oslo."
CORRECTION = "No, release notes go in docs/HISTORY.md, not in the README."
THEME_A = "The invoicing service publishes its events to Kafka."
THEME_B = "Our Kafka cluster keeps seven days of retention."


def _session(day: int) -> str:
    turns = ["User: Could you look at the failing job?", "Assistant: Looking at it now."]
    turns += [f"User: {FACT}", "Assistant: Noted."]
    if day >= 1:
        turns += [f"User: {CORRECTION}", "Assistant: Sorry, fixed."]
    turns += [f"User: {THEME_A if day % 2 == 0 else THEME_B}", "Assistant: Understood."]
    return "\n".join(turns) + "\n"


def _logged(path: Path) -> None:
    """Four days of sessions, none dreamt yet."""
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    prepared(path, f"{DAYS[0]}T08:00:00Z", "init", str(path))
    for day, when in enumerate(DAYS):
        prepared(path, f"{when}T10:00:00Z", "log", stdin=_session(day))


def _dreamt(path: Path, templates: RepositoryTemplates) -> dict[str, Any]:
    """The four days dreamt once: the run's record."""
    templates.copy(_logged, path)
    return _run(path, "run")


@pytest.fixture
def repo(templates: RepositoryTemplates, tmp_path: Path) -> Path:
    """A copy of the logged repository (made once), work tree and git directory alike."""
    templates.copy(_logged, tmp_path / "mem")
    return tmp_path / "mem"


@pytest.fixture
def dreamt(templates: RepositoryTemplates, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of the logged repository after ``run`` (dreamt once), and the run's record."""
    record = templates.copy(functools.partial(_dreamt, templates=templates), tmp_path / "mem")
    return tmp_path / "mem", record


def _run(repo: Path, *args: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(dreamgit(repo, DREAM, *args, "--force", "--json"))
    return found


def _reflections(record: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [op for op in record["ops"] if op["phase"] == "reflect" and op["rule"] == rule]


def _listed(repo: Path, now: str) -> list[dict[str, Any]]:
    """``memories --json`` in this process (a process lists them in one test, below)."""
    found: list[dict[str, Any]] = json.loads(prepared(repo, now, "memories", "--json"))
    return found


def _by_text(repo: Path, now: str, part: str) -> dict[str, Any]:
    return next(m for m in _listed(repo, now) if part in m["text"])


def test_a_fact_said_on_four_days_is_a_lasting_truth_with_its_four_sightings(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """The memory is tagged lasting-truth; the commit cites its four days and sessions."""
    repo, record = dreamt
    (truth,) = _reflections(record, "reflect-lasting-truth")
    fact = _by_text(repo, DREAM, "backups")
    assert truth["memories"] == [fact["id"]]
    assert "lasting-truth" in fact["tags"]
    assert truth["detail"].startswith("Said on 4 days in 4 sessions: ")
    for day in DAYS:
        assert day in truth["detail"]
    message = subprocess.run(
        ["git", "-C", str(repo), "log", "-1", "--format=%B", truth["commit"]],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Dream-Phase: reflect\nDream-Op: reflect\nDream-Rule: reflect-lasting-truth" in message


def test_a_theme_is_written_to_that_days_notes_and_never_to_memory_md(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """The Kafka memories make a theme line in notes/2027-03-04.md; MEMORY.md has none."""
    repo, record = dreamt
    themes = _reflections(record, "reflect-theme")
    assert [t["summary"] for t in themes] == ["reflect: theme 'Kafka' in notes/2027-03-04.md"]
    notes = (repo / "notes" / "2027-03-04.md").read_text()
    assert notes.startswith("# Notes 2027-03-04\n\n## Reflections\n\n- Theme: Kafka \u2014 ")
    assert "2 memories on 4 days (2027-03-01 to 2027-03-04), 4 sessions" in notes


def test_a_correction_on_three_days_becomes_an_instruction_after_promotion(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """The correction moves to the instructions, tagged lesson; once promoted it is high."""
    repo, record = dreamt
    (lesson_op,) = _reflections(record, "reflect-lesson")
    lesson = _by_text(repo, DREAM, "release notes")
    assert lesson_op["memories"] == [lesson["id"]]
    assert (lesson["topic"], lesson["type"], lesson["priority"]) == (
        "instructions",
        "feedback",
        "normal",
    )
    assert "lesson" in lesson["tags"]
    assert lesson_op["detail"].startswith("Said on 3 days in 3 sessions: 2027-03-02 (s-")
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text() + 'promotion:\n  gates:\n    min-score: "score >= 0.5"\n')
    who = ["-c", "user.name=Test", "-c", "user.email=test@example.org"]
    subprocess.run(["git", "-C", str(repo), *who, "commit", "-qam", "gate"], check=True)
    for day, query in (
        ("05", "release notes"),
        ("06", "where do release notes go"),
        ("07", "notes README"),
    ):
        prepared(repo, f"2027-03-{day}T09:00:00Z", "recall", query)
    prepared(repo, "2027-03-08T08:00:00Z", "run", "--force")  # folds the recall signals
    promoted = dreamgit(repo, "2027-03-08T09:00:00Z", "promote", "--apply")
    assert f"promoted {lesson['id']}" in promoted
    prepared(repo, "2027-03-08T10:00:00Z", "run", "--force")
    after = _by_text(repo, "2027-03-08T10:00:00Z", "release notes")
    assert (after["id"], after["priority"]) == (lesson["id"], "high")
    assert after["path"] in (repo / "MEMORY.md").read_text()


def test_nothing_new_enters_memory_md_without_promotion(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """MEMORY.md lists the memories the sessions gave, one line each, and no reflection:
    the lesson is staged (in its file, not listed) until promoted."""
    repo, _ = dreamt
    index = (repo / "MEMORY.md").read_text()
    listed = [line for line in index.splitlines() if line.startswith("- [")]
    memories = active(repo, DREAM, in_process=True)
    lesson = next(m for m in memories if "lesson" in m["tags"])
    assert len(memories) == 4 and len(listed) == 3
    assert lesson["path"] not in index and (repo / lesson["path"]).is_file()
    assert "Theme" not in index and "said on" not in index


def test_review_shows_the_reflections_exactly_as_run_applies_them(repo: Path) -> None:
    """Same state and --now: review's reflect operations are run's, field by field."""
    review = _run(repo, "review")
    run = json.loads(prepared(repo, DREAM, "run", "--force", "--json"))
    drop = lambda ops: [{k: v for k, v in op.items() if k != "commit"} for op in ops]  # noqa: E731
    shown = [op for op in review["ops"] if op["phase"] == "reflect"]
    applied = [op for op in run["ops"] if op["phase"] == "reflect"]
    assert len(shown) == 3
    assert drop(shown) == drop(applied)


def test_revert_op_removes_a_reflection(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """Reverting the lesson's operation gives the correction back as it was (a fact, no
    lesson tag); reverting the theme's takes its line away."""
    repo, record = dreamt
    (lesson_op,) = _reflections(record, "reflect-lesson")
    (theme_op,) = _reflections(record, "reflect-theme")
    later = "2027-03-05T08:00:00Z"
    dreamgit(repo, later, "revert", record["run_id"], "--op", str(lesson_op["n"]))
    back = _by_text(repo, later, "release notes")
    assert back["id"] == lesson_op["memories"][0]
    assert (back["topic"], back["type"], back["tags"]) == ("facts", "user", [])
    prepared(repo, later, "revert", record["run_id"], "--op", str(theme_op["n"]))
    assert not (repo / "notes" / "2027-03-04.md").exists()


def test_a_dream_with_no_new_session_reflects_nothing(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """The next day, nothing new read: no operation, so no commit, themes included."""
    repo, _ = dreamt
    again = json.loads(dreamgit(repo, "2027-03-05T20:00:00Z", "run", "--force", "--json"))
    assert again["ops"] == []


def test_a_theme_is_noted_once_in_a_window_not_again_the_next_day(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """A new session the next day opens the gate again; Kafka, noted yesterday, is not
    noted again, and no notes file is made for the day."""
    repo, _ = dreamt
    next_day = "2027-03-05T20:00:00Z"
    kafka_again = f"User: {THEME_A}\nAssistant: Noted.\nUser: {FACT}\nAssistant: Sure.\n"
    prepared(repo, "2027-03-05T10:00:00Z", "log", stdin=kafka_again)
    again = json.loads(prepared(repo, next_day, "run", "--force", "--json"))
    assert again["ops"], "the new session was read"
    assert _reflections(again, "reflect-theme") == []
    assert not (repo / "notes" / "2027-03-05.md").exists()


def test_the_correction_said_again_after_it_became_a_lesson_reinforces_the_lesson(
    dreamt: tuple[Path, dict[str, Any]],
) -> None:
    """A fifth day says the correction again: the lesson, now in another topic, gains the
    session (a sighting) and no memory is added for it; an instruction new that day is."""
    repo, _ = dreamt
    lesson = _by_text(repo, DREAM, "release notes")
    instruction = "Always run the linter before you push a branch."
    said = f"User: {CORRECTION}\nAssistant: Sorry.\nUser: {instruction}\nAssistant: Will do.\n"
    prepared(repo, "2027-03-05T10:00:00Z", "log", stdin=said)
    later = "2027-03-05T20:00:00Z"
    record = json.loads(prepared(repo, later, "run", "--force", "--json"))
    gathered = [(op["op"], op["memories"]) for op in record["ops"] if op["phase"] == "gather"]
    assert [(op, ids == [lesson["id"]]) for op, ids in gathered] == [
        ("reinforce", True),
        ("add", False),
    ]
    memories = {m["id"]: m for m in _listed(repo, later)}
    assert "always run the linter" in memories[gathered[1][1][0]]["text"]
    now = memories[lesson["id"]]
    assert (now["topic"], len(now["sources"])) == ("instructions", len(lesson["sources"]) + 1)
    assert set(lesson["sources"]) < set(now["sources"])
    assert [m for m in memories.values() if "release notes" in m["text"]] == [now]
