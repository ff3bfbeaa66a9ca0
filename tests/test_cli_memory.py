"""The everyday commands through click's CliRunner: output, JSON shapes, exit codes, errors."""

from __future__ import annotations

import json
import os
import pty
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from gitcheck import NOW_TEXT, fsck, git, subjects

MEMORY_KEYS = {"id", "topic", "priority", "key", "tags", "created", "updated", "path", "text"}
STATUS_KEYS = {"memories", "topics", "sessions", "pending_sessions", "last_run", "due", "reason"}


def run(repo: Path | None, *args: str, input: str | bytes | None = None) -> Result:
    """Invoke dreamgit with a fixed --now (and --repo when given)."""
    prefix = ["--now", NOW_TEXT] + (["--repo", str(repo)] if repo is not None else [])
    return CliRunner().invoke(cli, [*prefix, *args], input=input)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A memory repository made by `dreamgit init`."""
    path = tmp_path / "mem"
    result = run(None, "init", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"initialised memory repository in {path}\n"
    return path


def _tip(path: Path) -> str:
    return git(path, "rev-parse", "--verify", "-q", "main", check=False).strip()


def test_version() -> None:
    """--version prints the package version."""
    from dreamgit.version import __version__

    result = CliRunner().invoke(cli, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"dreamgit, version {__version__}\n")


def test_init_bare(tmp_path: Path) -> None:
    """init --bare makes a bare repository with one commit."""
    result = run(None, "init", "--bare", str(tmp_path / "m.git"))
    assert result.exit_code == 0, result.output
    assert git(tmp_path / "m.git", "rev-parse", "--is-bare-repository").strip() == "true"
    assert subjects(tmp_path / "m.git") == ["init: dreamgit memory repository"]


def test_init_uses_repo_option_when_no_path(tmp_path: Path) -> None:
    """Without PATH, init creates the repository at --repo."""
    assert run(tmp_path / "here", "init").exit_code == 0
    assert (tmp_path / "here/.dreamgit/config.yaml").is_file()


def test_init_twice_is_exit_1(repo: Path) -> None:
    """A second init is a user error with a hint."""
    result = run(None, "init", str(repo))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {repo} is already a dreamgit memory repository\n"
        "hint: use it as it is; `dreamgit status` shows what it holds\n"
    )


def test_log_and_add_print_only_the_new_id(repo: Path) -> None:
    """log and add print the new id alone on stdout, so scripts can capture it."""
    log = run(repo, "log", "User prefers pytest.", "--summary", "testing", "--tag", "python")
    assert log.exit_code == 0, log.output
    session_id = log.stdout.strip()
    assert log.stdout == f"{session_id}\n" and session_id.startswith("s-20261122-")
    add = run(repo, "add", "Prefers pytest", "--topic", "prefs", "--priority", "high")
    assert add.exit_code == 0, add.output
    memory_id = add.stdout.strip()
    assert add.stdout == f"{memory_id}\n" and memory_id.startswith("m-")
    assert subjects(repo)[:2] == [
        f"add: {memory_id} prefs/prefers-pytest",
        f"log: session {session_id}",
    ]
    fsck(repo)


def test_log_reads_stdin_and_file(repo: Path, tmp_path: Path) -> None:
    """A transcript comes from stdin when no TEXT, or from --file."""
    stdin = run(repo, "log", input="From stdin.\n")
    assert stdin.exit_code == 0, stdin.output
    file = tmp_path / "t.md"
    file.write_text("From a file.\n")
    from_file = run(repo, "log", "--file", str(file))
    assert from_file.exit_code == 0, from_file.output
    texts = [git(repo, "show", f"main:{p}") for p in git(repo, "ls-files", "sessions").split()]
    assert sorted(t.split("---\n", 2)[2] for t in texts) == ["From a file.\n", "From stdin.\n"]


def test_memories_json_shape(repo: Path) -> None:
    """memories --json is a list of objects with the documented keys."""
    add = run(repo, "add", "Uses uv", "--topic", "tools", "--tag", "python", "--key", "py.env")
    result = run(repo, "memories", "--json")
    assert result.exit_code == 0, result.output
    (item,) = json.loads(result.stdout)
    assert item.keys() >= MEMORY_KEYS
    assert item["id"] == add.stdout.strip()
    assert (item["topic"], item["priority"], item["key"], item["tags"]) == (
        "tools",
        "normal",
        "py.env",
        ["python"],
    )
    assert (item["created"], item["updated"]) == (NOW_TEXT, NOW_TEXT)
    assert (item["path"], item["text"]) == ("memories/tools/uses-uv.md", "Uses uv")


def test_memories_text_and_topic_filter(repo: Path) -> None:
    """memories lists one line per memory; --topic keeps one topic."""
    a = run(repo, "add", "Fact in a", "--topic", "a").stdout.strip()
    run(repo, "add", "Fact in b", "--topic", "b")
    result = run(repo, "memories", "--topic", "a")
    assert result.stdout == f"{a}  normal    a/fact  Fact in a\n"
    assert len(run(repo, "memories").stdout.splitlines()) == 2


def test_show_prints_the_file_or_json(repo: Path) -> None:
    """show prints the memory file as stored; --json the memory object."""
    ident = run(repo, "add", "Likes tea", "--topic", "food").stdout.strip()
    text = run(repo, "show", ident)
    assert text.exit_code == 0
    assert text.stdout == git(repo, "show", "main:memories/food/likes-tea.md")
    as_json = json.loads(run(repo, "show", ident, "--json").stdout)
    assert as_json.keys() >= MEMORY_KEYS and as_json["id"] == ident


def test_topics_counts(repo: Path) -> None:
    """topics lists each topic with its number of memories, as text or JSON."""
    for text, topic in [("x one", "x"), ("x two", "x"), ("y one", "y")]:
        run(repo, "add", text, "--topic", topic)
    assert run(repo, "topics").stdout == "x\t2\ny\t1\n"
    assert json.loads(run(repo, "topics", "--json").stdout) == [
        {"topic": "x", "memories": 2},
        {"topic": "y", "memories": 1},
    ]


def test_forget_and_restore(repo: Path) -> None:
    """forget and restore each report what they did in one commit."""
    ident = run(repo, "add", "Likes tea", "--topic", "food").stdout.strip()
    forgot = run(repo, "forget", ident)
    assert (forgot.exit_code, forgot.stdout) == (
        0,
        f"forgot {ident} (memories/food/likes-tea.md)\n",
    )
    assert run(repo, "memories").stdout == ""
    restored = run(repo, "restore", ident)
    assert restored.exit_code == 0
    assert restored.stdout == f"restored {ident} (memories/food/likes-tea.md)\n"
    assert [s.split(":")[0] for s in subjects(repo)[:3]] == ["restore", "forget", "add"]


def test_status_json_shape_and_text(repo: Path) -> None:
    """status --json has the documented keys; the text form says the same things."""
    run(repo, "log", "one session")
    run(repo, "add", "A fact", "--topic", "t")
    result = run(repo, "status", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report.keys() >= STATUS_KEYS
    assert (report["memories"], report["topics"], report["sessions"]) == (1, ["t"], 1)
    assert (report["pending_sessions"], report["last_run"]) == (1, None)
    assert isinstance(report["due"], bool) and report["reason"]
    text = run(repo, "status").stdout
    assert text.startswith("memories:         1 in 1 topic(s)\nsessions:         1 (1 pending)\n")
    assert "last dream:       never\n" in text


def test_status_works_on_a_bare_repository(tmp_path: Path) -> None:
    """Bare repositories report the same status."""
    run(None, "init", "--bare", str(tmp_path / "m.git"))
    run(tmp_path / "m.git", "add", "A fact", "--topic", "t")
    report = json.loads(run(tmp_path / "m.git", "status", "--json").stdout)
    assert report["memories"] == 1


# -- errors: exit codes and messages ---------------------------------------------------


def _state(repo: Path | None) -> str | None:
    """Every ref with its commit, and the work tree's status: what must not change."""
    if repo is None or not (repo / ".git").exists():
        return None
    return git(repo, "for-each-ref") + git(repo, "status", "--porcelain", "--untracked=all")


