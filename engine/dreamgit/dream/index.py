"""Render ``MEMORY.md``, the index an agent loads with every prompt.

One line per memory, ``- [Title](memories/topic/slug.md) — hook``, grouped under a
``## topic`` heading per topic. Which memories make it in is decided by the caller's
order alone: the list is cut to a prefix of that order so the file fits the character
budget (and Claude Code's 200-line window), and a last line says how many were left
out. Grouping is only presentation: topics appear in the order of their best memory,
so the most important topic still comes first, while an agent scanning for "what do I
know about X" finds X's memories together. The output is a pure function of its
input, byte for byte, so a dream that changes nothing rewrites nothing.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

from dreamgit.model import SESSION_NOTE, Memory, priority_rank

__all__ = [
    "GENERATED_MARKER",
    "IndexEntry",
    "IndexResult",
    "default_order",
    "fill_index",
    "index_entry",
    "index_text",
    "is_generated",
    "render_index",
]

#: First line of every file dreamgit generates; gathering never reads such files as evidence.
GENERATED_MARKER = "<!-- dreamgit:generated — rewritten by every dream; edit memories/ instead -->"
_GENERATED_PREFIX = "<!-- dreamgit:generated"

#: Claude Code reads only this many lines of MEMORY.md; past them an entry is invisible.
CLAUDE_INDEX_LINES = 200

_ELLIPSIS = "…"
_SEPARATOR = " — "
#: A hook cut shorter than this says nothing; the line then ends after the link.
_MIN_HOOK = 8
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class IndexResult:
    """The index text and which memories it lists, both in the caller's order, and how
    many it leaves out (:attr:`omitted` names them, ordered when first asked for)."""

    text: str
    included: tuple[str, ...]
    left_out: int
    _omitted: Callable[[], tuple[str, ...]] = field(repr=False, compare=False)

    @cached_property
    def omitted(self) -> tuple[str, ...]:
        """The memories left out, in the caller's order."""
        return self._omitted()


def _known(ids: tuple[str, ...]) -> Callable[[], tuple[str, ...]]:
    return lambda: ids


def default_order(memory: Memory) -> tuple[int, float, str]:
    """Sort key for "priority desc, updated desc": most durable, then most recent, first."""
    return (-priority_rank(memory.priority), -memory.updated.timestamp(), memory.id)


def is_generated(text: str) -> bool:
    """True when a file's text starts with dreamgit's generated-file marker."""
    return text.lstrip("\ufeff").startswith(_GENERATED_PREFIX)


def render_index(
    memories: Sequence[Memory],
    *,
    order: Callable[[Memory], Any],
    index_chars: int,
    index_line_chars: int,
    max_lines: int = CLAUDE_INDEX_LINES,
) -> IndexResult:
    """Render MEMORY.md for ``memories``.

    ``order`` is a sort key: memories with a smaller key come first and are the last
    to be dropped when the budget is short (ties are broken by id, so the input order
    never matters). The whole text stays within ``index_chars`` characters and
    ``max_lines`` lines, each entry within ``index_line_chars``, except when even the
    marker and the "more" line do not fit, or a link alone is longer than a line may be:
    links are never cut.
    """
    if index_chars < 1 or index_line_chars < 1 or max_lines < 1:
        raise ValueError("index budgets must be positive")

    def key(memory: Memory) -> tuple[Any, str]:
        return order(memory), memory.id

    total = len(memories)
    # Only the best ``max_lines - 1`` can be listed (each takes a line, and the marker
    # one): the first ``max_lines`` of the order (``nsmallest`` is the head of the sort)
    # are found without sorting every memory (a dream's store of 100,000 lists ~70), and
    # the list stops before their end, as it would on the whole order (``fill_index``).
    # The rest are put in order only if a caller asks which they are.
    head = heapq.nsmallest(max_lines, memories, key=key)
    lines = (index_entry(m, index_line_chars) for m in head)  # made only while they fit
    listed = fill_index(lines, total=total, index_chars=index_chars, max_lines=max_lines)
    cut = len(listed)

    def omitted() -> tuple[str, ...]:
        return tuple(m.id for m in sorted(memories, key=key)[cut:])

    text = index_text(listed, omitted=total - cut)
    return IndexResult(text, tuple(e.id for e in listed), total - cut, omitted)


@dataclass(frozen=True)
class IndexEntry:
    """One memory as the index lists it: its id, its topic and its line."""

    id: str
    topic: str
    line: str


def index_entry(memory: Memory, index_line_chars: int) -> IndexEntry:
    """The line ``memory`` gets in MEMORY.md (within ``index_line_chars``)."""
    return IndexEntry(memory.id, memory.topic, _entry_line(memory, index_line_chars))


