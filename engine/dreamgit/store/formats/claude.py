"""Claude Code's auto memory: flat topic files with front matter, indexed by ``MEMORY.md``.

Each top-level ``*.md`` file (and ``team/*.md``) other than the index is one
memory with ``name``, ``description`` and ``type`` (``metadata.type``, or the
older top-level ``type``) front matter. dreamgit's own fields ride in the same
front matter under ``dream:`` once a dream has written the file; until then the
id comes from the path, so it is stable across runs. ``MEMORY.md`` is the index
Claude Code loads (200 lines, about 25 KB); its lines ``- [Title](file.md) — hook``
must point at files that exist. New memories are flat files of the same shape.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import replace
from datetime import datetime

from dreamgit.clock import parse_time
from dreamgit.errors import MemoryFileError, MemoryFileWarning
from dreamgit.ids import memory_id, slugify
from dreamgit.model import Memory
from dreamgit.store.formats.base import Budget, Changes, MemoryFormat, Source, Texts
from dreamgit.store.formats.reinsert import reinsert

__all__ = ["INDEX_BYTES", "INDEX_LINES", "ClaudeCodeFormat", "index_links"]

#: Claude Code loads the first 200 lines or about 25 KB of MEMORY.md, whichever comes first.
INDEX_LINES = 200
INDEX_BYTES = 25_000
INDEX = "MEMORY.md"

_MEMORY_FILE = re.compile(r"(?:team/)?[^/]+\.md\Z")
_LINK = re.compile(r"^\s*[-*+]\s*\[(?:[^\]\\\n]|\\.)*\]\((?P<target><[^>\n]*>|[^)\s]+)\)")
_NOT_MEMORY = frozenset({INDEX, "DREAMS.md", "CLAUDE.md", "README.md"})


def index_links(text: str) -> list[tuple[int, str]]:
    """Every ``- [Title](target)`` line of an index: (line number, target), local targets only."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        target = _link_target(line)
        if target is not None:
            found.append((number, target))
    return found


def _link_target(line: str) -> str | None:
    """The local file an index line links to, or None."""
    match = _LINK.match(line)
    if match is None:
        return None
    target = match["target"].strip("<>").split("#", 1)[0]
    if not target or "://" in target or target.startswith(("mailto:", "/")):
        return None
    return target.removeprefix("./")