def _fails(repo: Path | None, *args: str, input: str | bytes | None = None) -> str:
    """Run a command that must fail as a user error; the repository must be unchanged."""
    before = _state(repo)
    result = run(repo, *args, input=input)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert _state(repo) == before
    return result.stderr


def test_not_a_git_repository(tmp_path: Path) -> None:
    """Every reading and writing command on a plain folder says so and how to fix it."""
    expected = (
        f"error: {tmp_path} is not a git repository\n"
        f"hint: create a memory repository with `dreamgit init {tmp_path}`, "
        "or pass --repo with the right path\n"
    )
    for args in (["status"], ["memories"], ["add", "x", "--topic", "t"], ["log", "x"]):
        assert _fails(tmp_path, *args) == expected


def test_missing_repository_directory(tmp_path: Path) -> None:
    """A --repo that does not exist is named, with init as the fix."""
    assert _fails(tmp_path / "nope", "status") == (
        f"error: {tmp_path / 'nope'}: no such directory\n"
        f"hint: create one with `dreamgit init {tmp_path / 'nope'}`\n"
    )


def test_git_repository_that_is_not_a_dreamgit_one(tmp_path: Path) -> None:
    """A plain git repository is recognised and the user is told to run init."""
    git(tmp_path, "init", "-q", "-b", "main")
    for args in (["status"], ["memories"], ["log", "x"]):
        assert _fails(tmp_path, *args) == (
            f"error: {tmp_path} is a git repository but not a dreamgit memory repository "
            "(no .dreamgit/config.yaml on main)\n"
            f"hint: run `dreamgit init {tmp_path}` first\n"
        )


