"""Memory formats: dreamgit's own layout and other agents' memory, read and written in place.

``format:`` in ``.dreamgit/config.yaml`` names the repository's format;
:func:`get_format` returns it with its settings, :func:`detect` guesses one
from the files a folder holds (``dreamgit init`` says what it found). Another
agent's format module is imported only when a repository names it (or ``detect``
looks for it): a repository in dreamgit's own layout, the one a Claude Code hook
logs into most often, loads none of them.

May import: the kernel (errors, clock, ids, model) and ``store`` modules below ``repo``
(``memoryfile``, ``frontmatter``); never ``repo`` or anything above the store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

from dreamgit.errors import ConfigError
from dreamgit.store.formats.base import Budget, MemoryFormat, Source, Texts

__all__ = [
    "FORMAT_NAMES",
    "Budget",
    "MemoryFormat",
    "Source",
    "Texts",
    "detect",
    "get_format",
]

FORMAT_NAMES: tuple[str, ...] = ("dreamgit", "claude-code", "hermes", "openclaw")

_DAILY = re.compile(r"memory/\d{4}-\d{1,2}-\d{1,2}\.md\Z")


def get_format(config: Mapping[str, Any]) -> MemoryFormat:
    """The format ``config`` names (``format:``; dreamgit's own when absent)."""
    name = config.get("format") or "dreamgit"
    if name == "dreamgit":
        return MemoryFormat()
    if name == "claude-code":
        from dreamgit.store.formats.claude import ClaudeCodeFormat

        return ClaudeCodeFormat()
    if name == "hermes":
        from dreamgit.store.formats.hermes import HermesFormat

        return HermesFormat.from_config(config)
    if name == "openclaw":
        from dreamgit.store.formats.openclaw import OpenClawFormat

        return OpenClawFormat()
    raise ConfigError(
        f".dreamgit/config.yaml: format {name!r} is not one dreamgit knows",
        hint="use one of " + ", ".join(FORMAT_NAMES),
    )


def detect(
    paths: Mapping[str, Callable[[], bytes]], folder: PurePath | None = None
) -> tuple[str, str]:
    """The format a folder's files look like, and a sentence saying what was found.

    ``paths`` maps each file (relative, ``/``-separated) to a reader of its bytes;
    ``folder`` is where they are: Claude Code's own ``~/.claude/projects/<p>/memory/``
    is its auto memory even while it is empty.
    """
    memory_md = paths["MEMORY.md"]() if "MEMORY.md" in paths else b""
    if "memories/" in {p[:9] for p in paths}:
        return "dreamgit", "found dreamgit's own layout (memories/)"
    notes = [p for p in paths if _DAILY.match(p)]
    if notes or {"AGENTS.md", "SOUL.md"} & set(paths):
        curated = " and a curated MEMORY.md" if "MEMORY.md" in paths else ""
        return "openclaw", f"found an OpenClaw workspace ({len(notes)} daily notes{curated})"
    if "USER.md" in paths or re.search(rb"(?m)^\xc2\xa7\r?$", memory_md):
        files = [p for p in ("MEMORY.md", "USER.md") if p in paths]
        return "hermes", f"found Hermes memory ({' and '.join(files)}, entries separated by §)"
    from dreamgit.store.formats.claude import ClaudeCodeFormat

    topic_files = [
        p
        for p in paths
        if ClaudeCodeFormat().memory_path(p) and paths[p]().lstrip(b"\xef\xbb\xbf")[:3] == b"---"
    ]
    index = " and a MEMORY.md index" if "MEMORY.md" in paths else ""
    if topic_files:
        return (
            "claude-code",
            f"found Claude Code auto memory ({len(topic_files)} topic files{index})",
        )
    if folder is not None and _is_claude_memory_folder(folder):
        what = f"{len(paths)} file(s){index}" if paths else "empty"
        return "claude-code", f"found a Claude Code auto memory folder ({what})"
    if paths:
        return "dreamgit", f"found {len(paths)} file(s) in no agent's memory format"
    return "dreamgit", "found an empty folder"


def _is_claude_memory_folder(folder: PurePath) -> bool:
    """``…/.claude/projects/<project>/memory``: where Claude Code keeps a project's memory."""
    parts = folder.parts
    return len(parts) >= 4 and (parts[-4], parts[-3], parts[-1]) == (
        ".claude",
        "projects",
        "memory",
    )
