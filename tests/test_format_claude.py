"""Claude Code auto memory in place: adopt a folder on master, dream over it, revert it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.store.repo import MemoryRepo
from formatkit import LATER, T0, claude_file, claude_folder_on_master, git, hashed, tree_bytes


def run(path: Path, *args: str, now: Any = LATER) -> Result:
    """The command line in-process on ``path`` at ``now``."""
    return CliRunner().invoke(cli, ["--repo", str(path), "--now", format_time(now), *args])


def ok(path: Path, *args: str, now: Any = LATER) -> Result:
    """:func:`run`, which must exit 0."""
    result = run(path, *args, now=now)
    assert result.exit_code == 0, result.output
    return result


def adopted(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """The Claude folder on master, adopted by ``dreamgit init``, plus three written memories."""
    root = tmp_path / "memory"
    files = claude_folder_on_master(root)
    ok(root, "init", str(root), now=T0)
    for args, hours in (
        (("Deploys go out on Tuesdays.", "--key", "deploy.day"), 0),
        (("Deploys go out on Thursdays now.", "--key", "deploy.day"), 1),
        (("Scratch note for the current task only.", "--priority", "ephemeral"), 2),
    ):
        ok(root, "add", args[0], "--topic", "project", "--type", "project", *args[1:],
           now=T0 + timedelta(hours=hours))  # fmt: skip
    return root, files


def test_init_adopts_a_claude_folder_on_master_byte_for_byte(tmp_path: Path) -> None:
    """init on master: the user's files, committed or not, are in its first commits as they were."""
    root = tmp_path / "memory"
    files = claude_folder_on_master(root)
    result = ok(root, "init", str(root), now=T0)
    assert result.stdout.startswith(
        "found Claude Code auto memory (4 topic files and a MEMORY.md index): using that "
        "format on branch master; 5 file(s) kept byte for byte\n"
    )
    assert "on branch master" in result.stdout
    assert git(root, "branch", "--list").split() == ["*", "master"]  # no orphan main
    adopt = git(root, "log", "--format=%H", "--grep=Dream-Op: adopt", "master").split()
    assert len(adopt) == 1
    assert tree_bytes(root, adopt[0]) == hashed(files)
    assert git(root, "status", "--porcelain") == ""
    status = json.loads(ok(root, "status", "--json").stdout)
    assert (status["memories"], status["format"], status["branch"]) == (4, "claude-code", "master")
    for rel, data in files.items():
        assert (root / rel).read_bytes() == data


def test_a_dream_merges_supersedes_and_prunes_and_keeps_the_index_lines(tmp_path: Path) -> None:
    """One dream: a merge, a supersession and a prune, each a commit with trailers."""
    root, files = adopted(tmp_path)
    review = json.loads(ok(root, "review", "--force", "--json").stdout)
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    # review lists the diary operation too
    view = [(o["op"], o["rule"], o["memories"]) for o in record["ops"]]
    assert view == [(o["op"], o["rule"], o["memories"]) for o in review["ops"]]
    assert {"merge", "supersede", "prune", "index"} <= {o["op"] for o in record["ops"]}
    log = git(root, "log", "master", "--format=%B")
    for op in ("merge", "supersede", "prune"):
        assert f"Dream-Op: {op}" in log
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    # The hand-written lines stay, but the one whose file was merged away, and new memories
    # are listed inside dreamgit's fence.
    merged_away = [f for f in ("prefer-pnpm.md", "pnpm-only.md") if not (root / f).exists()]
    assert len(merged_away) == 1
    assert f"({merged_away[0]})" not in index
    assert index.startswith("# Memory index\n\n")
    assert "\nKeep this file short.\n" in index
    assert "<!-- dreamgit:generated index" in index
    assert "Thursdays" in index or "deploys-go-out-thursdays" in index
    assert (root / "api-errors.md").read_bytes() == files["api-errors.md"]
    assert (root / "staging-deploy.md").read_bytes() == files["staging-deploy.md"]
    assert len(index.splitlines()) <= 200 and len(index.encode()) <= 25_000
    again = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert again["ops"] == [] and again["reason"] == "nothing to do"


