"""Claude Code hooks end to end: installed into settings.json, run as Claude Code runs them.

The installed command writes the hooks next to a user's own; each hook command is
then taken from the settings file and run through the shell with its JSON input on
stdin, as Claude Code does: SessionStart prints a marked brief, SessionEnd logs the
session, and a brief that came back inside a session is never logged as the user's.
The tests of installing run ``install-hooks`` as a process; the tests of a hook install
it in their own process (``clikit.prepared``, which writes the same command line).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from clikit import RepositoryTemplates, active, dreamgit, dreamgit_process, prepared
from dreamgit.integrations.claude_hooks import session_brief
from dreamgit.store.repo import MemoryRepo

DAY = "2026-11-10T09:00:00Z"
NIGHT = "2026-11-10T23:00:00Z"
SESSION = "7c1d5e00-0000-4000-8000-0000000000b2"
USER_HOOK = {"matcher": "startup", "hooks": [{"type": "command", "command": "echo own-hook"}]}


def _project(tmp_path: Path) -> Path:
    """A project whose settings.json already holds a user's hook and another setting."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    settings = {"model": "opus", "hooks": {"SessionStart": [USER_HOOK]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return project


def _one_memory(repo: Path) -> None:
    prepared(repo, DAY, "init", str(repo))
    prepared(repo, DAY, "add", "Prefers tabs over spaces in Makefiles", "--topic", "prefs")


def _memory(tmp_path: Path, templates: RepositoryTemplates) -> Path:
    """A copy of a repository that holds one memory (made once)."""
    templates.copy(_one_memory, tmp_path / "mem")
    return tmp_path / "mem"


def _settings(project: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((project / ".claude" / "settings.json").read_text())
    return found


def _run_hook(
    project: Path, event: str, payload: dict[str, Any]
) -> subprocess.CompletedProcess[str]:
    """Run the command settings.json gives ``event`` through the shell, JSON on stdin."""
    (command,) = [
        hook["command"]
        for group in _settings(project)["hooks"][event]
        for hook in group["hooks"]
        if "dreamgit" in hook["command"]
    ]
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        cwd=project,
    )


def _record(number: int, role: str, content: Any) -> str:
    return json.dumps(
        {
            "type": role,
            "uuid": f"u-{number:04d}",
            "sessionId": SESSION,
            "timestamp": f"2026-11-10T10:00:{number:02d}Z",
            "message": {"role": role, "content": content},
        }
    )