@pytest.mark.parametrize("topic", ["../x", "A B", ".hidden", ""])
def test_unsafe_topic(repo: Path, topic: str) -> None:
    """Topics that could escape memories/ are refused with the naming rule."""
    assert _fails(repo, "add", "text", "--topic", topic) == (
        f"error: topic {topic!r} is not allowed\n"
        "hint: a topic is 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter "
        "or digit (no '/', '.', spaces or capitals)\n"
    )


def test_empty_session_from_stdin(repo: Path) -> None:
    """An empty transcript is refused with what to do."""
    assert _fails(repo, "log", input="  \n") == (
        "error: stdin: session is empty\nhint: log a transcript with some text\n"
    )
    assert _fails(repo, "log", "") == (
        "error: TEXT: session is empty\nhint: log a transcript with some text\n"
    )


def test_five_megabyte_session(repo: Path, tmp_path: Path) -> None:
    """A 5 MB transcript is refused with its size and the limit."""
    big = tmp_path / "big.md"
    big.write_bytes(b"word " * (1024 * 1024))
    assert _fails(repo, "log", "--file", str(big)) == (
        f"error: {big}: session is 5.0 MB, more than the 2 MB a session may hold\n"
        "hint: split the transcript into several sessions, or log a summary of it\n"
    )


def test_non_utf8_session_file(repo: Path, tmp_path: Path) -> None:
    """Latin-1 bytes in --file are reported at their line and offset."""
    file = tmp_path / "latin1.md"
    file.write_bytes(b"line one\ncaf\xe9\n")
    assert _fails(repo, "log", "--file", str(file)) == (
        f"error: {file}:2: session is not UTF-8 text (bad byte 0xe9 at offset 12)\n"
        "hint: convert it to UTF-8 first, e.g. with iconv\n"
    )


def test_binary_session_file(repo: Path, tmp_path: Path) -> None:
    """Binary data is not a transcript."""
    file = tmp_path / "x.bin"
    file.write_bytes(b"\x00\x01\x02")
    assert _fails(repo, "log", "--file", str(file)) == (
        f"error: {file}: session is binary data, not text\nhint: log text only\n"
    )


