"""Every newer value supersedes, wherever it was written; time-bound memories leave on time.

Everything goes through the installed command as a process, on real repositories: a
correction later in the same night's batch, "no longer", memories written by hand in an
agent's own folder (Hermes, Claude Code) or a daily note (OpenClaw), each brought back by
``restore``, a dated plan after its day, and a memory another one says more than.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, active, dreamgit, initialized
from gitcheck import fsck, git


def _texts(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now)]


def _ops(out: str) -> list[str]:
    return [op["summary"] for op in json.loads(out)["ops"]]


@pytest.mark.slow
def test_a_correction_later_in_the_same_run_supersedes_and_history_says_why(
    tmp_path: Path,
) -> None:
    """Three sessions of one day, one dream: the port said in the evening replaces the port
    said in the morning, though "it" names no subject; the old one is in history."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-05-04T08:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-05-04T09:00:00Z", "log", "User: The billing cache listens on port 7411.")
    dreamgit(repo, "2026-05-04T13:00:00Z", "log", "User: Can you tidy this SQL?\nAssistant: Sure.")
    dreamgit(repo, "2026-05-04T19:00:00Z", "log", "User: Correction: it moved to port 7520 today.")
    dreamgit(repo, "2026-05-05T03:00:00Z", "run", "--force")
    now = "2026-05-05T04:00:00Z"
    current = active(repo, now)
    assert [m["text"] for m in current if "port" in m["text"]] == [
        next(m["text"] for m in current if "7520" in m["text"])
    ]
    newest = next(m["id"] for m in current if "7520" in m["text"])
    history = dreamgit(repo, now, "show", "--history", newest)
    assert "supersede (supersedes m-" in history
    assert "[supersede-newer-value]" in history
    assert "7411" in history  # the memory it replaced, shown with its text
    fsck(repo)


