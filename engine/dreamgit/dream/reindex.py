"""Keeping ``MEMORY.md`` true after every write that changes the active memories.

A dream rewrites the index as its last operation; ``add``, ``forget``,
``restore``, ``revert`` and the three-way merge of a dream branch change the
active set too, and would otherwise leave the index listing removed files (or
missing new ones) until the next dream. :func:`renderer` is what those writes
call, passed when the repository is opened (``MemoryRepo.open(path, index=…)``),
with the rules' index order and budgets as configured at the commit being written,
so the index and the memories change in the same commit and read the same as a
dream would write.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from dreamgit.dream.index import CLAUDE_INDEX_LINES, is_generated, render_agent_index, render_index
from dreamgit.dream.placing import place_added, remember_cut
from dreamgit.errors import DreamgitError
from dreamgit.store import layout
from dreamgit.store.repo import IndexRenderer, MemoryRepo

__all__ = ["index_bytes", "renderer"]


def index_bytes(repo: MemoryRepo, commit: str, *, now: datetime) -> bytes | None:
    """MEMORY.md for the memories at ``commit``; None when the file already says that.

    A config whose rules do not load leaves the index alone: the write goes on,
    and ``rules check`` names the mistake. So does an index someone wrote by hand,
    and any format but dreamgit's own (another agent's index is left to dreams).
    """
    fmt = repo.format
    if fmt.index_style == "claude-code":
        return _agent_index_bytes(repo, commit, now=now)
    if fmt.index_style != "dreamgit" or fmt.index_path != layout.INDEX:
        return None  # no index, or one dreamgit does not know how to keep
    current = repo.read_text(layout.INDEX, commit)
    if current is not None and not is_generated(current):
        return None
    text = place_added(repo, commit, now=now) or _render_whole(repo, commit, now=now)
    if text is None or current == text:
        return None
    return text.encode("utf-8")


def _render_whole(repo: MemoryRepo, commit: str, *, now: datetime) -> str | None:
    """MEMORY.md from every memory at ``commit``, and where it cut the order kept for the
    next add; None when the rules do not load."""
    from dreamgit.dream.ordering import index_key  # the rules engine: only when ranking all
    from dreamgit.ruleset import load_ruleset

    try:
        rules = load_ruleset(repo.read_text(layout.CONFIG, commit), filename=layout.CONFIG)
        memories = repo.snapshot(now=now, at=commit).memories
        budgets = rules.budgets
        result = render_index(
            memories,
            order=index_key(rules, now),
            index_chars=budgets.index_chars,
            index_line_chars=budgets.index_line_chars,
        )
    except DreamgitError:
        return None
    remember_cut(
        repo,
        commit,
        memories,
        result,
        order=[(k.field, k.descending) for k in rules.index_order],
        index_chars=budgets.index_chars,
        index_line_chars=budgets.index_line_chars,
        now=now,
    )
    return result.text


def _agent_index_bytes(repo: MemoryRepo, commit: str, *, now: datetime) -> bytes | None:
    """Claude Code's MEMORY.md with the memories no line lists added in dreamgit's fence,
    as a dream would write it; the person's lines are kept as written."""
    fmt = repo.format
    current = repo.read_text(fmt.index_path, commit)
    limit = next((b for b in fmt.budgets() if b.path == fmt.index_path), None)
    from dreamgit.dream.ordering import index_key
    from dreamgit.ruleset import load_ruleset

    try:
        rules = load_ruleset(repo.read_text(layout.CONFIG, commit), filename=layout.CONFIG)
        result = render_agent_index(
            current,
            repo.snapshot(now=now, at=commit).memories,
            order=index_key(rules, now),
            index_line_chars=rules.budgets.index_line_chars,
            gone=set(),
            max_lines=(limit.lines if limit else None) or CLAUDE_INDEX_LINES,
            max_bytes=(limit.chars if limit else None) or rules.budgets.index_chars,
        )
    except DreamgitError:
        return None
    if (current or "") == result.text:
        return None
    return result.text.encode("utf-8")


def renderer(now: Callable[[], datetime]) -> IndexRenderer:
    """The MEMORY.md renderer a repository is opened with, ``now()`` read at each write."""
    return lambda repo, commit: index_bytes(repo, commit, now=now())