def test_unreadable_session_file(repo: Path, tmp_path: Path) -> None:
    """A --file that cannot be read names the file and the reason."""
    assert _fails(repo, "log", "--file", str(tmp_path / "missing.md")) == (
        f"error: {tmp_path / 'missing.md'}: cannot read: No such file or directory\n"
    )


def test_bad_now(repo: Path) -> None:
    """--now that is not ISO-8601 is a user error with an example."""
    result = CliRunner().invoke(cli, ["--repo", str(repo), "--now", "yesterday", "status"])
    assert result.exit_code == 1
    assert result.stderr == (
        "error: --now: 'yesterday' is not an ISO-8601 time\n"
        "hint: write it like 2026-11-22T03:00:00Z\n"
    )


def test_unknown_ids(repo: Path) -> None:
    """show, forget and restore of unknown ids are user errors."""
    assert _fails(repo, "show", "m-nothere").startswith("error: no active memory with id m-nothere")
    assert _fails(repo, "forget", "m-nothere") == (
        "error: no active memory with id m-nothere\nhint: list ids with `dreamgit memories`\n"
    )
    assert _fails(repo, "restore", "m-nothere").startswith(
        "error: memory m-nothere was never in this repository's history"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["add", "text"],
        ["add", "text", "--topic", "t", "--priority", "urgent"],
        ["log", "text", "--file", "x.md"],
        ["forget"],
        ["nosuchcommand"],
        ["memories", "--bogus"],
    ],
)
def test_usage_errors_exit_2(repo: Path, args: list[str]) -> None:
    """Missing or wrong arguments are usage errors (exit 2) and change nothing."""
    tip = _tip(repo)
    result = run(repo, *args)
    assert result.exit_code == 2, result.output
    assert "Usage: " in result.stderr and "Error: " in result.stderr
    assert _tip(repo) == tip


def test_broken_memory_file_is_a_warning_and_the_rest_are_listed(repo: Path) -> None:
    """memories warns about a broken file with file:line and still lists the others."""
    good = run(repo, "add", "A good fact", "--topic", "t").stdout.strip()
    broken = repo / "memories/t/broken.md"
    broken.write_text("---\nname: x\ntags: [a, b\n---\nbody\n")
    git(repo, "add", "memories/t/broken.md")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hand")
    tip = _tip(repo)
    result = run(repo, "memories")
    assert result.exit_code == 0
    assert result.stdout == f"{good}  normal    t/good-fact  A good fact\n"
    assert result.stderr == (
        "warning: memories/t/broken.md:4: front matter is not valid YAML: "
        "did not find expected ',' or ']'\n"
        "hint: fix the YAML between the --- lines (or restore the file with `git checkout`)\n"
    )
    assert [m["id"] for m in json.loads(run(repo, "memories", "--json").stdout)] == [good]
    assert _tip(repo) == tip


def _git_commit(repo: Path, message: str) -> None:
    """Commit everything in the work tree with git itself, as a person would."""
    who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), *who, "commit", "-qm", message], check=True)


