"""The names rules can use and the environments that give them values.

Each place an expression appears has a schema: memory rules (gather, prune,
rank, scores) see one memory's fields; consolidate rules see two memories as
``a`` and ``b``; the gate sees figures about the run. The loader checks every
expression against its schema, and the functions here build the matching
environments, so the two cannot drift apart. Build an environment once per memory
and reuse it for every rule: evaluation is then a few dict lookups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, ValuesView
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, NoReturn

from dreamgit.dsl import Expression, Schema
from dreamgit.dsl.types import BOOL, DURATION, NUMBER, PRIORITY, STRING, Type, list_of, record
from dreamgit.model import Memory, RecallStats
from dreamgit.ruleset.days import recurs, since_day
from dreamgit.ruleset.plainnames import SOURCES, names_at_once, one_name
from dreamgit.textsim import STOP_WORDS

if TYPE_CHECKING:  # rule files need ruamel, which a reader of these names does not
    from dreamgit.ruleset.model import Rule

__all__ = [
    "CANDIDATE_DEFAULTS",
    "CANDIDATE_SCHEMA",
    "GATE_SCHEMA",
    "MEMORY_SCHEMA",
    "PAIR_SCHEMA",
    "LazyMemoryEnv",
    "gate_env",
    "memory_env",
    "names_read",
    "pair_env",
    "reads_recall_signals",
]

#: How one name of a memory's environment is computed (the memory, now, recalls recorded).
_Name = Callable[[Memory, datetime, bool], object]
#: Hours since the last dream when there has never been one: larger than any gate.
NEVER_HOURS = 1e9
#: ``recall.last`` of a memory never recalled: longer than any rule asks about.
NEVER_RECALLED = timedelta(days=36500)
#: Concept richness saturates here (OpenClaw keeps at most 8 concept tags).
MAX_CONCEPTS = 8

#: ``recall.<name>``: what the recorded recalls of a memory add up to.
RECALL_FIELDS: dict[str, Type] = {
    "count": NUMBER,
    "queries": NUMBER,
    "days": NUMBER,
    "last": DURATION,
    "first": DURATION,
    "score": NUMBER,
    "max_score": NUMBER,
    "span": DURATION,
    "concepts": NUMBER,
}

MEMORY_FIELDS: dict[str, Type] = {
    "id": STRING,
    "topic": STRING,
    "priority": PRIORITY,
    "key": STRING,
    "tags": list_of(STRING),
    "type": STRING,
    "text": STRING,
    "name": STRING,
    "description": STRING,
    "chars": NUMBER,
    "age": DURATION,
    "idle": DURATION,
    "recalls": NUMBER,
    "confidence": NUMBER,
    "sources": list_of(STRING),
    "supersedes": list_of(STRING),
    "valid_from": DURATION,
    "superseded": BOOL,
    "since_day": DURATION,
    "recurs": BOOL,
    "recall": record(RECALL_FIELDS),
    "recalls_recorded": BOOL,
}
#: What a gather rule sees besides the memory a candidate would become.
CANDIDATE_FIELDS: dict[str, Type] = {
    **MEMORY_FIELDS,
    "kind": STRING,
    "salience": NUMBER,
    "speaker": STRING,
}
#: What a gather rule reads of a memory that is not a fresh statement (``rules explain``
#: of a kept memory, a memory added by hand): an explicit fact said by the user.
CANDIDATE_DEFAULTS: dict[str, object] = {"kind": "fact", "salience": 6.0, "speaker": "user"}
GATE_FIELDS: dict[str, Type] = {
    "new_sessions": NUMBER,
    "hours_since_last_dream": NUMBER,
    "since_last_dream": DURATION,
    "memories": NUMBER,
    "pending_chars": NUMBER,
}

_PAIR_ONLY = "a.<field> and b.<field> exist only in consolidate rules"
_GATE_ONLY = "only the gate knows it"

MEMORY_SCHEMA = Schema(
    "a memory rule",
    MEMORY_FIELDS,
    hints={"a": _PAIR_ONLY, "b": _PAIR_ONLY, **dict.fromkeys(GATE_FIELDS, _GATE_ONLY)},
)
CANDIDATE_SCHEMA = Schema(
    "a gather rule",
    CANDIDATE_FIELDS,
    hints={"a": _PAIR_ONLY, "b": _PAIR_ONLY, **dict.fromkeys(GATE_FIELDS, _GATE_ONLY)},
)
PAIR_SCHEMA = Schema(
    "a consolidate rule",
    {"a": record(MEMORY_FIELDS), "b": record(MEMORY_FIELDS)},
    hints={
        name: f"a consolidate rule compares two memories: write a.{name} or b.{name}"
        for name in MEMORY_FIELDS
    },
)
GATE_SCHEMA = Schema(
    "the gate",
    GATE_FIELDS,
    hints={
        name: "the gate sees figures about the run (new_sessions, hours_since_last_dream,"
        " since_last_dream, memories, pending_chars), not a memory"
        for name in MEMORY_FIELDS
    },
)


def memory_env(
    memory: Memory, now: datetime, *, recalls_recorded: bool = False
) -> dict[str, object]:
    """The names a memory rule sees for ``memory`` at ``now``; ``recalls_recorded`` says
    whether this repository records recalls (only then do ``recall.*`` mean anything)."""
    plain = _plain_names(memory, now, recalls_recorded)
    return {
        name: plain[name] if name in plain else _COMPUTED[name](memory, now, recalls_recorded)
        for name in MEMORY_FIELDS
    }


class LazyMemoryEnv(dict[str, object]):
    """:func:`memory_env` computed name by name as a rule reads it: a condition that
    fails on ``priority`` never reads a date out of the text (``since_day``).

    A dict holding the names computed so far (``__missing__`` computes one), so a rule's
    read of a name already computed is a plain dict look-up; read only, and it iterates,
    counts and compares as the whole :func:`memory_env`. :meth:`filled` holds the names
    read straight from the memory's fields from the start: for a memory every rule of
    a dream reads, one dict built at once costs less than a ``__missing__`` per name."""

    __slots__ = ("_memory", "_now", "_recorded")

    def __init__(self, memory: Memory, now: datetime, *, recalls_recorded: bool = False) -> None:
        super().__init__()
        self._memory, self._now, self._recorded = memory, now, recalls_recorded

    @classmethod
    def filled(
        cls,
        memory: Memory,
        now: datetime,
        *,
        recalls_recorded: bool = False,
        names: frozenset[str] | None = None,
    ) -> LazyMemoryEnv:
        """The environment with every name but ``since_day``, ``recurs`` and ``recall``
        computed already (those three read the text or the recall figures: still when
        first read); with ``names``, only those of them (what the rules about to be
        evaluated read, :func:`names_read`: the default rules read 7 of the 19). A
        memory whose fields cannot all be read gets them one by one."""
        return cls.filling(now, recalls_recorded=recalls_recorded, names=names)(memory)

    @classmethod
    def filling(
        cls, now: datetime, *, recalls_recorded: bool = False, names: frozenset[str] | None = None
    ) -> Callable[[Memory], LazyMemoryEnv]:
        """:meth:`filled` of many memories at ``now``: the function making each one's
        environment, with what each call would look up found once (vetting makes one
        for every memory of a dream)."""
        fill = _plain_names if names is None else _filler(names)
        new, update = cls.__new__, dict.update
        set_memory, set_now, set_recorded = _SLOTS

        def made(memory: Memory) -> LazyMemoryEnv:
            env = new(cls)  # as __init__ makes it, without its call
            set_memory(env, memory)
            set_now(env, now)
            set_recorded(env, recalls_recorded)
            try:
                plain = fill(memory, now, recalls_recorded)
            except Exception:  # each name then fails where a rule reads it, as before
                return env
            update(env, plain)
            return env

        return made

    @property
    def memory(self) -> Memory:
        """The memory whose names these are."""
        return self._memory

    def __missing__(self, name: str) -> object:
        value = _MEMORY_NAMES[name](self._memory, self._now, self._recorded)
        dict.__setitem__(self, name, value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(MEMORY_FIELDS)

    def __len__(self) -> int:
        return len(MEMORY_FIELDS)

    def __contains__(self, name: object) -> bool:
        return name in MEMORY_FIELDS

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        return KeysView(self)

    def items(self) -> ItemsView[str, object]:  # type: ignore[override]
        return ItemsView(self)

    def values(self) -> ValuesView[object]:  # type: ignore[override]
        return ValuesView(self)

    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in MEMORY_FIELDS else default

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == other

    __hash__ = None

    def _read_only(self, *_args: object, **_kwargs: object) -> NoReturn:
        raise TypeError("a memory's environment is read only")

    __setitem__ = __delitem__ = _read_only
    setdefault = pop = popitem = clear = update = __ior__ = _read_only


#: The setters of an environment's slots (memory, time, recalls recorded).
_SLOTS = tuple(vars(LazyMemoryEnv)[slot].__set__ for slot in ("_memory", "_now", "_recorded"))


def names_read(expressions: Iterable[Expression]) -> frozenset[str]:
    """The memory names ``expressions`` read (``recall`` for ``recall.count``)."""
    return frozenset(
        head
        for expression in expressions
        for name in expression.names
        if (head := name.partition(".")[0]) in MEMORY_FIELDS
    )


@lru_cache(maxsize=64)
def _filler(names: frozenset[str]) -> Callable[[Memory, datetime, bool], dict[str, object]]:
    """The function computing those of ``names`` read straight from a memory's fields."""
    return names_at_once(tuple(name for name in SOURCES if name in names))


