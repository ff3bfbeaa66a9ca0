"""What the read-only Claude Code hooks load: none of the write path, so each stays cheap.

The prompt hook runs at every prompt and the session-start hook at every session, so
they must not import what only writes need (``cmd_memory``, ``store.operations``, the
secret scanner and its hundreds of patterns), and the session-start hook in a work
tree must not open git at all. Checked with ``python -X importtime`` on the real
command against a real repository: which modules load, never how long they take.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, prepared
from dreamgit.cli.hookrun import HookCall, hook_call
from dreamgit.integrations.claude_hooks import session_brief
from dreamgit.store.repo import MemoryRepo
from test_claude_hooks import DAY, _memory, _record

WRITE_PATH = ("dreamgit.cli.cmd_memory", "dreamgit.store.operations", "dreamgit.store.secrets")
#: What a recall from the derived store needs none of: RE2 (no ``matches`` in the recall
#: rules), ``importlib.resources`` (the bundled files are a folder on disk).
NOT_FOR_RECALL = ("re2", "importlib.resources", "importlib.readers", "tempfile", "shutil")
#: What logging a Claude Code session into dreamgit's own layout needs none of: click,
#: other agents' memory formats and session readers.
NOT_FOR_LOGGING = (
    "click",
    "dreamgit.cli.render",
    "dreamgit.cli.state",
    "dreamgit.store.formats.claude",
    "dreamgit.store.formats.hermes",
    "dreamgit.store.formats.openclaw",
    "dreamgit.store.formats.aider",
    "dreamgit.store.formats.codex_sessions",
    "dreamgit.store.formats.openclaw_sessions",
    "dreamgit.store.formats.specstory",
)


def _loaded(repo: Path, event: str, payload: dict[str, str], *first: str) -> tuple[str, set[str]]:
    """The hook's stdout and stderr (less the import times) and the modules it imported;
    ``first``: global options before ``--repo``."""
    argv = ["-X", "importtime", "-m", "dreamgit", *first, "--repo", str(repo), "--now", DAY]
    done = subprocess.run(
        [sys.executable, *argv, "hook", "claude-code", event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    said = "\n".join(row for row in done.stderr.splitlines() if not row.startswith("import time:"))
    assert not said.startswith("dreamgit hook"), said  # a hook's one failure line
    return done.stdout + said, modules


def test_the_prompt_hook_recalls_without_loading_the_write_path(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """prompt-submit answers from memory yet never imports the modules only writes need."""
    repo = _memory(tmp_path, templates)
    said, modules = _loaded(repo, "prompt-submit", {"prompt": "tabs in Makefiles"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert "dreamgit.recall.search" in modules
    assert not modules & set(WRITE_PATH)


def test_the_prompt_hook_opens_no_git_once_a_recall_kept_the_commit(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The second prompt at the same commit is answered from the derived store alone, alike."""
    repo = _memory(tmp_path, templates)
    payload = {"prompt": "tabs in Makefiles"}
    first, first_modules = _loaded(repo, "prompt-submit", payload)
    second, modules = _loaded(repo, "prompt-submit", payload)
    assert second == first and "Prefers tabs over spaces in Makefiles" in second
    assert "pygit2" in first_modules
    assert "pygit2" not in modules and "dreamgit.recall.cached" in modules
    assert not modules & set(WRITE_PATH)
    assert not modules & set(NOT_FOR_RECALL), modules & set(NOT_FOR_RECALL)