def test_revert_restores_the_claude_files_byte_for_byte(tmp_path: Path) -> None:
    """Reverting the dream brings back every file it changed, byte for byte."""
    root, _ = adopted(tmp_path)
    before = tree_bytes(root, "master")
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    ok(root, "revert", record["run_id"])
    after = tree_bytes(root, "master")
    agent = {p: h for p, h in before.items() if not p.startswith((".dreamgit/", "sessions/"))}
    assert {p: after.get(p) for p in agent} == agent


def test_new_memories_are_flat_files_in_claude_codes_shape(tmp_path: Path) -> None:
    """add writes a flat file with name, description and metadata.type; the index lists it."""
    root, _ = adopted(tmp_path)
    repo = MemoryRepo.open(root)
    found = [m for m in repo.memories(now=LATER) if "Tuesdays" in m.text]
    assert found and found[0].path == "deploys-go-out-tuesdays.md"
    text = (root / found[0].path).read_text(encoding="utf-8")
    assert text.startswith("---\nname: deploys-go-out-tuesdays\ndescription: ")
    assert "metadata:\n  type: project\n" in text


def test_a_claude_file_without_front_matter_is_an_error_naming_it(tmp_path: Path) -> None:
    """A topic file with no front matter stops the dream with its file and line; nothing moves."""
    root, _ = adopted(tmp_path)
    (root / "loose.md").write_text("Just some text.\n", encoding="utf-8")
    git(root, "add", "loose.md")
    git(root, "commit", "-q", "-m", "loose note")
    tip = git(root, "rev-parse", "master")
    result = run(root, "run", "--force")
    assert result.exit_code == 1
    assert "error: loose.md:1: has no front matter (Claude Code memory files start with ---" in (
        result.stderr
    )
    assert git(root, "rev-parse", "master") == tip


def test_an_index_line_to_a_missing_file_is_a_warning_naming_the_line(tmp_path: Path) -> None:
    """MEMORY.md pointing at a file that is not there: a warning with the fix, never a stop."""
    root, _ = adopted(tmp_path)
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    (root / "MEMORY.md").write_text(index + "- [Gone](gone.md) — not here\n", encoding="utf-8")
    git(root, "commit", "-q", "-am", "a dead link")
    assert run(root, "recall", "pnpm").exit_code == 0
    for command in (["review", "--force"], ["status"], ["memories"]):
        result = run(root, *command)
        assert result.exit_code == 0, result.output
        assert (
            "warning: MEMORY.md:14: links to gone.md, which is not in the memory folder\n"
            "hint: remove line 14 from MEMORY.md, or bring gone.md back (`git log -- gone.md` "
            "names the commit that removed it; `dreamgit restore ID` brings a memory back)\n"
        ) in result.stderr, command


def test_reading_and_writing_back_with_no_operation_changes_no_byte(tmp_path: Path) -> None:
    """A folder whose memory is settled: a dream writes nothing, not even the index."""
    root = tmp_path / "memory"
    files = {
        "one.md": claude_file("one", "the build uses make", "project", "The build uses make."),
        "MEMORY.md": b"- [One](one.md) \xe2\x80\x94 the build uses make\r\n",
    }
    root.mkdir()
    for rel, data in files.items():
        (root / rel).write_bytes(data)
    ok(root, "init", str(root), now=T0)
    tip = git(root, "rev-parse", "HEAD")
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert record["ops"] == []
    assert git(root, "rev-parse", "HEAD") == tip
    assert {rel: (root / rel).read_bytes() for rel in files} == files


def _event(kind: str, content: Any, when: str, session: str) -> str:
    return json.dumps(
        {"type": kind, "sessionId": session, "timestamp": when,
         "message": {"role": kind, "content": content}}
    )  # fmt: skip