def fill_index(
    ranked: Iterable[IndexEntry], *, total: int, index_chars: int, max_lines: int
) -> list[IndexEntry]:
    """The first entries of ``ranked`` (best first) that fit the budgets, ``total`` being
    how many memories the order holds in all (those left out cost a "more" line).

    The list stops before the first entry that does not fit. Given only the first
    entries of the order, it is what the whole order gives whenever it stops before
    their end (so a caller that knows the best few can tell, by the length).
    """
    chars = len(GENERATED_MARKER) + 1
    lines = 1
    topics: set[str] = set()
    listed: list[IndexEntry] = []
    for position, entry in enumerate(ranked):
        add_chars = len(entry.line) + 1
        add_lines = 1
        if entry.topic not in topics:
            add_chars += len(_heading(entry.topic)) + 2  # the blank line before it, too
            add_lines += 2
        tail_chars, tail_lines = _more_cost(total - position - 1)
        if chars + add_chars + tail_chars > index_chars or lines + add_lines + tail_lines > (
            max_lines
        ):
            break
        chars += add_chars
        lines += add_lines
        topics.add(entry.topic)
        listed.append(entry)
    return listed


def index_text(listed: Sequence[IndexEntry], *, omitted: int) -> str:
    """MEMORY.md listing ``listed`` (best first) grouped by topic, and how many are not."""
    groups: dict[str, list[str]] = {}
    for entry in listed:  # dicts keep insertion order: a topic's best memory places it
        groups.setdefault(entry.topic, []).append(entry.line)
    out = [GENERATED_MARKER]
    for topic, lines in groups.items():
        out += ["", _heading(topic), *lines]
    if omitted:
        out += ["", _more_line(omitted)]
    return "\n".join(out) + "\n"


def _heading(topic: str) -> str:
    return f"## {topic}"


def _more_line(count: int) -> str:
    return f"- {_ELLIPSIS} {count} more in memories/"


def _more_cost(count: int) -> tuple[int, int]:
    """Characters and lines the closing "more" line takes (with its blank line)."""
    return (len(_more_line(count)) + 2, 2) if count else (0, 0)


def _entry_line(memory: Memory, limit: int) -> str:
    """``- [Title](path) — hook`` within ``limit`` characters, cutting the hook first."""
    # Only a note needs its module (with the extractors' words: ~10 ms an add imports).
    if SESSION_NOTE in memory.tags and _notes().is_note(memory):
        title, hook = _notes().headline(memory)
    else:
        title, from_text = _title(memory)
        hook = _hook(memory, title, goes_on=from_text)
    link_chars = len("- []()") + len(memory.path)
    title_text = _fit(title, limit - link_chars, _escape_title)
    line = f"- [{title_text}]({memory.path})"
    room = limit - len(line) - len(_SEPARATOR)
    if hook and room >= min(len(hook), _MIN_HOOK):
        line += _SEPARATOR + _shorten(hook, room)
    return line


def _notes() -> ModuleType:
    from dreamgit.dream import session_notes

    return session_notes


def _title(memory: Memory) -> tuple[str, bool]:
    """The name as words (``prefers-pytest`` → ``Prefers pytest``), else a description.

    A name that is only the text's own words run together (``has-dentist-appointment-10-
    so-no``, what gathering makes) is no title: the text's first clause is ("Has a dentist
    appointment at 10"). Also says whether the title is such a clause.
    """
    name = _clean(memory.name)
    from_text = False
    if name and " " not in name:
        name = name.replace("-", " ").replace("_", " ").strip()
        if _is_cut_from(name, memory.text):
            name, from_text = _first_clause(_first_sentence(memory.text)), True
    text = name or _clean(memory.description) or _first_sentence(memory.text)
    text = text or memory.slug.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:], from_text


_WORD = re.compile(r"[a-z0-9]+")
#: Where a sentence's first clause ends: a comma before a conjunction, a semicolon, a dash.
_CLAUSE_END = re.compile(
    r",\s+(?:so|because|but|and|since|which|as|though|although|while)\b|;|\s[\u2014\u2013-]\s|\s\(|:\s"
)
#: Longest title taken from a text; the rest stays in the hook.
_TITLE_CHARS = 80


def _is_cut_from(name: str, text: str) -> bool:
    """Whether ``name`` (two words or more) is the text's words in order, some left out."""
    words = name.lower().split()
    if len(words) < 2:
        return False
    found = iter(_WORD.findall(text.lower()))
    return all(any(w == t for t in found) for w in words)


def _first_clause(sentence: str) -> str:
    """The sentence up to its first clause break, without the final stop."""
    cut = _CLAUSE_END.search(sentence)
    clause = sentence[: cut.start()] if cut and cut.start() >= 12 else sentence
    return _shorten(clause.rstrip(" .!?"), _TITLE_CHARS)


def _hook(memory: Memory, title: str, *, goes_on: bool = False) -> str:
    """The description, else the body's first sentence; never a repeat of the title (with
    ``goes_on``, a title cut from the text: what follows the title in the description)."""
    for candidate in (_clean(memory.description), _first_sentence(memory.text)):
        if not candidate or candidate.casefold() == title.casefold():
            continue
        if goes_on and candidate.casefold().startswith(title.casefold()):
            rest = candidate[len(title) :].strip(" .,;:-()\u2013\u2014").strip()
            if rest:
                return rest
            continue
        return candidate
    return ""


