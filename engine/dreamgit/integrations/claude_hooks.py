"""Claude Code hooks that feed and read a memory repository, and their place in settings.json.

``dreamgit install-hooks claude-code`` writes its hooks into a project's
``.claude/settings.json`` (merged with what is there; a user's own hooks are never
touched): ``SessionStart`` runs ``dreamgit hook claude-code session-start``, whose
stdout Claude Code adds to the session's context, and ``SessionEnd`` and
``PreCompact`` run ``dreamgit hook claude-code session-end``, which logs the session
file named in the hook's JSON input (incrementally: a resumed session logs only its
new turns). With ``--recall``, ``UserPromptSubmit`` runs ``… prompt-submit``, which
adds the memories that answer the prompt within ``claude-hooks: {recall-chars: N}``
characters (nothing when none answer). Projects under ``claude-hooks: {exclude:
[...]}`` get no brief, no recall and no logging. The brief is the memory index within
a character cap; brief and recall are wrapped in the ``<!-- dreamgit:generated … -->``
marker that every session reader drops, so they are never gathered back as the user's
words. Our entries are recognised by their command, so installing twice changes
nothing and ``--uninstall`` removes only them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from dreamgit.errors import UserError

if TYPE_CHECKING:
    from datetime import datetime

    from dreamgit.store.repo import MemoryRepo

__all__ = [
    "BRIEF_CHARS",
    "RECALL_CHARS",
    "SETTINGS_PATH",
    "HookSettings",
    "Settings",
    "excluded",
    "hook_commands",
    "hook_settings",
    "install",
    "log_session",
    "logged_already",
    "recall_brief",
    "session_brief",
    "uninstall",
    "worktree_brief",
]

SETTINGS_PATH = Path(".claude") / "settings.json"
#: At most this many characters of brief go into a session's context.
BRIEF_CHARS = 2000
#: Claude Code stops a hook after this many seconds; ours never need it.
HOOK_TIMEOUT = 30
#: What every command dreamgit installs contains: how our entries are found again.
_SIGNATURE = " hook claude-code "
#: Which Claude Code event runs which of our hooks.
_EVENTS = {
    "SessionStart": "session-start",
    "SessionEnd": "session-end",
    "PreCompact": "session-end",
}
#: The hook that recalls for every prompt: installed only when asked for (``--recall``).
_RECALL_EVENT = {"UserPromptSubmit": "prompt-submit"}
#: At most this many characters of recalled memory go with a prompt, unless configured.
RECALL_CHARS = 1200
#: The configuration section these hooks read (``hooks:`` is the git hooks' setting).
_SECTION = "claude-hooks"
_OPEN = "<!-- dreamgit:generated session brief — memory dreamgit keeps; never gathered -->"
_RECALL_OPEN = "<!-- dreamgit:generated recalled memories — dreamgit's memory; never gathered -->"
_CLOSE = "<!-- /dreamgit:generated -->"


def hook_commands(program: str, repo: Path, *, recall: bool = False) -> dict[str, str]:
    """The shell command each Claude Code event runs, by event name."""
    import shlex  # only install-hooks asks: not at every hook's start

    base = f"{shlex.quote(program)} --repo {shlex.quote(str(repo))}{_SIGNATURE}"
    events = {**_EVENTS, **_RECALL_EVENT} if recall else _EVENTS
    return {event: base + step for event, step in events.items()}


class HookSettings(NamedTuple):
    """What ``claude-hooks:`` in the configuration says: projects left out, recall's cap."""

    exclude: tuple[str, ...] = ()
    recall_chars: int = RECALL_CHARS