@pytest.mark.slow
def test_no_longer_retires_what_it_negates_and_one_memory_says_the_current_tool(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """ "I no longer use Pipenv; I use Hatch now" leaves one memory (Hatch), "I don't keep
    bees anymore" retires "keeps bees", and the words come through as said."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2026-05-01T08:00:00Z")
    dreamgit(repo, "2026-05-01T09:00:00Z", "log", "User: I use Pipenv for Python packaging.")
    dreamgit(repo, "2026-05-01T10:00:00Z", "log", "User: I keep bees in the garden.")
    dreamgit(repo, "2026-05-02T03:00:00Z", "run", "--force")
    assert any("Pipenv" in t for t in _texts(repo, "2026-05-02T04:00:00Z"))
    dreamgit(repo, "2026-05-06T09:00:00Z", "log", "User: I no longer use Pipenv; I use Hatch now.")
    dreamgit(repo, "2026-05-06T10:00:00Z", "log", "User: Actually I no longer keep bees.")
    dreamgit(repo, "2026-05-07T03:00:00Z", "run", "--force")
    texts = _texts(repo, "2026-05-07T04:00:00Z")
    assert [t for t in texts if "Pipenv" in t or "Hatch" in t] == ["The user uses Hatch now."]
    assert [t for t in texts if "bees" in t] == ["Actually the user no longer keeps bees."]
    fsck(repo)


#: What the user tells the agent a week after the agent's own notes were written.
_LISBON = "User: I moved from Porto to Lisbon last month.\nAssistant: Noted, Lisbon it is."


@pytest.mark.slow
@pytest.mark.parametrize("undo", ["restore", "revert"])
def test_a_hermes_entry_written_by_hand_is_superseded_and_comes_back(
    tmp_path: Path, undo: str
) -> None:
    """A Hermes USER.md entry ("Works in Porto, timezone Europe/Lisbon") is read with a
    frame like any memory: "moved from Porto to Lisbon" retires it, USER.md is rewritten
    without it, and ``restore`` of the entry or a revert of that operation puts it back."""
    repo = tmp_path / "hermes"
    repo.mkdir()
    (repo / "USER.md").write_text(
        "Likes terse answers\n§\nWorks in Porto, timezone Europe/Lisbon\n"
    )
    (repo / "MEMORY.md").write_text("The CI runs on every push\n")
    dreamgit(repo, "2026-05-01T08:00:00Z", "init", str(repo))
    old = next(m for m in active(repo, "2026-05-01T08:00:00Z") if "Porto" in m["text"])
    dreamgit(repo, "2026-05-08T09:00:00Z", "log", _LISBON)
    run = json.loads(dreamgit(repo, "2026-05-09T03:00:00Z", "run", "--force", "--json"))
    texts = _texts(repo, "2026-05-09T04:00:00Z")
    assert "Works in Porto, timezone Europe/Lisbon" not in texts
    assert [t for t in texts if "Lisbon" in t] == [
        "The user lives in Lisbon (moved there from Porto)."
    ]
    assert "Porto, timezone" not in (repo / "USER.md").read_text()
    if undo == "restore":
        dreamgit(repo, "2026-05-10T09:00:00Z", "restore", old["id"])
    else:
        op = next(op["n"] for op in run["ops"] if old["id"] in op["memories"])
        dreamgit(repo, "2026-05-10T09:00:00Z", "revert", run["run_id"], "--op", str(op))
    assert "Works in Porto, timezone Europe/Lisbon" in _texts(repo, "2026-05-10T09:00:00Z")
    assert "Works in Porto, timezone Europe/Lisbon" in (repo / "USER.md").read_text()
    fsck(repo)


@pytest.mark.slow
def test_a_claude_code_memory_file_written_by_hand_is_superseded_by_a_newer_value(
    tmp_path: Path,
) -> None:
    """A Claude Code memory file of two clauses ("…; the code freeze starts at 14:00"):
    each clause has a frame, so "the code freeze now starts at 16:00" retires the file,
    and ``restore`` brings the file back as it was."""
    repo = tmp_path / "memory"
    repo.mkdir()
    (repo / "MEMORY.md").write_text("- [Release process](release.md) — how we release\n")
    (repo / "release.md").write_text(
        "---\nname: release-process\ndescription: how we release\nmetadata:\n  type: project\n"
        "---\nReleases are cut from the release branch; the code freeze starts at 14:00.\n"
    )
    dreamgit(repo, "2026-05-01T08:00:00Z", "init", "--format", "claude-code", str(repo))
    written = (repo / "release.md").read_bytes()
    old = next(m for m in active(repo, "2026-05-01T08:00:00Z") if "freeze" in m["text"])
    dreamgit(
        repo,
        "2026-05-08T09:00:00Z",
        "log",
        "User: Please bump the version for the 3.1 release.\nAssistant: Done, 3.1.0 it is.\n"
        "User: Thanks. Heads up: the code freeze now starts at 16:00.\nAssistant: Noted.",
    )
    dreamgit(repo, "2026-05-09T03:00:00Z", "run", "--force")
    texts = _texts(repo, "2026-05-09T04:00:00Z")
    assert [t for t in texts if "freeze" in t] == [
        "The user says the code freeze now starts at 16:00."
    ]
    assert not (repo / "release.md").exists()
    dreamgit(repo, "2026-05-10T09:00:00Z", "restore", old["id"])
    assert (repo / "release.md").read_bytes() == written
    assert any("14:00" in t for t in _texts(repo, "2026-05-10T09:00:00Z"))
    fsck(repo)


@pytest.mark.slow
def test_an_openclaw_daily_note_value_is_superseded_by_a_later_note(tmp_path: Path) -> None:
    """Three daily notes move one briefing time: one time stays active, the newest."""
    repo = tmp_path / "workspace"
    (repo / "memory").mkdir(parents=True)
    (repo / "MEMORY.md").write_text("# Memory\n\n- Noor likes plain text mail.\n")
    notes = [
        ("2026-05-02", "- Noor wants the evening digest at 19:30.\n"),
        ("2026-05-04", "- Noor moved the evening digest to 20:15.\n"),
        ("2026-05-06", "- Noor moved the evening digest to 21:00.\n"),
    ]
    dreamgit(repo, "2026-05-02T08:00:00Z", "init", "--format", "openclaw", str(repo))
    for day, note in notes:
        (repo / "memory" / f"{day}.md").write_text(f"# {day}\n\n{note}")
        dreamgit(repo, f"{day[:-1]}{int(day[-1]) + 1}T03:00:00Z", "run", "--force")
    digest = [t for t in _texts(repo, "2026-05-07T04:00:00Z") if "digest" in t]
    assert len(digest) == 1 and "21:00" in digest[0]
    fsck(repo)


@pytest.mark.slow
def test_an_openclaw_agent_note_is_superseded_by_the_users_newer_value_and_restored(
    tmp_path: Path,
) -> None:
    """What the agent wrote in its daily note ("The user wants the evening digest at
    19:30") is staged as the agent's word; the user saying 21:00 a week later supersedes
    it, the note's own lines stay as the agent wrote them, and ``restore`` puts the staged
    candidate back where it stood."""
    repo = tmp_path / "workspace"
    (repo / "memory").mkdir(parents=True)
    (repo / "MEMORY.md").write_text("# Memory\n\n- Noor likes plain text mail.\n")
    note = repo / "memory" / "2026-05-02.md"
    note.write_text("# 2026-05-02\n\n- The user wants the evening digest at 19:30.\n")
    dreamgit(repo, "2026-05-02T08:00:00Z", "init", "--format", "openclaw", str(repo))
    dreamgit(repo, "2026-05-03T03:00:00Z", "run", "--force")
    staged = next(m for m in active(repo, "2026-05-03T04:00:00Z") if "19:30" in m["text"])
    assert staged["text"] == "The agent says the user wants the evening digest at 19:30."
    dreamgit(
        repo,
        "2026-05-08T09:00:00Z",
        "log",
        "User: I want the evening digest at 21:00 from now on.\nAssistant: Noted.",
    )
    dreamgit(repo, "2026-05-09T03:00:00Z", "run", "--force")
    assert [t for t in _texts(repo, "2026-05-09T04:00:00Z") if "digest" in t] == [
        "The user wants the evening digest at 21:00 from now on."
    ]
    assert note.read_text().startswith(
        "# 2026-05-02\n\n- The user wants the evening digest at 19:30.\n"
    )
    assert "The agent says" not in note.read_text()
    dreamgit(repo, "2026-05-10T09:00:00Z", "restore", staged["id"])
    assert staged["text"] in _texts(repo, "2026-05-10T09:00:00Z")
    assert "- The agent says the user wants the evening digest at 19:30." in note.read_text()
    fsck(repo)


@pytest.mark.slow
def test_a_dated_plan_is_retired_after_its_day_and_a_recurring_one_stays(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """ "The demo for the investors is tomorrow at 3pm" said on the 6th is no plan after a
    dream on the 10th: the plan is in history (restorable) and the note of its day says
    what was planned; "every Monday" keeps its plan."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2026-05-01T08:00:00Z")
    dreamgit(
        repo,
        "2026-05-06T10:00:00Z",
        "log",
        "User: The demo for the investors is tomorrow at 3pm.\nAssistant: Good luck!",
    )
    dreamgit(
        repo,
        "2026-05-06T11:00:00Z",
        "add",
        "The user has a planning call every Monday at 9:30, starting 4 May 2026.",
        "--topic",
        "plans",
    )
    dreamgit(repo, "2026-05-06T12:00:00Z", "run", "--force")
    plan = next(m for m in active(repo, "2026-05-06T12:00:00Z") if "investors" in m["text"])
    assert "7 May 2026" in plan["text"]
    out = dreamgit(repo, "2026-05-07T12:00:00Z", "run", "--force", "--json")
    assert not [s for s in _ops(out) if s.startswith("prune")]  # its day is not over yet
    run = json.loads(dreamgit(repo, "2026-05-10T03:00:00Z", "run", "--force", "--json"))
    retired = [op for op in run["ops"] if op["phase"] == "prune"]
    assert [op["summary"] for op in retired] == [
        f"replace: {plan['id']} by the note of its day (a prune rule retires it)"
    ]
    texts = _texts(repo, "2026-05-10T04:00:00Z")
    assert [t for t in texts if "investors" in t] == [f"6 May 2026 \u2014 {plan['text']}"]
    assert "The user has a planning call every Monday at 9:30, starting 4 May 2026." in texts
    assert plan["text"] in dreamgit(repo, "2026-05-10T04:00:00Z", "show", "--history", plan["id"])
    out = dreamgit(repo, "2026-05-12T03:00:00Z", "run", "--force", "--json")
    assert not [s for s in _ops(out) if s.startswith(("prune", "replace"))]  # a note stays
    dreamgit(repo, "2026-05-12T05:00:00Z", "revert", run["run_id"], "--op", str(retired[0]["n"]))
    assert plan["text"] in _texts(repo, "2026-05-12T05:00:00Z")
    fsck(repo)


@pytest.mark.slow
def test_a_memory_another_says_more_than_merges_into_it(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """ "works at Quayside" and, later, "works as a site reliability engineer at Quayside":
    one memory, the fuller one's text."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2026-05-01T08:00:00Z")
    dreamgit(repo, "2026-05-01T09:00:00Z", "log", "User: I work at Quayside.")
    dreamgit(repo, "2026-05-02T03:00:00Z", "run", "--force")
    dreamgit(
        repo,
        "2026-05-04T09:00:00Z",
        "log",
        "User: I work as a site reliability engineer at Quayside.",
    )
    out = dreamgit(repo, "2026-05-05T03:00:00Z", "run", "--force", "--json")
    assert any(s.startswith("merge: 2 memories") for s in _ops(out))
    assert [t for t in _texts(repo, "2026-05-05T04:00:00Z") if "Quayside" in t] == [
        "The user works as a site reliability engineer at Quayside."
    ]
    fsck(repo)


@pytest.mark.slow
def test_a_rule_for_past_plans_removes_one_statement_of_a_session_note(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """With a rule that reaches into session notes, a note of what happened and what is
    coming loses only the appointment once its day is over (op `replace`); the note as
    it was stays in history."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2026-05-01T08:00:00Z")
    # the default rule leaves notes alone (in chats a plan is often all that was said of
    # what then happened); a repository may reach into them
    config = repo / ".dreamgit" / "config.yaml"
    rule = "(topic == 'plans' or text matches '(?i)appointment') and since_day > 0h"
    config.write_text(
        config.read_text() + f'prune:\n  - name: expire-past-plans\n    when: "{rule}"\n'
    )
    git(repo, "-c", "user.name=Me", "-c", "user.email=me@example.com", "commit", "-qam", "rules")
    note = "Ana — went rowing on 2 May 2026; has a dentist appointment on 9 May 2026."
    ident = dreamgit(
        repo, "2026-05-03T10:00:00Z", "add", note, "--topic", "people", "--tag", "session-note"
    ).strip()
    out = dreamgit(repo, "2026-05-11T03:00:00Z", "run", "--force", "--json")
    summaries = _ops(out)
    assert summaries[0] == f"replace: {ident} without 1 statement(s) a prune rule retires"
    assert not [s for s in summaries if s.startswith("prune")]
    assert _texts(repo, "2026-05-11T04:00:00Z") == ["Ana went rowing on 2 May 2026."]
    assert note in dreamgit(repo, "2026-05-11T04:00:00Z", "show", "--history", ident)
    fsck(repo)