def test_install_keeps_the_users_hooks_and_is_idempotent(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The user's hook and settings stay; a second install writes the same bytes."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    done = dreamgit_process(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert done.returncode == 0, done.stderr
    assert "installed SessionStart (memory brief), SessionEnd and PreCompact" in done.stderr
    settings = _settings(project)
    assert settings["model"] == "opus"
    assert settings["hooks"]["SessionStart"][0] == USER_HOOK
    assert set(settings["hooks"]) == {"SessionStart", "SessionEnd", "PreCompact"}
    first = (project / ".claude" / "settings.json").read_bytes()
    again = dreamgit_process(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert again.returncode == 0
    assert "dreamgit's Claude Code hooks already installed; unchanged" in again.stderr
    assert (project / ".claude" / "settings.json").read_bytes() == first


def test_uninstall_leaves_only_the_users_hook(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """--uninstall takes out every entry of ours and nothing of the user's."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    done = dreamgit_process(
        repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--uninstall"
    )
    assert done.returncode == 0 and "removed dreamgit's Claude Code hooks" in done.stderr
    assert _settings(project) == {"model": "opus", "hooks": {"SessionStart": [USER_HOOK]}}


def test_print_writes_nothing(tmp_path: Path, templates: RepositoryTemplates) -> None:
    """--print shows the merged settings and leaves the file as it was."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    before = (project / ".claude" / "settings.json").read_bytes()
    shown = json.loads(
        dreamgit(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--print")
    )
    assert "SessionEnd" in shown["hooks"]
    assert (project / ".claude" / "settings.json").read_bytes() == before


def test_a_broken_settings_file_is_named_and_left_as_it_was(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Invalid JSON: exit 1 with file, line and column; the file is not rewritten."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    path = project / ".claude" / "settings.json"
    path.write_text('{\n  "hooks": {,\n}\n', encoding="utf-8")
    done = dreamgit_process(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert done.returncode == 1
    assert f"{path}:2:13: not valid JSON (Expecting property name enclosed" in done.stderr
    assert path.read_text(encoding="utf-8") == '{\n  "hooks": {,\n}\n'


def test_session_start_prints_the_marked_brief(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The SessionStart hook prints the index between dreamgit:generated markers."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    payload = {"hook_event_name": "SessionStart", "source": "startup"}
    done = _run_hook(project, "SessionStart", payload)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("<!-- dreamgit:generated session brief")
    assert lines[-1] == "<!-- /dreamgit:generated -->"
    assert any("Prefers tabs over spaces in Makefiles" in line for line in lines)
    assert sum("dreamgit:generated" in line for line in lines) == 2


def test_the_brief_keeps_whole_lines_within_its_cap(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A cap smaller than the index keeps whole lines and never passes the cap."""
    repo = _memory(tmp_path, templates)
    for number in range(3):
        text = f"Build step {number} runs the linter before the packager"
        prepared(repo, DAY, "add", text, "--topic", "build")
    full = session_brief(MemoryRepo.open(repo), chars=10_000)
    capped = session_brief(MemoryRepo.open(repo), chars=250)
    assert len(capped) <= 250 < len(full)
    assert set(capped.splitlines()) < set(full.splitlines())


def test_session_end_logs_the_session_but_not_the_brief_in_it(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The brief injected at start comes back in the transcript; only the user's words log."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    brief = _run_hook(project, "SessionStart", {"source": "startup"}).stdout
    transcript = tmp_path / "projects" / f"{SESSION}.jsonl"
    transcript.parent.mkdir()
    lines = [
        _record(0, "user", brief + "\nI moved the build cache to a ramdisk last week."),
        _record(1, "assistant", [{"type": "text", "text": "Noted."}]),
    ]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    payload = {"hook_event_name": "SessionEnd", "transcript_path": str(transcript)}
    done = _run_hook(project, "SessionEnd", payload)
    assert done.returncode == 0, done.stderr
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in done.stderr
    (logged,) = (repo / "sessions").rglob("*.md")
    text = logged.read_text(encoding="utf-8")
    assert "ramdisk" in text
    assert "tabs over spaces" not in text and "dreamgit:generated" not in text
    again = _run_hook(project, "PreCompact", payload)
    assert "logged 0 session part(s)" in again.stderr
    assert len(list((repo / "sessions").rglob("*.md"))) == 1


def _session_with(tmp_path: Path, said: str) -> Path:
    """A Claude Code session file in which the user says ``said`` and the agent notes it."""
    transcript = tmp_path / "projects" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(exist_ok=True)
    lines = [_record(0, "user", said), _record(1, "assistant", [{"type": "text", "text": "Ok."}])]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return transcript


def test_a_dream_gathers_nothing_from_the_brief_in_a_logged_session(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A line the user keeps in MEMORY.md goes out in the brief and comes back in the
    session as the user's message; the dream gathers the user's own words, not the brief's."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    with (repo / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("\nI always deploy the billing service from the release branch.\n")
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    brief = _run_hook(project, "SessionStart", {"source": "startup"}).stdout
    assert "billing service" in brief
    transcript = _session_with(tmp_path, brief + "\nI moved the build cache to a ramdisk.")
    done = _run_hook(project, "SessionEnd", {"transcript_path": str(transcript)})
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in done.stderr
    # The hooks ran as processes; the dream and the listing run in this process.
    prepared(repo, NIGHT, "run", "--force")
    texts = [m["text"] for m in active(repo, NIGHT, in_process=True)]
    assert any("ramdisk" in t for t in texts), texts
    assert not any("billing service" in t or "dreamgit:generated" in t for t in texts), texts


def test_a_hook_on_a_broken_repository_exits_0_with_one_line(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A hook never blocks the agent: the failure is one line on stderr, stdout empty."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    repo.rename(tmp_path / "moved-away")  # the hooks still name the old place
    payload = {"transcript_path": str(tmp_path / "none.jsonl"), "prompt": "tabs"}
    for event, step in (
        ("SessionStart", "session-start"),
        ("SessionEnd", "session-end"),
        ("UserPromptSubmit", "prompt-submit"),
    ):
        done = _run_hook(project, event, payload)
        assert done.returncode == 0 and done.stdout == ""
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert done.stderr.startswith(f"dreamgit hook {step}: ")


def test_settings_that_are_not_an_object_are_named_and_left_as_they_were(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A settings.json holding a list (or hooks that are not an object) is refused, untouched."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    path = project / ".claude" / "settings.json"
    path.write_text('{"hooks": ["not", "an", "object"]}\n', encoding="utf-8")
    done = dreamgit_process(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert done.returncode == 1
    assert f"{path}: the settings (and their 'hooks') must be JSON objects; left as it was" in (
        done.stderr
    )
    assert path.read_text(encoding="utf-8") == '{"hooks": ["not", "an", "object"]}\n'


def test_a_session_end_without_a_transcript_says_so_in_one_line(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Hook input naming no transcript: nothing logged, one line, exit 0 (never blocks)."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    done = _run_hook(project, "SessionEnd", {"session_id": "s-1"})
    assert done.returncode == 0 and done.stdout == ""
    assert "the hook input names no transcript_path; nothing logged" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_init_log_from_without_github_is_a_usage_error(tmp_path: Path) -> None:
    """`--log-from` belongs to the Action's job: alone, init says where it goes instead."""
    target = tmp_path / "memory"
    done = dreamgit_process(target, DAY, "init", str(target), "--log-from", "claude-code", "x")
    assert done.returncode == 2
    assert "--log-from goes with --github (for cron: install-cron --log-from)" in done.stderr
    assert not target.exists()