def test_binary_file_under_memories_is_a_warning(repo: Path) -> None:
    """A binary file committed under memories/ is reported and skipped."""
    (repo / "memories/img").mkdir(parents=True)
    (repo / "memories/img/photo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    added = run(repo, "add", "A fact", "--topic", "t")  # leaves the file out: it does not read
    assert added.stderr == (
        "warning: memories/img/photo.md: is a binary file, not Markdown text; left "
        "uncommitted, as written, until it reads\n"
        "hint: move it out of memories/ (memories are Markdown files)\n"
    )
    _git_commit(repo, "the photo, by hand")
    tip = _tip(repo)
    result = run(repo, "memories")
    assert result.exit_code == 0
    assert result.stderr == (
        "warning: memories/img/photo.md: is a binary file, not Markdown text\n"
        "hint: move it out of memories/ (memories are Markdown files)\n"
    )
    assert len(result.stdout.splitlines()) == 1
    assert _tip(repo) == tip


def test_duplicate_ids_and_unknown_priority_are_warnings(repo: Path) -> None:
    """Two files with one id, and an unknown priority, are reported with what to do."""
    ident = run(repo, "add", "Original", "--topic", "a").stdout.strip()
    original = (repo / "memories/a/original.md").read_text()
    (repo / "memories/b").mkdir()
    (repo / "memories/b/copy.md").write_text(original)
    (repo / "memories/b/odd.md").write_text("---\ndream:\n  priority: urgent\n---\nodd\n")
    assert "left uncommitted" in run(repo, "log", "leaves those out").stderr
    _git_commit(repo, "those two, by hand")
    result = run(repo, "memories", "--json")
    assert [m["id"] for m in json.loads(result.stdout)] == [ident]
    assert result.stderr == (
        f"warning: memories/b/copy.md: has the same id {ident} as memories/a/original.md\n"
        "hint: give one of them a new id, or merge them\n"
        "warning: memories/b/odd.md:3: dream.priority: 'urgent' is not a priority\n"
        "hint: use one of ephemeral, low, normal, high, core\n"
    )


def test_file_without_dream_block_is_listed_with_defaults(repo: Path) -> None:
    """A Claude-style memory without `dream:` lists with an id from its path, priority normal."""
    (repo / "memories/prefs").mkdir(parents=True)
    (repo / "memories/prefs/tabs.md").write_text(
        "---\nname: tabs\ndescription: Uses tabs\nmetadata:\n  type: user\n---\nUses tabs.\n"
    )
    run(repo, "log", "commit it")
    (item,) = json.loads(run(repo, "memories", "--json").stdout)
    assert (item["priority"], item["text"], item["created"]) == ("normal", "Uses tabs.", NOW_TEXT)
    assert item["id"].startswith("m-") and item["path"] == "memories/prefs/tabs.md"


def test_internal_error_is_exit_3_with_a_crash_log(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected exception prints a crash log path and exits 3; --debug re-raises it."""

    def boom(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("dreamgit.store.operations.log_session", boom)
    result = run(repo, "log", "text")
    assert result.exit_code == 3
    first, second = result.stderr.splitlines()
    assert first == "internal error: RuntimeError('boom')"
    log = Path(second.removeprefix("crash log: "))
    body = log.read_text()
    assert "dreamgit 0." in body and "pygit2 " in body and "RuntimeError: boom" in body
    debug = CliRunner().invoke(cli, ["--debug", "--repo", str(repo), "log", "text"])
    assert isinstance(debug.exception, RuntimeError)


def test_demo_builds_a_sound_repository(tmp_path: Path) -> None:
    """demo creates a repository at the given path with sessions, memories and history."""
    result = CliRunner().invoke(cli, ["demo", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Demo memory repository: {tmp_path / 'demo'}\n")
    report = json.loads(run(tmp_path / "demo", "status", "--json").stdout)
    assert report["memories"] > 0 and report["sessions"] > 0
    assert subjects(tmp_path / "demo")[-1] == "init: dreamgit memory repository"
    fsck(tmp_path / "demo")


def test_same_commands_with_same_now_give_identical_commits(tmp_path: Path) -> None:
    """The same CLI commands at the same --now in two fresh repositories give the same ids."""
    logs = []
    for name in ("one", "two"):
        path = tmp_path / name
        assert run(None, "init", str(path)).exit_code == 0
        run(path, "log", "Switched from Flask to FastAPI.")
        ident = run(path, "add", "Uses FastAPI", "--topic", "stack").stdout.strip()
        run(path, "forget", ident)
        run(path, "restore", ident)
        logs.append(git(path, "log", "--format=%H %T", "main"))
    assert logs[0] == logs[1] and len(logs[0].splitlines()) == 5


# -- --json on every reporting command, status's warnings ------------------------------


def test_add_log_forget_restore_report_json(repo: Path) -> None:
    """add, log, forget and restore print JSON with --json (ids and paths a script needs)."""
    added = json.loads(run(repo, "add", "Prefers tea", "--topic", "prefs", "--json").stdout)
    assert added.keys() >= MEMORY_KEYS and added["text"] == "Prefers tea"
    logged = json.loads(run(repo, "log", "User: hello there", "--json").stdout)
    assert logged["id"].startswith("s-20261122-") and logged["path"].startswith("sessions/")
    assert logged["chars"] == len("User: hello there")
    forgot = json.loads(run(repo, "forget", added["id"], "--json").stdout)
    assert forgot == [{"id": added["id"], "path": added["path"]}]
    restored = json.loads(run(repo, "restore", added["id"], "--json").stdout)
    assert (restored["id"], restored["path"]) == (added["id"], added["path"])


def test_init_json_and_github_on_an_existing_repository(repo: Path) -> None:
    """init --github adds the workflow to an existing memory repository, once; --json says so."""
    first = run(None, "init", str(repo), "--github")
    assert (first.exit_code, first.stdout) == (
        0,
        f"{repo} is already a memory repository\n.github/workflows/dream.yml: added\n",
    )
    assert subjects(repo)[0] == "add .github/workflows/dream.yml: scheduled dreams as pull requests"
    assert (repo / ".github/workflows/dream.yml").is_file()
    again = json.loads(run(None, "init", str(repo), "--github", "--json").stdout)
    assert again == {
        "path": str(repo),
        "created": False,
        "workflow": "already there",
        "commit": None,
    }
    assert len(subjects(repo)) == 2


def test_init_github_never_overwrites_an_edited_workflow(repo: Path) -> None:
    """A workflow someone changed is left alone, and the error says so."""
    assert run(None, "init", str(repo), "--github").exit_code == 0
    (repo / ".github/workflows/dream.yml").write_text("name: mine\n", encoding="utf-8")
    git(repo, "-c", "user.name=Me", "-c", "user.email=me@example.com", "commit", "-qam", "mine")
    result = run(None, "init", str(repo), "--github")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: .github/workflows/dream.yml already exists and differs from dreamgit's "
        "workflow; it was left as it is\n"
        "hint: move it away and run again to get the current workflow, or edit it by hand\n",
    )
    assert (repo / ".github/workflows/dream.yml").read_text(encoding="utf-8") == "name: mine\n"


def test_init_json_for_a_new_repository(tmp_path: Path) -> None:
    """init --json names the path and that it was created."""
    report = json.loads(run(None, "init", str(tmp_path / "n"), "--json").stdout)
    assert report == {
        "path": str(tmp_path / "n"),
        "created": True,
        "workflow": None,
        "commit": None,
    }


def test_status_counts_uncommitted_memory_files_and_says_what_happens(repo: Path) -> None:
    """Memory files written by hand and not committed are named, not reported as zero."""
    folder = repo / "memories" / "notes"
    folder.mkdir(parents=True)
    for n in range(3):
        (folder / f"fact-{n}.md").write_text(f"Fact number {n}.\n", encoding="utf-8")
    report = json.loads(run(repo, "status", "--json").stdout)
    assert (report["memories"], report["uncommitted"]) == (0, {"memories": 3, "sessions": 0})
    text = run(repo, "status").stdout
    assert (
        "uncommitted:      3 memory files in the work tree, not counted here; the next dreamgit "
        "command that writes (add, log, forget, run…) commits them as agent edits\n"
    ) in text
    (folder / "fact-0.md").unlink()
    (folder / "fact-1.md").unlink()
    assert "uncommitted:      1 memory file in the work tree, not counted here; the next " in (
        run(repo, "status").stdout
    )
    assert "commits it as agent edits\n" in run(repo, "status").stdout
    run(repo, "add", "A fact", "--topic", "t")
    assert json.loads(run(repo, "status", "--json").stdout)["memories"] == 2


def test_status_with_the_last_dream_in_the_future_blames_the_clock(repo: Path) -> None:
    """A clock behind the last dream: no negative hours, a plain word about the clock."""
    for n in range(3):
        run(repo, "log", f"User: I prefer tea number {n}.")
    assert run(repo, "run").exit_code == 0
    result = CliRunner().invoke(
        cli, ["--now", "2026-11-20T00:00:00Z", "--repo", str(repo), "status"]
    )
    assert "last dream:       2026-11-22T03:00:00Z (in the future: is this machine's clock " in (
        result.stdout
    )
    assert "last dream 51.0 h in the future (is this machine's clock behind?)" in result.stdout
    assert "-51.0 h" not in result.stdout


def test_billion_laughs_memory_is_reported_and_the_rest_go_on(repo: Path) -> None:
    """A 1 KB memory of nested YAML aliases is a warning in memories, review and run; kept."""
    good = run(repo, "add", "A good fact", "--topic", "t").stdout.strip()
    laughs = "---\nname: laughs\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9)
    )
    (repo / "memories/t/laughs.md").write_text(laughs + "---\nbody\n")
    git(repo, "add", "memories/t/laughs.md")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hand")
    warning = (
        "warning: memories/t/laughs.md:4: YAML aliases (*name) are not allowed: each one"
        " repeats a value, and nested ones can make a small file expand without bound\n"
    )
    result = run(repo, "memories")
    assert result.exit_code == 0
    assert result.stdout == f"{good}  normal    t/good-fact  A good fact\n"
    assert result.stderr.startswith(warning)
    for command in ("review", "run"):
        result = run(repo, command, "--force")
        assert result.exit_code == 0, result.output
        assert warning in result.stderr
    assert (repo / "memories/t/laughs.md").read_text() == laughs + "---\nbody\n"


def _limited_memory() -> None:
    """In the child: at most 512 MB of address space, so reading input whole would fail."""
    resource.setrlimit(resource.RLIMIT_AS, (512 * 1024 * 1024, 512 * 1024 * 1024))


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_endless_input_is_refused_at_the_limit_not_read_whole(repo: Path, source: str) -> None:
    """`log --file /dev/zero` and `yes | dreamgit log` stop reading at 2 MB and say so."""
    command = [sys.executable, "-m", "dreamgit", "--repo", str(repo), "log"]
    if source == "file":
        command += ["--file", "/dev/zero"]
        feed = None
    else:
        feed = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run(
            command,
            stdin=feed.stdout if feed is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=_limited_memory,
        )
    finally:
        if feed is not None:
            feed.kill()
            feed.wait()
    name = "/dev/zero" if source == "file" else "stdin"
    assert (done.returncode, done.stderr) == (
        1,
        f"error: {name}: session is more than the 2 MB a session may hold\n"
        "hint: split the transcript into several sessions, or log a summary of it\n",
    )


def test_log_with_text_and_file_is_a_usage_error(repo: Path, tmp_path: Path) -> None:
    """TEXT and --file together are refused: which one is the transcript?"""
    file = tmp_path / "t.md"
    file.write_text("hello")
    result = run(repo, "log", "some text", "--file", str(file))
    assert result.exit_code == 2
    assert "Error: give the transcript as TEXT or --file, not both\n" in result.stderr


def test_log_from_a_terminal_without_text_is_a_usage_error(repo: Path) -> None:
    """With no TEXT, no --file and stdin a terminal, log says how to give the transcript."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "dreamgit", "--repo", str(repo), "log"],
            stdin=follower,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 2
    assert "Error: give the transcript as TEXT, --file F, or on stdin (a pipe)\n" in done.stderr


def test_memories_columns_line_up(repo: Path) -> None:
    """The text column starts at the same place on every line, whatever the slug's length."""
    run(repo, "add", "Short", "--topic", "a")
    run(repo, "add", "A much longer memory with a long slug", "--topic", "preferences")
    lines = run(repo, "memories").stdout.splitlines()
    assert len(lines) == 2
    assert (
        len({line.index("Short") if "Short" in line else line.index("A much") for line in lines})
        == 1
    )