def _sessions(folder: Path) -> None:
    folder.mkdir(parents=True)
    a = "0b8f6a52-0000-4000-8000-000000000001"
    (folder / f"{a}.jsonl").write_text(
        "\n".join(
            [
                _event("user", "I moved to Porto last month.", "2026-11-08T10:00:00Z", a),
                _event(
                    "assistant",
                    [{"type": "text", "text": "Noted."}, {"type": "tool_use", "name": "Bash"}],
                    "2026-11-08T10:00:05Z",
                    a,
                ),
                "{not json",
                _event(
                    "user",
                    [{"type": "tool_result", "content": "secret tool output"}],
                    "2026-11-08T10:00:09Z",
                    a,
                ),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    b = "0b8f6a52-0000-4000-8000-000000000002"
    (folder / f"{b}.jsonl").write_text(
        _event("user", "Please always answer in English.", "2026-11-09T08:30:00Z", b) + "\n",
        encoding="utf-8",
    )


def test_log_from_claude_code_logs_each_session_once_with_its_time(tmp_path: Path) -> None:
    """Two sessions logged, tool calls and results left out; the second call logs nothing."""
    root, _ = adopted(tmp_path)
    _sessions(tmp_path / "projects")
    first = ok(root, "log", "--from", "claude-code", str(tmp_path / "projects"))
    ids = first.stdout.split()
    assert len(ids) == 2 and ids[0].startswith("s-20261108-") and ids[1].startswith("s-20261109-")
    bad = tmp_path / "projects" / "0b8f6a52-0000-4000-8000-000000000001.jsonl"
    assert f"warning: {bad}:3: not a JSON line (JSONDecodeError); skipped" in first.stderr
    assert "logged 2 Claude Code session(s); 0 already logged" in first.stderr
    session = MemoryRepo.open(root).read_text(f"sessions/2026/11/08/{ids[0]}.md") or ""
    assert (
        "<!-- dreamgit:turn role=user source=claude-code at=2026-11-08T10:00:00Z -->\n"
        "I moved to Porto last month.\n\n"
        "<!-- dreamgit:turn role=assistant source=claude-code at=2026-11-08T10:00:05Z -->\n"
        "Noted.\n"
    ) in session
    assert "created: 2026-11-08T10:00:00Z" in session
    assert "secret tool output" not in session and "Bash" not in session
    tip = git(root, "rev-parse", "master")
    second = ok(root, "log", "--from", "claude-code", str(tmp_path / "projects"))
    assert second.stdout == ""
    assert "logged 0 Claude Code session(s); 2 already logged" in second.stderr
    assert git(root, "rev-parse", "master") == tip


def test_init_with_another_format_says_what_it_found_and_what_it_does(tmp_path: Path) -> None:
    """--format on a folder of another agent's memory names both, and keeps every file."""
    root = tmp_path / "memory"
    files = claude_folder_on_master(root)
    result = ok(root, "init", str(root), "--format", "dreamgit", now=T0)
    assert result.stdout.startswith(
        "found Claude Code auto memory (4 topic files and a MEMORY.md index); "
        "--format dreamgit asked for dreamgit (memories/<topic>/<slug>.md) instead: "
        "using dreamgit (memories/<topic>/<slug>.md) on branch master; "
        "5 file(s) kept byte for byte\n"
    )
    assert {rel: (root / rel).read_bytes() for rel in files} == files


def test_a_credential_in_an_adopted_file_is_redacted_in_git_and_kept_on_disk(
    tmp_path: Path,
) -> None:
    """The secrets policy holds for adoption: the commit redacts, the file stays, init says so."""
    root = tmp_path / "memory"
    token = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    data = claude_file("deploy", "deploy token", "project", f"The deploy token is {token}.")
    root.mkdir()
    (root / "deploy.md").write_bytes(data)
    result = ok(root, "init", str(root), now=T0)
    assert (
        "; 0 file(s) kept byte for byte, 1 committed with its credential replaced "
        "(deploy.md: [REDACTED:github-token]); the file on disk keeps it until dreamgit's "
        "next write redacts it there too\n"
    ) in result.stdout
    assert result.stdout.endswith(f"\ninitialised memory repository in {root}\n")
    assert (root / "deploy.md").read_bytes() == data
    assert token not in git(root, "show", "HEAD:deploy.md")
    ok(root, "log", "a session", now=T0)  # the next write: the file on disk is redacted too
    assert token not in (root / "deploy.md").read_text(encoding="utf-8")


def test_team_memories_merge_only_among_themselves(tmp_path: Path) -> None:
    """A personal file restating a team file is not merged into it; team files stay high."""
    root = tmp_path / "memory"
    body = "Every API error body follows RFC 7807 with a type URL."
    files = {
        "team/api-errors.md": claude_file("api-errors", "RFC 7807", "reference", body),
        "api-errors-mine.md": claude_file("api-errors-mine", "RFC 7807", "reference", body),
    }
    root.mkdir()
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    ok(root, "init", str(root), now=T0)
    listed = {m["path"]: m for m in json.loads(ok(root, "memories", "--json").stdout)}
    assert (listed["team/api-errors.md"]["priority"], listed["team/api-errors.md"]["topic"]) == (
        "high",
        "team-reference",
    )
    ok(root, "run", "--force")
    assert {rel: (root / rel).read_bytes() for rel in files} == files


def test_a_file_without_front_matter_is_reported_in_full_with_its_hint(tmp_path: Path) -> None:
    """The whole message and the hint: what a Claude Code memory file starts with."""
    root, _ = adopted(tmp_path)
    (root / "loose.md").write_text("Just some text.\n", encoding="utf-8")
    git(root, "add", "loose.md")
    git(root, "commit", "-q", "-m", "loose note")
    result = run(root, "run", "--force")
    assert result.exit_code == 1
    assert (
        "error: loose.md:1: has no front matter (Claude Code memory files start with ---, then"
        " name, description and type)\n"
        "hint: add the front matter, or move the file out of the memory folder\n"
    ) in result.stderr


def test_init_in_an_empty_claude_code_memory_folder_uses_claude_codes_format(
    tmp_path: Path,
) -> None:
    """~/.claude/projects/<p>/memory/ with nothing in it yet is still Claude Code's."""
    root = tmp_path / "home" / ".claude" / "projects" / "-home-ada-app" / "memory"
    root.mkdir(parents=True)
    result = ok(root, "init", str(root), now=T0)
    assert result.stdout.startswith(
        "found a Claude Code auto memory folder (empty): using Claude Code auto memory"
    )
    assert "format: claude-code\n" in (root / ".dreamgit" / "config.yaml").read_text()
    assert not (root / "memories").exists() and not (root / "MEMORY.md").exists()
    ok(root, "add", "Uses pnpm for every JavaScript project.", "--topic", "project")
    names = sorted(p.name for p in root.glob("*.md"))
    assert names == ["MEMORY.md", "uses-pnpm-every-javascript-project.md"]
    assert "(uses-pnpm-every-javascript-project.md)" in (root / "MEMORY.md").read_text()


def test_init_says_what_it_will_do_to_each_file(tmp_path: Path) -> None:
    """One line per role, naming the files: the index, the topic files."""
    root = tmp_path / "memory"
    claude_folder_on_master(root)
    lines = ok(root, "init", str(root), now=T0).stdout.splitlines()
    assert lines[1:3] == [
        "  MEMORY.md: the index Claude Code loads: your lines kept as written, a dream adds "
        "its own in a fenced block and drops lines to files it removes",
        "  api-errors.md, pnpm-only.md, prefer-pnpm.md and 1 more: a memory: kept byte for "
        "byte until a dream merges, supersedes or prunes it (history keeps every version)",
    ]