def _first_sentence(text: str) -> str:
    """First sentence of the first paragraph that is not a heading or a rule."""
    for paragraph in re.split(r"\n\s*\n", text):
        stripped = paragraph.strip()
        if not stripped or stripped.startswith(("#", "---", "<!--")):
            continue
        flat = _clean(stripped)
        return _SENTENCE_END.split(flat, maxsplit=1)[0]
    return ""


def _clean(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def _escape_title(text: str) -> str:
    """Link text may not hold unbalanced brackets; escape them and backslashes."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _fit(text: str, room: int, escape: Callable[[str], str]) -> str:
    """``escape(text)``, shortened until it takes at most ``room`` characters (min 1)."""
    width = len(text)
    while True:
        candidate = escape(_shorten(text, width))
        if len(candidate) <= room or width <= 1:
            return candidate
        width -= max(1, len(candidate) - room)


def _shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters with an ellipsis, at a word end when one is near."""
    if len(text) <= width:
        return text
    if width <= 1:
        return _ELLIPSIS
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space >= (width - 1) * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-—") + _ELLIPSIS


#: The fence around the lines dreamgit adds to an agent's own index (Claude Code's MEMORY.md).
BLOCK_OPEN = "<!-- dreamgit:generated index — lines dreamgit adds; the rest is kept as written -->"
BLOCK_CLOSE = "<!-- /dreamgit:generated -->"
_LOCAL_LINK = re.compile(r"^\s*[-*+]\s*\[(?:[^\]\\\n]|\\.)*\]\((?P<target><[^>\n]*>|[^)\s]+)\)")


def _link_target(line: str) -> str | None:
    match = _LOCAL_LINK.match(line)
    if match is None:
        return None
    return match["target"].strip("<>").split("#", 1)[0].removeprefix("./") or None


def render_agent_index(
    existing: str | None,
    memories: Sequence[Memory],
    *,
    order: Callable[[Memory], Any],
    index_line_chars: int,
    gone: set[str],
    max_lines: int = CLAUDE_INDEX_LINES,
    max_bytes: int = 25_000,
) -> IndexResult:
    """An agent's own index (Claude Code's ``MEMORY.md``) with dreamgit's lines in a fence.

    Every line outside the fence is kept as written, except a link to a memory file
    the dream took out of the active set (``gone``): Claude Code would load a dead
    link. Memories no line links to are listed inside the fence, best first, as
    long as the whole file stays within the lines and bytes the agent loads. With
    nothing to list, the fence is left out, so an index that needs nothing stays
    byte for byte as it was.
    """
    text = existing or ""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    start = next((k for k, ln in enumerate(lines) if ln.strip() == BLOCK_OPEN), None)
    end = None
    if start is not None:
        end = next(
            (k for k in range(start + 1, len(lines)) if lines[k].strip() == BLOCK_CLOSE), None
        )
    if start is not None and end is not None:
        before, after = lines[:start], lines[end + 1 :]
    else:
        before, after = lines, []
    before = [ln for ln in before if _link_target(ln) not in gone]
    after = [ln for ln in after if _link_target(ln) not in gone]
    linked = {t for t in map(_link_target, [*before, *after]) if t}
    ranked = sorted(memories, key=lambda m: (order(m), m.id))
    listed = [m.id for m in ranked if m.path in linked]
    fresh = [m for m in ranked if m.path not in linked]
    kept = "".join(before + after)
    used_lines = len(before) + len(after) + 2  # the two fence lines
    used_bytes = len(kept.encode("utf-8")) + len(BLOCK_OPEN) + len(BLOCK_CLOSE) + 8
    entries: list[str] = []
    for position, memory in enumerate(fresh):
        entry = _entry_line(memory, index_line_chars)
        left = len(fresh) - position - 1
        tail_lines, tail_bytes = (1, len(_agent_more(left)) + 2) if left else (0, 0)
        cost = len(entry.encode("utf-8")) + len(newline)
        if used_lines + 1 + tail_lines > max_lines or used_bytes + cost + tail_bytes > max_bytes:
            break
        entries.append(entry)
        used_lines += 1
        used_bytes += cost
    omitted = tuple(m.id for m in fresh[len(entries) :])
    if omitted:
        entries.append(_agent_more(len(omitted)))
    if not entries:
        return IndexResult(kept, tuple(listed), len(omitted), _known(omitted))
    block = newline.join([BLOCK_OPEN, *entries, BLOCK_CLOSE]) + newline
    if before and not before[-1].endswith("\n"):
        before[-1] += newline
    included = (*listed, *(m.id for m in fresh[: len(fresh) - len(omitted)]))
    text = "".join(before) + block + "".join(after)
    return IndexResult(text, included, len(omitted), _known(omitted))


def _agent_more(count: int) -> str:
    return f"- {_ELLIPSIS} {count} more memory files are not listed here"