def reads_recall_signals(rule: Rule) -> bool:
    """Whether a rule reads recorded recall signals (``recall.*``)."""
    return any(name == "recall" or name.startswith("recall.") for name in rule.when.names)


#: The names computed from the text or the recall figures, each only when a rule reads it.
_COMPUTED: dict[str, _Name] = {
    # A plan's day: how long ago the day it names ended (zero if none, or not over).
    "since_day": lambda m, now, recorded: since_day(m.text, m.created, now),
    "recurs": lambda m, now, recorded: recurs(m.text),
    "recall": lambda m, now, recorded: recall_env(m, now),
}


#: How each name is computed on its own, when first read (in :data:`MEMORY_FIELDS`' order).
_MEMORY_NAMES: dict[str, _Name] = {
    name: _COMPUTED[name] if name in _COMPUTED else one_name(name) for name in MEMORY_FIELDS
}
#: The names read straight from a memory's fields (all but :data:`_COMPUTED`'s), at once.
_plain_names = names_at_once(tuple(SOURCES))


_WORD = re.compile(r"[^\W_]{3,}")
#: :data:`_WORD` in a text all ASCII once lower case (most are): the same words, matched
#: without asking Unicode's categories (a third faster: health reads every memory's).
_ASCII_WORD = re.compile(r"[a-z0-9]{3,}")


