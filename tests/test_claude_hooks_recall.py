"""Claude Code's UserPromptSubmit recall hook and project exclusions, run as Claude Code runs them.

``install-hooks claude-code --recall`` adds the prompt hook (off by default); it
prints the memories that answer the prompt between dreamgit:generated markers within
``claude-hooks: {recall-chars: N}``, prints nothing when none answer, and what it
printed is never logged back from a transcript. A project under ``claude-hooks:
{exclude: [...]}`` gets no brief, no recall and no logging.
"""

from __future__ import annotations

from pathlib import Path

from clikit import RepositoryTemplates, dreamgit, prepared
from test_claude_hooks import DAY, SESSION, _memory, _project, _record, _run_hook, _settings


def _configure(repo: Path, section: str) -> None:
    """Append a ``claude-hooks:`` section to the memory repository's configuration."""
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + section, encoding="utf-8")


def test_the_prompt_hook_is_off_by_default_and_installed_with_recall(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Without --recall no UserPromptSubmit hook is written; with it, one is, idempotently."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert "UserPromptSubmit" not in _settings(project)["hooks"]
    for _ in range(2):
        prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    (group,) = _settings(project)["hooks"]["UserPromptSubmit"]
    assert group["hooks"][0]["command"].endswith(" hook claude-code prompt-submit")


def test_the_prompt_hook_prints_marked_memories_within_its_cap(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Memories that answer the prompt come back marked, whole, within recall-chars."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    for number in range(6):
        text = f"The staging database {number} is restored from the nightly snapshot at dawn"
        prepared(repo, DAY, "add", text, "--topic", "ops")
    _configure(repo, "claude-hooks:\n  recall-chars: 300\n")
    dreamgit(repo, DAY, "rules", "check")  # the section is known to the rules' reader
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    payload = {"hook_event_name": "UserPromptSubmit", "prompt": "restore the staging database"}
    done = _run_hook(project, "UserPromptSubmit", payload)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("<!-- dreamgit:generated recalled memories")
    assert lines[-1] == "<!-- /dreamgit:generated -->"
    assert "staging database" in lines[1]
    assert len(done.stdout.rstrip("\n")) <= 300
    assert len(lines) < 2 + 6  # the cap left some of the six out


def test_the_prompt_hook_prints_nothing_when_nothing_answers(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A prompt no memory answers (or an empty one) adds nothing to the agent's context."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    for prompt in ("quantum chromodynamics lattice", "   "):
        done = _run_hook(project, "UserPromptSubmit", {"prompt": prompt})
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_recalled_memories_in_a_transcript_are_never_logged(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """What the prompt hook added comes back in the session; only the user's words log."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    added = _run_hook(project, "UserPromptSubmit", {"prompt": "tabs in Makefiles"}).stdout
    assert "Prefers tabs over spaces" in added
    transcript = tmp_path / "projects" / f"{SESSION}.jsonl"
    transcript.parent.mkdir()
    said = _record(0, "user", added + "\nThe deploy key now lives in the team vault.")
    transcript.write_text(said + "\n", encoding="utf-8")
    done = _run_hook(project, "SessionEnd", {"transcript_path": str(transcript)})
    assert done.returncode == 0, done.stderr
    (logged,) = (repo / "sessions").rglob("*.md")
    text = logged.read_text(encoding="utf-8")
    assert "team vault" in text
    assert "tabs over spaces" not in text and "dreamgit:generated" not in text


def test_an_excluded_project_gets_no_brief_no_recall_and_no_logging(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Every hook does nothing, silently, for a project under claude-hooks: exclude:."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    prepared(repo, DAY, "install-hooks", "claude-code", "--project", str(project), "--recall")
    transcript = tmp_path / "projects" / f"{SESSION}.jsonl"
    transcript.parent.mkdir()
    transcript.write_text(_record(0, "user", "The private key is rotated weekly.") + "\n")
    inside = project / "src"
    inside.mkdir()
    payloads = {
        "SessionStart": {"source": "startup"},
        "UserPromptSubmit": {"prompt": "tabs in Makefiles"},
        "SessionEnd": {"transcript_path": str(transcript)},
    }
    for pattern in (str(project), str(tmp_path / "proj*")):
        _configure(repo, f"claude-hooks:\n  exclude: [{pattern!r}]\n")
        for event, payload in payloads.items():
            done = _run_hook(project, event, {**payload, "cwd": str(inside)})
            assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), event
        assert not (repo / "sessions").exists()
        config = repo / ".dreamgit" / "config.yaml"
        config.write_text(config.read_text().split("claude-hooks:")[0], encoding="utf-8")
    other = _run_hook(project, "SessionStart", {"cwd": str(tmp_path / "elsewhere")})
    assert "Prefers tabs over spaces" in other.stdout


def test_a_bad_exclude_setting_is_one_line_naming_the_key(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A wrong claude-hooks setting never blocks the agent: one line saying what to write."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    dreamgit(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    _configure(repo, "claude-hooks:\n  exclude: ~/private\n")
    done = _run_hook(project, "SessionStart", {"source": "startup", "cwd": str(project)})
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr == (
        "dreamgit hook session-start: .dreamgit/config.yaml: claude-hooks.exclude: "
        "must be a list of paths or globs\n"
    )
