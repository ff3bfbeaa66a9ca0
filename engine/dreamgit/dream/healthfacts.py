"""The memories' health figures from the derived store's facts, without git.

What a memory's file decides for the health figures (:mod:`dreamgit.dream.health`) is
derived once per blob and kept in the derived store beside the file's row
(``store/derived.py``'s facts): its sources, its content words as one key, and its prune
verdict when that verdict read nothing that moves with time or with the recall counters
(``priority == low and …`` is false for good for a normal memory; ``age > 7d`` is not).
Only memories whose verdict moves are judged again, at ``now``. Broken files and second
files of an id come from the store's rows with the messages the files give. The full
status (:mod:`dreamgit.dream.healthstore`) and the lean one
(:mod:`dreamgit.dream.leanstatus`) both count through :func:`memory_figures`; nothing
here opens git or loads the rule files.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from dreamgit.dream.healthparts import MOVING_NAMES, Figures, Judged, is_stale, words_key
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.context import LazyMemoryEnv
from dreamgit.store.derived import DerivedStore
from dreamgit.store.derivedfacts import FactsOf, StoredRecord
from dreamgit.store.memoryfile import created_at, memory_from_record
from dreamgit.store.signals import with_recalls
from dreamgit.version import __version__

__all__ = ["HealthRules", "memory_figures"]

#: Bumped when what a fact holds changes: facts of another version are derived again.
_FACTS_VERSION = 3
#: A memory's prune verdict: protected, retired whatever the time, kept whatever the
#: time, or to judge again at each ``now``.
_PROTECTED, _STALE, _KEPT, _MOVES = "p", "y", "n", "?"
_VERDICTS = frozenset((_PROTECTED, _STALE, _KEPT, _MOVES))


@dataclass(frozen=True)
class HealthRules:
    """What a prune verdict depends on besides the file: the prune rules health asks
    (``when.text`` names them), whether recalls are tracked, and what is protected."""

    prunable: Sequence[Judged]
    tracked: bool
    protected_topics: tuple[str, ...]
    protected_priorities: tuple[str, ...]

    def is_protected(self, memory: Memory) -> bool:
        """As :meth:`RuleSet.is_protected <dreamgit.ruleset.model.RuleSet.is_protected>`."""
        return memory.topic in self.protected_topics or memory.priority in (
            self.protected_priorities
        )

    def kind(self) -> str:
        """The facts' name: what a verdict depends on besides the file (the rules
        evaluated, what is protected, whether recalls are tracked) and who derived it."""
        inputs = [
            _FACTS_VERSION,
            __version__,
            [r.when.text for r in self.prunable],
            sorted(self.protected_topics),
            sorted(str(p) for p in self.protected_priorities),
            self.tracked,
        ]
        digest = hashlib.sha256(json.dumps(inputs).encode()).hexdigest()[:24]
        return f"health:{digest}"


def memory_figures(
    derived: DerivedStore,
    tree: str,
    rules: HealthRules,
    *,
    sources_wanted: bool,
    counters: Mapping[str, RecallStats],
    now: datetime,
) -> tuple[Figures, list[MemoryFileError]] | None:
    """(figures, broken memory files) of the memories the derived store holds at
    ``tree``, judged at ``now`` with their recall ``counters``; the sessions they name
    only when ``sources_wanted``. None when the store cannot serve (another tree, a
    database that cannot be read, facts that do not read back)."""
    prunable, tracked = list(rules.prunable), rules.tracked
    kind = rules.kind()

    def derive(path: str, record: dict[str, Any]) -> str:
        memory = memory_from_record(record, path=path, now=now)
        if rules.is_protected(memory):
            verdict = _PROTECTED
        else:
            verdict = _verdict(LazyMemoryEnv(memory, now, recalls_recorded=tracked), prunable)
        # The verdict's letter, the content words (letters and digits only), the sources
        # as JSON (which never holds a raw line break), and for a verdict judged again at
        # each time what a lifecycle rule reads first (:class:`_RecordView`).
        fact = f"{verdict}{words_key(memory)}\n{json.dumps(list(memory.sources))}"
        if verdict != _MOVES:
            return fact
        return f"{fact}\n{json.dumps([record[name] for name in _RecordView.FIELDS])}"

    try:
        facts = derived.facts_of(tree, kind, derive, with_record=f"{_MOVES}%")
        if facts is None:
            return None
        words, sources = _decoded(facts.values)
        # Only the yield reads the sources, and only once some dream has read a session.
        sourced = _sourced(sources) if sources_wanted else set()
        broken = _broken(facts)
        stale = _stale_now(facts, prunable, counters, now, tracked)
    except sqlite3.Error:
        derived.close()
        return None
    except (KeyError, TypeError, ValueError):
        # Rows or facts that do not read as this dreamgit writes them: the files answer,
        # and the facts are derived again next time.
        derived.drop_facts(kind)
        return None
    figures = Figures(
        count=len(facts.values),
        sourced=sourced,
        duplicates=len(words) - len(set(words)),
        candidates=sum(fact[0] != _PROTECTED for fact in facts.values),
        stale=stale,
    )
    return figures, broken


def _stale_now(
    facts: FactsOf,
    prunable: list[Judged],
    counters: Mapping[str, RecallStats],
    now: datetime,
    tracked: bool,
) -> int:
    """How many active memories a prune rule retires now: those retired for good, and
    those whose verdict moves judged again at ``now`` (with their folded recall counters
    when any are recorded; else straight from their records, :class:`_RecordView`)."""
    stale = sum(fact[0] == _STALE for fact in facts.values)
    if counters:
        for record in facts.records:
            memory = memory_from_record(record.whole(), path=record.path, now=now)
            memory = with_recalls(memory, counters.get(memory.id))
            stale += is_stale(memory, prunable, now, tracked)
        return stale
    # The fields each fact keeps, in one parse (ValueError: a fact of another shape).
    fields = json.loads(f"[{','.join(_kept_fields(r.fact) for r in facts.records)}]")
    for record, found in zip(facts.records, fields, strict=True):
        # Read as a Memory by the rules' environment: it answers every field a Memory has.
        memory = cast("Memory", _RecordView(record, found, now))
        stale += is_stale(memory, prunable, now, tracked)
    return stale


def _kept_fields(fact: str) -> str:
    """The JSON of the record's fields a fact that moves keeps (its third line)."""
    lines = fact.split("\n", 2)
    if len(lines) != 3:
        raise ValueError("a fact that moves without the fields it keeps")
    return lines[2]


