"""Supersession without an LLM: by slot (``key``) and by explicit change statements.

Two rules, both deterministic. **Key**: among the new items and the existing
memories that share a non-empty key, the newest (by ``created``; a new item wins a
tie) supersedes every other; an item whose text is the winner's is a duplicate and
left to the duplicate finder. **Change**: a new candidate that says "switched from
Flask to FastAPI" supersedes older items whose text *affirms* Flask (a
word-boundary, case-insensitive match, lexicon aliases included: "Postgres" also
matches "PostgreSQL") in the same topic, or, for a change about tools,
preferences, projects or decisions, in any of the tools / preferences / projects
topics; it spares items that mention Flask only negated or as the old side of a
change ("does not use Flask", "switched from Flask", "over Flask") and items that
already name FastAPI as current. Each older item is retired at most once (by the
newest statement that reaches it). Protected and ``core`` memories are never
superseded: such pairs are returned as skipped, with the reason, for the run
record. The work is linear in the size of the existing memories (one combined
regex scan), not pairwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from dreamgit.extract.candidate import Candidate
from dreamgit.extract.lexicon import lookup_tool, tool_aliases
from dreamgit.model import Memory

__all__ = ["SkippedSupersession", "Supersession", "SupersessionPlan", "find_change_supersessions"]

#: Topics a change about tools may reach into.
_TOOLISH = frozenset({"tools", "preferences", "projects"})
_TOOLISH_SOURCES = _TOOLISH | {"decisions"}
_BOUNDARY = ".;:!?(),"
_NEGATED_BEFORE = re.compile(
    r"(?:(?:\bnot|n't|\bnever|\bno\s+longer|\bwithout|\bformerly|\bpreviously|\bused\s+to)"
    r"(?:\s+[\w'-]+){0,2}"
    r"|\b(?:stopped|quit|ceased|dropped|ditched|abandoned|uninstalled|replaced|left|avoids?"
    r"|avoided|dislikes?|hates?|over|than|instead\s+of|rather\s+than|gave\s+up(?:\s+on)?"
    r"|moved\s+away\s+from|got\s+rid\s+of)"
    r"|\b(?:switch|switched|switching|move|moved|moving|migrate|migrated|migrating|change"
    r"|changed|changing|went|transition(?:ed)?|convert(?:ed)?|port(?:ed)?)(?:\s+[\w'-]+){0,2}?"
    r"\s+from)(?:\s+(?:using|the|with|on|in|at|working\s+with))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Supersession:
    """One older item that leaves the active set because of a newer one.

    Exactly one of ``old_id`` (a memory's id) and ``old_index`` (a candidate's index
    in ``new``) is set. ``new`` is the superseding item: an index into ``new`` for a
    candidate, a memory id otherwise (an existing memory when it is the newer one).
    """

    old_id: str | None
    old_index: int | None
    new: int | str
    reason: str  # "key user.home", "change Flask → FastAPI"
    kind: str  # "key" | "change"


@dataclass(frozen=True)
class SkippedSupersession:
    """A supersession the rules forbid (the older memory is protected or core)."""

    supersession: Supersession
    why: str


@dataclass(frozen=True)
class SupersessionPlan:
    """What to supersede, and what would have been superseded but is protected."""

    supersessions: tuple[Supersession, ...]
    skipped: tuple[SkippedSupersession, ...]


class _Item(NamedTuple):
    """A new candidate, a new memory or an existing memory, seen the same way."""

    ref: int | str  # candidate index, or memory id
    is_new: bool
    order: int
    source: Memory | Candidate

    @property
    def rank(self) -> tuple[datetime, int, int]:
        """Newer first by creation time; on a tie a new item beats an existing one."""
        return (self.source.created, int(self.is_new), self.order if self.is_new else -self.order)

    @property
    def change(self) -> tuple[str | None, str | None] | None:
        return self.source.change if isinstance(self.source, Candidate) else None


def _fresh(new: Sequence[Candidate | Memory]) -> list[_Item]:
    return [_Item(m.id if isinstance(m, Memory) else i, True, i, m) for i, m in enumerate(new)]


def _stored(i: int, m: Memory) -> _Item:
    return _Item(m.id, False, i, m)


def _why_protected(m: Memory | Candidate, protected: Callable[[Memory], bool] | None) -> str:
    if m.priority == "core":
        return f"core priority (topic {m.topic})"
    if isinstance(m, Memory) and protected is not None and protected(m):
        return f"protected (topic {m.topic}, priority {m.priority})"
    return ""


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _aliases(term: str) -> tuple[str, ...]:
    tool = lookup_tool(term)
    spellings = {term.lower(), *(tool_aliases(tool) if tool else ())}
    return tuple(sorted(spellings, key=lambda s: (-len(s), s)))


def _term_regex(spellings: Sequence[str], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in spellings)
    return re.compile(rf"(?<![\w.+#-])(?:{alternatives})(?![\w+#]|[.-]\w)", flags)


def affirms(text: str, pattern: re.Pattern[str]) -> bool:
    """True when ``text`` names the term as something used or held, not negated or left."""
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 120) : m.start()]
        cut = max(before.rfind(c) for c in _BOUNDARY)
        if not _NEGATED_BEFORE.search(before[cut + 1 :]):
            return True
    return False


class _Collector:
    """Supersessions in discovery order, each old item at most once."""

    def __init__(self, protected: Callable[[Memory], bool] | None):
        self._protected = protected
        self._seen: set[tuple[bool, int]] = set()
        self.done: list[Supersession] = []
        self.skipped: list[SkippedSupersession] = []

    def taken(self, old: _Item) -> bool:
        """True when ``old`` is already superseded (or skipped) by another item."""
        return (old.is_new, old.order) in self._seen

    def add(self, old: _Item, new: _Item, kind: str, reason: str) -> None:
        if self.taken(old):
            return
        self._seen.add((old.is_new, old.order))
        s = Supersession(
            old_id=None if isinstance(old.ref, int) else old.ref,
            old_index=old.ref if isinstance(old.ref, int) else None,
            new=new.ref,
            reason=reason,
            kind=kind,
        )
        why = _why_protected(old.source, self._protected)
        if why:
            self.skipped.append(SkippedSupersession(s, why))
        else:
            self.done.append(s)


def _by_change(fresh: list[_Item], existing: Sequence[Memory], out: _Collector) -> None:
    changes = [(it, c[0], c[1]) for it in fresh if (c := it.change) and c[0] is not None]
    if not changes:
        return
    all_spellings = sorted(
        {s for _, term, _ in changes for s in _aliases(term)}, key=lambda s: (-len(s), s)
    )
    # One case-sensitive pass over lower-cased texts (much faster than IGNORECASE):
    # which spellings each item mentions at all.
    scan = _term_regex(all_spellings, flags=0)
    mentions: dict[str, list[_Item]] = {}
    everything = ((i, m.text, None) for i, m in enumerate(existing))
    for i, text, item in [*everything, *((it.order, it.source.text, it) for it in fresh)]:
        words = {" ".join(m.group().split()) for m in scan.finditer(text.lower())}
        if words:
            hit = item if item is not None else _stored(i, existing[i])
            for word in words:
                mentions.setdefault(word, []).append(hit)
    # Newest statement first: an item retired by several changes is reported once, for the
    # latest, and items already taken cost nothing further.
    for changer, old_term, new_term in sorted(changes, key=lambda c: c[0].rank, reverse=True):
        spellings = _aliases(old_term)
        old_re = _term_regex(spellings)
        new_re = _term_regex(_aliases(new_term)) if new_term else None
        seen: set[tuple[bool, int]] = set()
        for spelling in spellings:
            for it in mentions.get(spelling, ()):
                if (it.is_new, it.order) in seen or it is changer or out.taken(it):
                    continue
                seen.add((it.is_new, it.order))
                if it.source.created > changer.source.created:
                    continue
                if not _topic_reachable(changer.source.topic, it.source.topic):
                    continue
                text = it.source.text
                if not affirms(text, old_re) or (new_re and affirms(text, new_re)):
                    continue
                out.add(it, changer, "change", f"change {old_term} → {new_term or 'nothing'}")


def _topic_reachable(source: str, target: str) -> bool:
    return source == target or (source in _TOOLISH_SOURCES and target in _TOOLISH)


def _by_key(fresh: list[_Item], existing: Sequence[Memory], out: _Collector) -> None:
    groups: dict[str, list[_Item]] = {}
    for it in fresh:
        if it.source.key:
            groups.setdefault(it.source.key, [])
    if not groups:
        return
    for i, m in enumerate(existing):
        if m.key and m.key in groups:
            groups[m.key].append(_stored(i, m))
    for it in fresh:
        if it.source.key:
            groups[it.source.key].append(it)
    for key, members in groups.items():
        winner = max(members, key=lambda it: it.rank)
        for it in members:
            if it is winner or not (it.is_new or winner.is_new):
                continue
            if _norm(it.source.text) == _norm(winner.source.text):
                continue  # a duplicate, not a newer fact
            out.add(it, winner, "key", f"key {key}")


def find_change_supersessions(
    new: Sequence[Candidate | Memory],
    existing: Sequence[Memory],
    *,
    protected: Callable[[Memory], bool] | None = None,
) -> SupersessionPlan:
    """Which items leave the active set because ``new`` items state newer facts.

    ``new`` are this run's candidates (or memories just made from them; only
    candidates carry change statements); ``existing`` are the active memories.
    Pairs among ``new`` count too, so a batch that says "uses Flask" on day 2 and
    "switched to FastAPI" on day 7 supersedes within itself. ``protected`` says which
    memories the rules protect; ``core`` memories are always protected. Each old item
    appears at most once, retired by the newest change statement that reaches it
    (change statements are considered before keys).
    """
    fresh = _fresh(new)
    out = _Collector(protected)
    _by_change(fresh, existing, out)
    _by_key(fresh, existing, out)
    return SupersessionPlan(tuple(out.done), tuple(out.skipped))