def test_the_session_end_hook_logs_without_click_or_other_agents_formats(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A session-end that logs opens the repository and commits (pygit2, the secret scan)
    yet loads no click and no reader of another agent's memory or sessions; the session
    is logged as through click."""
    repo = _memory(tmp_path, templates)
    transcript = tmp_path / "session.jsonl"
    turns = [_record(0, "user", "I fly kites on Sundays."), _record(1, "assistant", "Noted.")]
    transcript.write_text("\n".join(turns) + "\n", encoding="utf-8")
    said, modules = _loaded(repo, "session-end", {"transcript_path": str(transcript)})
    assert said == "logged 1 session part(s) of session.jsonl", said
    assert {"pygit2", "dreamgit.store.secrets", "dreamgit.store.formats.claude_sessions"} <= modules
    assert not modules & set(NOT_FOR_LOGGING), modules & set(NOT_FOR_LOGGING)


def test_the_session_start_hook_in_a_work_tree_opens_no_git(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """session-start reads MEMORY.md as a file: neither pygit2 nor the write path loads."""
    repo = _memory(tmp_path, templates)
    said, modules = _loaded(repo, "session-start", {"source": "startup"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert "pygit2" not in modules
    assert not modules & set(WRITE_PATH)


def _one_memory_bare(repo: Path) -> None:
    prepared(repo, DAY, "init", "--bare", str(repo))
    prepared(repo, DAY, "add", "Prefers tabs over spaces in Makefiles", "--topic", "prefs")


def _bare(tmp_path: Path, templates: RepositoryTemplates) -> Path:
    """A copy of a bare repository that holds one memory (made once)."""
    templates.copy(_one_memory_bare, tmp_path / "bare.git")
    return tmp_path / "bare.git"


def _full_path_brief(repo: Path) -> str:
    return session_brief(MemoryRepo.open(repo)) + "\n"


def test_the_session_start_hook_in_a_bare_repository_opens_no_git(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A bare repository's committed MEMORY.md is read from loose objects: no pygit2, and
    the brief the full path gives, byte for byte."""
    repo = _bare(tmp_path, templates)
    said, modules = _loaded(repo, "session-start", {"source": "startup"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert said == _full_path_brief(repo)
    assert "pygit2" not in modules
    assert not modules & set(WRITE_PATH)


def _packed(repo: Path) -> None:
    subprocess.run(["git", "-C", str(repo), "repack", "-a", "-d", "-q"], check=True)
    subprocess.run(["git", "-C", str(repo), "prune-packed"], check=True)


def _detached(repo: Path) -> None:
    commit = (repo / "refs" / "heads" / "main").read_text(encoding="utf-8")
    (repo / "HEAD").write_text(commit, encoding="utf-8")


def _branch_named(repo: Path, line: str = 'branch: "main"') -> None:
    opened = MemoryRepo.open(repo)
    config = (opened.read_text(".dreamgit/config.yaml") or "") + line + "\n"
    opened.commit_main(
        "config: name the branch",
        lambda _tip: {".dreamgit/config.yaml": config.encode()},
        now=datetime.fromisoformat(DAY),
    )


@pytest.mark.parametrize(
    "doubt",
    [_packed, _detached, _branch_named],
    ids=["packed", "detached-head", "branch-named-quoted"],
)
def test_the_bare_session_start_hook_opens_git_on_any_doubt(
    tmp_path: Path, templates: RepositoryTemplates, doubt: Callable[[Path], None]
) -> None:
    """Objects packed, HEAD detached, a configuration that names its branch in a way a plain
    reading cannot be sure of: the hook takes the full path (pygit2 loads), same brief."""
    repo = _bare(tmp_path, templates)
    doubt(repo)
    said, modules = _loaded(repo, "session-start", {"source": "startup"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert said == _full_path_brief(repo)
    assert "pygit2" in modules


def test_a_configuration_naming_heads_branch_plainly_is_read_without_git(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """``branch: main`` on main (an adopted repository names its branch so): no pygit2, and
    the brief the full path gives."""
    repo = _bare(tmp_path, templates)
    _branch_named(repo, "branch: main  # the repository's own")
    said, modules = _loaded(repo, "session-start", {"source": "startup"})
    assert said == _full_path_brief(repo) and "Prefers tabs over spaces in Makefiles" in said
    assert "pygit2" not in modules


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("session-start", {"source": "startup"}),
        ("prompt-submit", {"prompt": "tabs in Makefiles"}),
        ("session-end", {"transcript_path": "session.jsonl"}),
    ],
)
def test_a_hooks_command_line_runs_without_click_and_says_what_click_says(
    tmp_path: Path, templates: RepositoryTemplates, event: str, payload: dict[str, str]
) -> None:
    """The command line install-hooks writes skips click (40 ms of imports at every prompt);
    through click (``--debug`` first sends it there) the hook says the same."""
    repo = _memory(tmp_path, templates)
    if "transcript_path" in payload:  # logged once: both paths then find nothing new
        transcript = tmp_path / payload["transcript_path"]
        transcript.write_text(_record(0, "user", "I fly kites.") + "\n", encoding="utf-8")
        payload = {"transcript_path": str(transcript)}
        _loaded(repo, event, payload)
    said, modules = _loaded(repo, event, payload)
    through_click, click_modules = _loaded(repo, event, payload, "--debug")
    assert said == through_click and said.strip()
    assert "click" not in modules and "click" in click_modules


def test_only_a_hooks_exact_command_line_skips_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """``[--repo P] [--now T] hook claude-code EVENT``, each option once as two words; the
    environment fills what is not given, as click's envvar does; anything else is click's."""
    monkeypatch.setenv("DREAMGIT_REPO", "/env/mem")
    monkeypatch.delenv("DREAMGIT_NOW", raising=False)
    end = ["hook", "claude-code", "session-end"]
    assert hook_call(["--repo", "/m", "--now", DAY, *end]) == HookCall("/m", DAY, "session-end")
    assert hook_call(["--now", DAY, "--repo", "/m", *end]) == HookCall("/m", DAY, "session-end")
    assert hook_call(end) == HookCall("/env/mem", None, "session-end")
    for args in (
        ["--debug", *end],
        ["--repo=/m", *end],
        ["--repo", "/m", "--repo", "/n", *end],
        ["hook", "claude-code", "session-end", "--help"],
        ["hook", "claude-code", "stop"],
        ["hook", "codex", "session-end"],
        ["--repo", "/m", "status"],
    ):
        assert hook_call(args) is None, args