class ClaudeCodeFormat(MemoryFormat):
    """Claude Code auto memory (``~/.claude/projects/<slug>/memory/``)."""

    name = "claude-code"
    title = "Claude Code auto memory (flat topic files + MEMORY.md index)"
    index_path = INDEX
    index_style = "claude-code"
    diary_path = ".dreamgit/DREAMS.md"
    agent_paths = ("",)
    strict = True

    def memory_path(self, path: str) -> bool:
        """Top-level ``*.md`` files and ``team/*.md``, except the index and known non-memories."""
        return bool(_MEMORY_FILE.match(path)) and path not in _NOT_MEMORY

    def role(self, path: str) -> str:
        """The index, a topic file, or a file dreamgit leaves alone."""
        if path == INDEX:
            return (
                "the index Claude Code loads: your lines kept as written, a dream adds its "
                "own in a fenced block and drops lines to files it removes"
            )
        if self.memory_path(path):
            return (
                "a memory: kept byte for byte until a dream merges, supersedes or prunes it "
                "(history keeps every version)"
            )
        return "not memory: left as it is"

    def scan(self, source: Source, *, now: datetime) -> tuple[list[Memory], list[MemoryFileError]]:
        """Read every topic file; a file without front matter is an error naming it."""
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        seen: dict[str, str] = {}
        for path, blob in sorted(source.files.items()):
            if not self.memory_path(path):
                continue
            try:
                memory = self._read(source, path, blob, now)
            except MemoryFileError as exc:
                broken.append(exc)
                continue
            if memory.id in seen:
                broken.append(
                    MemoryFileError(
                        path,
                        f"has the same id {memory.id} as {seen[memory.id]}",
                        hint="give one of them a new id under dream: in its front matter",
                    )
                )
                continue
            seen[memory.id] = path
            memories.append(memory)
        broken += self._check_index(source)
        return memories, broken

    def _read(self, source: Source, path: str, blob: str, now: datetime) -> Memory:
        record = source.record(path, blob)
        if not record.get("front_matter", True):
            raise MemoryFileError(
                path,
                "has no front matter (Claude Code memory files start with ---, then "
                "name, description and type)",
                line=1,
                hint="add the front matter, or move the file out of the memory folder",
            )
        created = parse_time(str(record["created"]), what="created") if record["created"] else now
        updated = (
            parse_time(str(record["updated"]), what="updated") if record["updated"] else created
        )
        stem = path.rsplit("/", 1)[-1].removesuffix(".md")
        kind = str(record["type"])
        topic, priority = str(record.get("topic") or kind), str(record["priority"])
        if path.startswith("team/") and record["id"] is None:
            # Shared with the whole team: merged only with team memories, and as
            # hard to prune as a high-priority memory (Claude's own dream is as careful).
            topic, priority = f"team-{kind}", "high"
        return Memory(
            id=str(record["id"] or memory_id("path", path)),
            topic=topic,
            slug=stem,
            text=str(record["text"]),
            created=created,
            updated=updated,
            name=str(record["name"]),
            description=str(record["description"]),
            type=kind,
            priority=priority,
            key=None if record["key"] is None else str(record["key"]),
            tags=tuple(record["tags"]),  # type: ignore[arg-type]  # a list of str by parsing
            sources=tuple(record["sources"]),  # type: ignore[arg-type]
            supersedes=tuple(record["supersedes"]),  # type: ignore[arg-type]
            confidence=float(record["confidence"]),  # type: ignore[arg-type]
            recalls=int(record["recalls"]),  # type: ignore[call-overload]
            file=path,
        )

    def _check_index(self, source: Source) -> list[MemoryFileError]:
        text = source.text(INDEX)
        if text is None:
            return []
        return [
            MemoryFileWarning(
                INDEX,
                f"links to {target}, which is not in the memory folder",
                line=line,
                hint=f"remove line {line} from {INDEX}, or bring {target} back "
                f"(`git log -- {target}` names the commit that removed it; "
                "`dreamgit restore ID` brings a memory back)",
            )
            for line, target in index_links(text)
            if target not in source.files
        ]

    def place(self, memory: Memory, taken: Container[str]) -> Memory:
        """A new memory goes to a flat ``<slug>.md`` no other file uses."""
        base = memory.slug or slugify(memory.text)
        slug, n = base, 1
        while f"{slug}.md" in taken or f"{slug}.md" in _NOT_MEMORY:
            n += 1
            slug = f"{base[:44]}-{n}"
        return replace(memory, slug=slug, file=f"{slug}.md")

    def forget(self, texts: Texts, memory: Memory) -> Changes:
        """The file leaves, and so do the index lines that link to it (none is left dead)."""
        changes = self.remove(texts, memory)
        index = texts.get(INDEX)
        if index is not None:
            lines = index.splitlines(keepends=True)
            kept = [ln for ln in lines if _link_target(ln) != memory.file]
            if len(kept) != len(lines):
                changes[INDEX] = "".join(kept)
        return changes

    def restore(self, texts: Texts, memory: Memory, held: Texts) -> Changes:
        """The file as it was, and its index lines back between the lines around them."""
        if texts.get(memory.file) is not None:
            raise MemoryFileError(
                memory.file,
                f"is in use by another file, so {memory.id} cannot come back under its name",
                hint=f"rename or forget that file, then restore {memory.id} again",
            )
        changes: Changes = {memory.file: held.get(memory.file)}
        old_index = held.get(INDEX)
        if old_index is None:
            return changes
        old_lines = old_index.splitlines(keepends=True)
        mine = {k for k, ln in enumerate(old_lines) if _link_target(ln) == memory.file}
        if mine:
            now_lines = (texts.get(INDEX) or "").splitlines(keepends=True)
            changes[INDEX] = "".join(reinsert(old_lines, now_lines, mine))
        return changes

    def budgets(self) -> list[Budget]:
        """The index Claude Code loads: 200 lines, about 25 KB."""
        return [Budget(INDEX, chars=INDEX_BYTES, lines=INDEX_LINES)]