def concept_words(text: str) -> set[str]:
    """The distinct content words of a text (lower case, 3 letters or more, no stop words):
    cheap enough to compute for every memory a rule looks at."""
    lower = text.lower()
    words = (_ASCII_WORD if lower.isascii() else _WORD).findall(lower)
    return set(words).difference(STOP_WORDS)


def recall_env(memory: Memory, now: datetime) -> dict[str, object]:
    """``recall.*`` for ``memory``: counts, distinct queries and days, durations since the
    last and first recall, mean and best relevance, the days between first and last, and
    concept richness (distinct content words and tags, at most 8)."""
    stats = memory.recall or RecallStats()
    concepts = min(MAX_CONCEPTS, len(concept_words(memory.text) | set(memory.tags)))
    last = now - stats.last if stats.last else NEVER_RECALLED
    first = now - stats.first if stats.first else NEVER_RECALLED
    span = stats.last - stats.first if stats.last and stats.first else timedelta(0)
    return {
        "count": stats.count,
        "queries": len(stats.queries),
        "days": len(stats.days),
        "last": last,
        "first": first,
        "score": stats.mean_score,
        "max_score": stats.max_score,
        "span": span,
        "concepts": concepts,
    }


def pair_env(a: Memory, b: Memory, now: datetime) -> dict[str, object]:
    """The names a consolidate rule sees; with many pairs, build ``{"a": env_a, "b": env_b}``
    from :func:`memory_env` results instead, computing each memory's environment once."""
    return {"a": memory_env(a, now), "b": memory_env(b, now)}


def gate_env(
    *,
    new_sessions: int,
    last_dream: datetime | None,
    memories: int,
    pending_chars: int,
    now: datetime,
) -> dict[str, object]:
    """The names the gate sees."""
    since = timedelta(hours=NEVER_HOURS) if last_dream is None else now - last_dream
    return {
        "new_sessions": new_sessions,
        "hours_since_last_dream": since / timedelta(hours=1),
        "since_last_dream": since,
        "memories": memories,
        "pending_chars": pending_chars,
    }