def hook_settings(config_text: str | None) -> HookSettings:
    """The ``claude-hooks:`` settings of a configuration text (defaults without one).

    A configuration that never names the section is not parsed at all: the hooks run
    at every session and prompt, and YAML is the dearest thing they would import.
    """
    if not config_text or _SECTION not in config_text:
        return HookSettings()
    from dreamgit.store.config import read_config

    section = read_config(config_text).get(_SECTION) or {}
    if not isinstance(section, dict):
        raise UserError(
            f".dreamgit/config.yaml: {_SECTION}: must be a mapping",
            hint="e.g. claude-hooks: {exclude: [~/work/private], recall-chars: 1200}",
        )
    exclude = section.get("exclude") or []
    chars = section.get("recall-chars", RECALL_CHARS)
    if not isinstance(exclude, list) or not all(isinstance(p, str) for p in exclude):
        raise UserError(
            f".dreamgit/config.yaml: {_SECTION}.exclude: must be a list of paths or globs",
            hint="e.g. exclude: [~/work/private, /srv/*/secret]",
        )
    if isinstance(chars, bool) or not isinstance(chars, int) or chars < 1:
        raise UserError(
            f".dreamgit/config.yaml: {_SECTION}.recall-chars: must be a whole number above 0,"
            f" not {chars!r}",
            hint="e.g. recall-chars: 1200",
        )
    return HookSettings(tuple(exclude), chars)


def excluded(project: str | None, patterns: tuple[str, ...]) -> bool:
    """Whether the project folder is one of ``patterns`` or inside one (paths or globs)."""
    if not project or not patterns:
        return False
    import fnmatch  # only where exclusions are set

    folder = Path(project).expanduser().resolve()
    for pattern in patterns:
        wanted = os.path.expanduser(pattern)
        base = Path(wanted).resolve() if not any(c in wanted for c in "*?[") else None
        if base is not None and (folder == base or base in folder.parents):
            return True
        if base is None and any(
            fnmatch.fnmatchcase(str(p), wanted) for p in (folder, *folder.parents)
        ):
            return True
    return False


class Settings(NamedTuple):
    """A settings file after a change: its new text, and whether that differs from disk."""

    path: Path
    text: str
    changed: bool


def install(project: Path, commands: Mapping[str, str]) -> Settings:
    """``settings.json`` with our hooks in it (replacing earlier ones of ours), not written."""
    path = project / SETTINGS_PATH
    settings, before = _read(path)
    hooks = _without_ours(settings)
    for event, command in commands.items():
        group = {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT}]}
        hooks.setdefault(event, []).append(group)
    settings["hooks"] = hooks
    return _result(path, settings, before)


def uninstall(project: Path) -> Settings:
    """``settings.json`` without our hooks (the user's stay), not written."""
    path = project / SETTINGS_PATH
    settings, before = _read(path)
    if "hooks" in settings:
        hooks = _without_ours(settings)
        if hooks:
            settings["hooks"] = hooks
        else:
            del settings["hooks"]
    return _result(path, settings, before)


def write(result: Settings) -> None:
    """Write a changed settings file whole (a temporary file renamed over it)."""
    if not result.changed:
        return
    result.path.parent.mkdir(parents=True, exist_ok=True)
    temporary = result.path.with_name(f".{result.path.name}.dreamgit-{os.getpid()}")
    temporary.write_text(result.text, encoding="utf-8")
    os.replace(temporary, result.path)


def _read(path: Path) -> tuple[dict[str, Any], str | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None
    try:
        settings = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); left as it was",
            hint="fix the file (Claude Code would not read it either), then install again",
        ) from None
    if not isinstance(settings, dict) or not isinstance(settings.get("hooks", {}), dict):
        raise UserError(
            f"{path}: the settings (and their 'hooks') must be JSON objects; left as it was",
            hint="fix the file, then install again",
        )
    return settings, text


def _ours(entry: object) -> bool:
    return isinstance(entry, dict) and _SIGNATURE in str(entry.get("command", ""))


