"""The session-end hook with nothing new to log answers from git's files; on doubt, it logs.

SessionEnd and PreCompact both run it, so most calls find nothing new. Then the hook
reads ``.dreamgit/logged.json`` from loose objects and the session file's last line,
and says what the full path would say without importing pygit2 or YAML. Each doubt
(objects packed, HEAD detached, a configuration it cannot read plainly, a file that
grew, changed or was logged by an older dreamgit) takes the full path, which says
what it finds. Checked with ``python -X importtime`` on the real command.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from clikit import RepositoryTemplates, prepared
from dreamgit.cli import cli
from dreamgit.store.repo import MemoryRepo
from formatkit import claude_folder_on_master
from test_claude_hooks import DAY, SESSION, _memory, _record
from test_claude_hooks_imports import WRITE_PATH, _bare, _detached, _loaded, _packed

#: What the full path imports and the answer from git's files must not.
FULL_PATH = ("pygit2", "ruamel.yaml", "dreamgit.store.agentlog")
LOGGED_NOTHING = f"logged 0 session part(s) of {SESSION}.jsonl"


def _transcript(tmp_path: Path, said: str) -> dict[str, str]:
    """A Claude Code session file in which the user says ``said``; the hook input naming it."""
    transcript = tmp_path / f"{SESSION}.jsonl"
    lines = [_record(0, "user", said), _record(1, "assistant", "Ok.")]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"transcript_path": str(transcript)}


def _refs(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "for-each-ref", "--format=%(refname) %(objectname)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _logged_once(
    tmp_path: Path, templates: RepositoryTemplates, kind: str
) -> tuple[Path, dict[str, str]]:
    """A repository (work tree or bare) that logged a two-turn session; the hook input.

    The first log is set-up, run in this process (click's runner, the hook's own code):
    the tests below that log as a process (the resumed turn, the adopted folder, every
    doubt) prove the full path's imports."""
    repo = (_memory if kind == "work-tree" else _bare)(tmp_path, templates)
    payload = _transcript(tmp_path, "I keep the deploy keys in the vault.")
    args = ["--repo", str(repo), "--now", DAY, "hook", "claude-code", "session-end"]
    done = CliRunner().invoke(cli, args, input=json.dumps(payload))
    assert done.exit_code == 0, done.output
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in done.output
    return repo, payload


@pytest.mark.parametrize("kind", ["work-tree", "bare"])
def test_nothing_new_is_said_without_opening_git_and_commits_nothing(
    tmp_path: Path, templates: RepositoryTemplates, kind: str
) -> None:
    """A second session-end on the same file: the full path's line, no git, no commit."""
    repo, payload = _logged_once(tmp_path, templates, kind)
    before = _refs(repo)
    said, modules = _loaded(repo, "session-end", payload)
    assert said.strip() == LOGGED_NOTHING
    assert not modules & {*FULL_PATH, *WRITE_PATH}
    assert _refs(repo) == before


def _appended(repo: Path, transcript: Path) -> None:
    with transcript.open("a", encoding="utf-8") as file:
        file.write(_record(2, "user", "The release train leaves on Thursdays.") + "\n")


def _half_written(repo: Path, transcript: Path) -> None:
    with transcript.open("a", encoding="utf-8") as file:
        file.write(_record(2, "user", "Still typing")[:30])


def _rewritten(repo: Path, transcript: Path) -> None:
    text = transcript.read_text(encoding="utf-8")
    transcript.write_text(text.replace('"u-0001"', '"u-0009"'), encoding="utf-8")


def _older_record(repo: Path, transcript: Path) -> None:
    """logged.json as a dreamgit that kept no part count wrote it."""
    opened = MemoryRepo.open(repo)
    state = json.loads(opened.read_text(".dreamgit/logged.json") or "{}")
    del state["claude-code"][SESSION]["parts"]
    opened.commit_main(
        "log: an older record",
        lambda _tip: {".dreamgit/logged.json": json.dumps(state).encode()},
        now=datetime.fromisoformat(DAY),
    )


def _quoted_branch(repo: Path, transcript: Path) -> None:
    opened = MemoryRepo.open(repo)
    config = (opened.read_text(".dreamgit/config.yaml") or "") + 'branch: "main"\n'
    opened.commit_main(
        "config: name the branch",
        lambda _tip: {".dreamgit/config.yaml": config.encode()},
        now=datetime.fromisoformat(DAY),
    )


DOUBTS: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "packed": (lambda repo, _t: _packed(repo), LOGGED_NOTHING),
    "detached-head": (lambda repo, _t: _detached(repo), LOGGED_NOTHING),
    "branch-quoted": (_quoted_branch, LOGGED_NOTHING),
    "older-record": (_older_record, LOGGED_NOTHING),
    "half-written-line": (_half_written, LOGGED_NOTHING),
    "appended": (_appended, f"logged 1 session part(s) of {SESSION}.jsonl"),
    "rewritten": (_rewritten, "changed since it was logged (the last record logged is gone)"),
}


@pytest.mark.parametrize("doubt", DOUBTS, ids=list(DOUBTS))
def test_on_any_doubt_the_hook_logs_through_the_repository(
    tmp_path: Path, templates: RepositoryTemplates, doubt: str
) -> None:
    """What the plain reading cannot be sure of goes the full path, which says what it finds."""
    repo, payload = _logged_once(tmp_path, templates, "bare")
    change, expected = DOUBTS[doubt]
    change(repo, Path(payload["transcript_path"]))
    said, modules = _loaded(repo, "session-end", payload)
    assert expected in said
    assert "dreamgit.store.agentlog" in modules and "pygit2" in modules


def test_the_resumed_turn_is_logged_once_then_nothing_new_again(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """After the full path logs a new turn, the next session-end is answered without git."""
    repo, payload = _logged_once(tmp_path, templates, "work-tree")
    _appended(repo, Path(payload["transcript_path"]))
    said, _ = _loaded(repo, "session-end", payload)
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in said
    said, modules = _loaded(repo, "session-end", payload)
    assert said.strip() == LOGGED_NOTHING and not modules & set(FULL_PATH)
    logged = sorted((repo / "sessions").rglob("*.md"))
    assert len(logged) == 2 and "release train" in logged[1].read_text(encoding="utf-8")


def test_an_adopted_claude_code_folder_on_master_answers_without_git_too(
    tmp_path: Path,
) -> None:
    """The hooks' usual repository: Claude Code's own memory folder adopted on ``master``
    (its configuration says ``format: claude-code`` and ``branch: master``); a second
    session-end there is answered from git's files as well."""
    repo = tmp_path / "memory"
    claude_folder_on_master(repo)
    prepared(repo, DAY, "init", str(repo))
    config = (repo / ".dreamgit" / "config.yaml").read_text(encoding="utf-8")
    assert "format: claude-code" in config and "branch: master" in config
    payload = _transcript(tmp_path, "I keep the deploy keys in the vault.")
    said, modules = _loaded(repo, "session-end", payload)
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in said and "pygit2" in modules
    said, modules = _loaded(repo, "session-end", payload)
    assert said.strip() == LOGGED_NOTHING and not modules & set(FULL_PATH)
