"""Every message the formats, export and import give a person, pinned."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamgit.errors import ConfigError, MemoryFileError, UserError
from dreamgit.store.formats import get_format
from dreamgit.store.formats.claude_sessions import read_claude_sessions
from dreamgit.store.formats.hermes import HermesFormat
from dreamgit.store.formats.sidecar import read_sidecar
from dreamgit.store.transfer import read_export
from formatkit import LATER, T0
from test_format_claude import ok, run


def test_an_unknown_format_in_the_config_names_the_known_ones() -> None:
    """format: something-else is a ConfigError with the list of formats."""
    with pytest.raises(ConfigError) as caught:
        get_format({"format": "obsidian"})
    assert caught.value.render() == (
        ".dreamgit/config.yaml: format 'obsidian' is not one dreamgit knows\n"
        "hint: use one of dreamgit, claude-code, hermes, openclaw"
    )


def test_a_bad_hermes_budget_is_a_config_error() -> None:
    """hermes.memory_char_limit must be a positive number."""
    with pytest.raises(ConfigError) as caught:
        HermesFormat.from_config({"hermes": {"memory_char_limit": 0}})
    assert caught.value.message == (
        ".dreamgit/config.yaml: hermes.memory_char_limit must be a positive number of "
        "characters, not 0"
    )


def test_a_broken_sidecar_names_itself() -> None:
    """The sidecar is JSON; anything else says so, with a hint."""
    with pytest.raises(MemoryFileError) as caught:
        read_sidecar("{nope", path=".dreamgit/hermes.json")
    assert caught.value.render().startswith(".dreamgit/hermes.json: is not valid JSON: ")
    assert caught.value.hint == "restore it from git"


def test_log_from_a_missing_folder_says_what_to_give(tmp_path: Path) -> None:
    """The folder of Claude Code's session files must exist."""
    with pytest.raises(UserError) as caught:
        read_claude_sessions(tmp_path / "nope")
    assert caught.value.render() == (
        f"{tmp_path / 'nope'}: no such directory\n"
        "hint: give the folder of Claude Code's session files, e.g. ~/.claude/projects/<project>/"
    )


def test_log_from_without_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    """--from claude-code needs its folder."""
    root = tmp_path / "mem"
    ok(root, "init", str(root), now=T0)
    result = run(root, "log", "--from", "claude-code")
    assert result.exit_code == 2
    assert "--from claude-code needs the folder of its session files" in result.stderr


def test_restore_of_an_id_never_removed_in_another_format_says_so(tmp_path: Path) -> None:
    """restore works in every format; an id history never removed gets the same answer."""
    root = tmp_path / "mem"
    root.mkdir()
    (root / "MEMORY.md").write_text("One fact\n§\nAnother fact\n", encoding="utf-8")
    ok(root, "init", str(root), now=T0)
    result = run(root, "restore", "m-aaaaaaaa")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: memory m-aaaaaaaa was never in this repository's history\n"
        "hint: check the id with `git log --grep` or `dreamgit history`\n"
    )


def test_export_messages(tmp_path: Path) -> None:
    """A folder format needs --out; --out must be empty; success says what was written."""
    root = tmp_path / "mem"
    ok(root, "init", str(root), now=T0)
    ok(root, "add", "The build uses make.", "--topic", "work", now=T0)
    folder = run(root, "export", "--format", "hermes")
    assert folder.exit_code == 2
    assert "--format hermes writes a folder: give --out DIR" in folder.stderr
    out = tmp_path / "out"
    done = ok(root, "export", "--format", "claude-code", "--out", str(out), now=LATER)
    assert done.stdout == f"exported 1 memories as claude-code to {out}\n"
    again = run(root, "export", "--format", "json", "--out", str(out), now=LATER)
    assert again.exit_code == 1
    assert again.stderr == f"error: {out} is not empty\nhint: export into a new or empty folder\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "m-1"}', "is a list of memories"),
        ('[{"id": "m-1", "created": "2026-11-10T09:00:00Z"}]', "item 1: memory has no 'text'"),
        (
            '[{"id": "m-1", "text": "x", "created": "2026-11-10T09:00:00Z", "priority": "top"}]',
            "item 1: priority 'top' is not one of ephemeral, low, normal, high, core",
        ),
    ],
)
def test_a_bad_json_export_names_the_item(tmp_path: Path, content: str, message: str) -> None:
    """An import names the file and the item that cannot be read."""
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_export("json", path, now=LATER)
    assert message in caught.value.message
    assert caught.value.message.startswith(str(path))


def test_importing_a_folder_that_is_not_there_says_so(tmp_path: Path) -> None:
    """--from claude-code PATH must be a folder."""
    with pytest.raises(UserError) as caught:
        read_export("claude-code", tmp_path / "nope", now=LATER)
    assert caught.value.render() == (
        f"{tmp_path / 'nope'}: no such directory\nhint: give the folder of the claude-code memory"
    )