class _RecordView:
    """A memory as its record holds it, for the rules judging a verdict that moves: the
    priority, recall count and creation time (what a lifecycle rule such as ``priority ==
    low and age > 7d`` reads first) straight from the record; any other field from the
    whole :class:`~dreamgit.model.Memory`, built on first need. The default rules judge
    most memories without building one (it costs more than judging them)."""

    #: The record's fields the fact keeps, in this order.
    FIELDS = ("priority", "recalls", "created")
    __slots__ = ("_created", "_memory", "_now", "_record", "priority", "recalls")

    def __init__(self, record: StoredRecord, fields: list[Any], now: datetime) -> None:
        priority, recalls, self._created = fields  # ValueError: not the three
        if not isinstance(priority, str) or not isinstance(recalls, int):
            raise ValueError(f"{record.path}: a fact of another shape")
        #: As :func:`memory_from_record` sets them: the record's.
        self.priority, self.recalls = priority, recalls
        self._record, self._now = record, now
        self._memory: Memory | None = None

    @property
    def created(self) -> datetime:
        """As :func:`memory_from_record` sets it."""
        return created_at(self._created, self._now)

    def __getattr__(self, name: str) -> Any:
        # Only for what the properties and slots above do not answer.
        if self._memory is None:
            whole = self._record.whole()
            self._memory = memory_from_record(whole, path=self._record.path, now=self._now)
        return getattr(self._memory, name)


def _decoded(facts: list[str]) -> tuple[list[str], list[str]]:
    """The content-word keys and the source lists (as JSON) of ``facts`` (ValueError when
    one does not read as :func:`stored_health` writes it)."""
    words, sources = [], []
    for fact in facts:
        if fact[:1] not in _VERDICTS:
            raise ValueError(f"not a verdict: {fact[:1]!r}")
        word_key, listed, *_kept = fact[1:].split("\n", 2)  # ValueError: fewer lines
        words.append(word_key)
        sources.append(listed)
    return words, sources


def _sourced(sources: list[str]) -> set[str]:
    """Every session the source lists name (ValueError when one is not a list)."""
    lists = json.loads(f"[{','.join(sources)}]") if sources else []  # one parse, not 10,000
    if len(lists) != len(sources) or not all(isinstance(found, list) for found in lists):
        raise ValueError("sources are not lists")
    return {s for found in lists for s in found}


def _verdict(env: Mapping[str, object], prunable: list[Judged]) -> str:
    """Whether the rules retire a memory for good, keep it for good, or must be asked
    again at each time (a rule read a name of :data:`MOVING_NAMES`)."""
    moves = False
    for rule in prunable:
        reading = _Reading(env)
        if rule.when.evaluate(reading):
            # Holds for good, or only now (then, as ``any`` would, no later rule is asked).
            return _MOVES if reading.moved else _STALE
        moves = moves or reading.moved
    return _MOVES if moves else _KEPT


class _Reading(Mapping[str, object]):
    """An environment that notes whether a name that moves was read."""

    def __init__(self, env: Mapping[str, object]) -> None:
        self._env, self.moved = env, False

    def __getitem__(self, name: str) -> object:
        self.moved = self.moved or name in MOVING_NAMES
        return self._env[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._env)

    def __len__(self) -> int:
        return len(self._env)


def _broken(facts: FactsOf) -> list[MemoryFileError]:
    """The files that do not read, by path, as :meth:`MemoryFiles.read` reports them
    (a broken row's ``error`` missing: KeyError)."""
    problems = [
        (path, MemoryFileError(path, why["error"], line=why.get("line"), hint=why.get("hint")))
        for path, why in facts.broken
    ]
    if facts.seconds:
        # Rare (two files state one id), and the message lives beside the file cache.
        from dreamgit.store.memorycache import same_id_error

        seconds = [(p, same_id_error(p, ident, first)) for p, ident, first in facts.seconds]
        problems += seconds
    return [error for _path, error in sorted(problems, key=lambda found: found[0])]