def _without_ours(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``hooks`` object with every entry of ours removed, and groups left empty by that."""
    kept: dict[str, Any] = {}
    for event, groups in dict(settings.get("hooks") or {}).items():
        if not isinstance(groups, list):
            kept[event] = groups  # not ours to judge: Claude Code reports it
            continue
        left = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(_ours(h) for h in inner):
                left.append(group)
                continue
            rest = [h for h in inner if not _ours(h)]
            if rest:
                left.append({**group, "hooks": rest})
        if left:
            kept[event] = left
    return kept


def _result(path: Path, settings: dict[str, Any], before: str | None) -> Settings:
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    if before is not None and json.loads(before or "{}") == settings:
        return Settings(path, before, False)
    return Settings(path, text, text != before)


def session_brief(repo: MemoryRepo, *, chars: int = BRIEF_CHARS) -> str:
    """The committed memory index as a marked brief (see :func:`brief_of`)."""
    tip = repo.tip()
    index = repo.format.index_path or "MEMORY.md"
    return brief_of(repo.read_text(index, at=tip) if tip else None, chars=chars)


def worktree_brief(folder: Path, *, chars: int = BRIEF_CHARS) -> str | None:
    """The brief from the work tree's MEMORY.md, or None where there is none to read.

    The file an agent loads is the work tree's, which dreamgit keeps up to date; reading
    it needs no git at all, so the hook at every session start stays cheap. None for a
    bare repository or a folder that is not a memory repository: ask git then.
    """
    if not (folder / ".dreamgit" / "config.yaml").is_file():
        return None
    try:
        text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return brief_of(text, chars=chars)


def brief_of(index: str | None, *, chars: int = BRIEF_CHARS) -> str:
    """An index as a marked brief of at most ``chars`` characters; "" when it lists nothing.

    Lines are kept whole, in the index's order; dreamgit's own marker lines are left
    out so the one marker around the brief is the only one (a nested closing marker
    would end it early).
    """
    lines = [
        line
        for line in (index or "").splitlines()
        if line.strip() and "dreamgit:generated" not in line
    ]
    return _marked(_OPEN, lines, chars, past_a_long_line=False)


def log_session(repo: MemoryRepo, payload: Mapping[str, Any], *, now: datetime) -> str:
    """Log the session file the hook input names (its new turns only); a line saying what."""
    # Imported here: the session-start hook, run at every session, never needs it.
    from dreamgit.store.agentlog import log_agent_path

    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise UserError("the hook input names no transcript_path; nothing logged")
    done, problems = log_agent_path(repo, "claude-code", Path(transcript).expanduser(), now=now)
    said = _logged_line(len(done.sessions), Path(transcript).name)
    if problems:  # logged what reads; the first problem names the file and line
        said += f"; {len(problems)} problem(s), first: {problems[0]}"
    return said


def logged_already(folder: Path, payload: Mapping[str, Any]) -> str | None:
    """The line :func:`log_session` would say when the session file the hook input names
    holds nothing new, found without git (``hookreads``); None when it may hold more."""
    from dreamgit.integrations.hookreads import logged_up_to_date

    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        return None
    path = Path(transcript).expanduser()
    return _logged_line(0, path.name) if logged_up_to_date(folder, path) else None


def _logged_line(parts: int, name: str) -> str:
    return f"logged {parts} session part(s) of {name}"


def recall_brief(
    folder: Path, prompt: str, *, now: datetime, chars: int, repo: Callable[[], MemoryRepo]
) -> str:
    """The memories that answer ``prompt``, marked, within ``chars``; "" when none do.

    Answered from the derived store when it holds HEAD's commit (no git opened: this
    runs at every prompt), else through ``repo()``, the repository at ``folder``.
    """
    if not prompt.strip():
        return ""
    from dreamgit.recall.cached import cached_recall
    from dreamgit.recall.query import RecallQuery

    room = _room(_RECALL_OPEN, chars)
    if room < 1:
        return ""
    ask = RecallQuery(prompt, chars=room, record=False)
    found = cached_recall(folder, ask, now=now)
    if found is None:
        from dreamgit.recall.search import recall

        found = recall(repo(), ask, now=now)
    lines = ["- " + " ".join(hit.memory.text.split()) for hit in found.hits]
    return _marked(_RECALL_OPEN, lines, chars, past_a_long_line=True)


def _room(opening: str, chars: int) -> int:
    """What ``chars`` leaves for lines between ``opening`` and the closing marker."""
    return chars - len(opening) - len(_CLOSE) - 2


def _marked(opening: str, lines: list[str], chars: int, *, past_a_long_line: bool) -> str:
    """Whole ``lines`` between ``opening`` and the closing marker, within ``chars``; ""
    when none fits. A line that does not fit ends the list, or with ``past_a_long_line``
    is passed over for the shorter ones after it (recall's hits: each stands alone; an
    index's lines are read in order)."""
    room = _room(opening, chars)
    kept: list[str] = []
    for line in lines:
        if len(line) + 1 > room:
            if past_a_long_line:
                continue
            break
        kept.append(line)
        room -= len(line) + 1
    if not kept:
        return ""
    return "\n".join([opening, *kept, _CLOSE])
