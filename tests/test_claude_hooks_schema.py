"""The settings ``install-hooks claude-code`` writes, checked against Claude Code's settings schema.

The published schema (SchemaStore's ``claude-code-settings.json``) is not shipped
here; this test holds a JSON Schema written from its documented shape for hooks: a
``hooks`` object keyed by event name, each event a list of matcher groups
(``matcher`` optional, ``hooks`` required, nothing else), each hook a command hook
(``type: command``, a non-empty ``command``, ``timeout`` a number above 0, nothing
else). The user's own settings and hooks around ours must pass it too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from clikit import RepositoryTemplates, dreamgit
from test_claude_hooks import DAY, _memory, _project, _settings

_EVENTS = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PermissionRequest",
]
_COMMAND_HOOK = {
    "type": "object",
    "additionalProperties": False,
    "required": ["type", "command"],
    "properties": {
        "type": {"const": "command"},
        "command": {"type": "string", "minLength": 1},
        "timeout": {"type": "number", "exclusiveMinimum": 0},
        "async": {"type": "boolean"},
        "statusMessage": {"type": "string"},
    },
}
_MATCHER_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["hooks"],
    "properties": {
        "matcher": {"type": "string"},
        "hooks": {"type": "array", "items": _COMMAND_HOOK},
    },
}
SETTINGS_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "hooks": {
            "type": "object",
            "additionalProperties": False,
            "properties": {event: {"type": "array", "items": _MATCHER_GROUP} for event in _EVENTS},
        }
    },
}


def _check(settings: object) -> None:
    jsonschema.Draft7Validator(SETTINGS_SCHEMA).validate(settings)


@pytest.mark.parametrize("recall", [False, True])
def test_installed_hooks_pass_the_settings_schema(
    tmp_path: Path, templates: RepositoryTemplates, recall: bool
) -> None:
    """The written settings.json, the user's hook and setting included, is schema-valid."""
    repo, project = _memory(tmp_path, templates), _project(tmp_path)
    extra = ["--recall"] if recall else []
    dreamgit(repo, DAY, "install-hooks", "claude-code", "--project", str(project), *extra)
    settings = _settings(project)
    _check(settings)
    assert ("UserPromptSubmit" in settings["hooks"]) is recall
    printed = dreamgit(repo, DAY, "install-hooks", "claude-code", "--project", str(project))
    assert printed == ""
    _check(json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8")))


def test_the_schema_refuses_what_claude_code_refuses() -> None:
    """The schema is no rubber stamp: a hook without a command or an unknown event fails."""
    bad_hook = {"hooks": {"SessionStart": [{"hooks": [{"type": "command"}]}]}}
    bad_event = {"hooks": {"SessionBegin": [{"hooks": []}]}}
    bad_timeout = {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]}
    }
    for settings in (bad_hook, bad_event, bad_timeout):
        with pytest.raises(jsonschema.ValidationError):
            _check(settings)
