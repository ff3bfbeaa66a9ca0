"""Memory tests: what a good recall answer must (and must not) contain.

People write them in ``.dreamgit/tests.yaml``::

    tests:
      - query: which editor does the user use
        expect: [helix]          # every text must be in the answer (case aside)
        not: [vim]               # none of these may be (a retired value)
        name: editor             # optional; the query names the test otherwise

dreamgit derives more on its own, from the memory at a revision: each protected,
``core`` or ``high`` memory must stay recallable by its own key words, and each
supersession a run recorded (``supersede`` or ``replace``) must answer with the new
value and not the old; at most :data:`MAX_DERIVED` of each kind, the most important
and newest first, so a large repository's gate stays within a second or two. A
broken file, or a broken entry in it, is a problem named by file and line; the other
tests still run.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.context import concept_words

__all__ = [
    "TESTS_PATH",
    "MemoryTest",
    "add_test_text",
    "derived_tests",
    "parse_tests",
    "retired_ids",
    "superseded_ids",
]

#: Where a repository keeps its written memory tests.
TESTS_PATH = ".dreamgit/tests.yaml"
#: How many key words stand for a memory in its derived test.
KEY_WORDS = 6
#: Priorities whose memories get a derived test even outside the protected ones.
_KEPT_PRIORITIES = ("core", "high")
#: Derived tests of each kind at most: each is one recall, and a gate runs them twice.
#: ``core`` memories come first, then protected topics, then ``high``; newest first within.
MAX_DERIVED = 50
#: Operations whose before → after is a supersession.
_SUPERSESSIONS = ("supersede", "replace")
_HINT = "each test is a mapping with `query:` and `expect:` (and optionally `not:`, `name:`)"
_NEW_FILE = (
    "# Memory tests: `dreamgit test` runs them through recall; a dream that breaks\n"
    "# one that passed on main is left for review.\n"
)


@dataclass(frozen=True)
class MemoryTest:
    """One test: a query, texts the answer must hold, texts it must not."""

    name: str
    query: str
    expect: tuple[str, ...]
    forbid: tuple[str, ...] = ()
    #: ``written``, ``protected`` or ``supersession``.
    origin: str = "written"
    #: The memory a derived test stands for.
    memory: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The test as JSON values."""
        return {
            "name": self.name,
            "query": self.query,
            "expect": list(self.expect),
            "not": list(self.forbid),
            "origin": self.origin,
            "memory": self.memory,
        }


def parse_tests(text: str | None) -> tuple[list[MemoryTest], list[str]]:
    """The written tests in ``text`` and the problems found, each naming file and line."""
    if text is None or not text.strip():
        return [], []
    try:
        doc = YAML(typ="rt").load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        return [], [f"{TESTS_PATH}{line}: not valid YAML ({problem}); fix the YAML syntax"]
    if not isinstance(doc, CommentedMap) or not isinstance(doc.get("tests"), CommentedSeq):
        return [], [f"{TESTS_PATH}:1: expected a `tests:` list; {_HINT}"]
    tests: list[MemoryTest] = []
    problems: list[str] = []
    entries: CommentedSeq = doc["tests"]
    for i, entry in enumerate(entries):
        line = entries.lc.item(i)[0] + 1
        test, problem = _entry(entry)
        if problem:
            problems.append(f"{TESTS_PATH}:{line}: test {i + 1} {problem}; {_HINT}")
        elif test is not None:
            tests.append(test)
    return tests, problems


def _entry(entry: object) -> tuple[MemoryTest | None, str]:
    if not isinstance(entry, Mapping):
        return None, "is not a mapping"
    unknown = sorted(str(k) for k in entry if k not in ("query", "expect", "not", "name"))
    if unknown:
        return None, f"has unknown key {unknown[0]!r}"
    query = entry.get("query")
    if not isinstance(query, str) or not query.strip():
        return None, "has no query"
    expect, forbid = _texts(entry.get("expect")), _texts(entry.get("not"))
    if expect is None or forbid is None:
        return None, "has an `expect:` or `not:` that is not a text or a list of texts"
    if not expect and not forbid:
        return None, "expects nothing"
    name = entry.get("name")
    label = str(name) if isinstance(name, str) and name.strip() else query.strip()
    return MemoryTest(label, query.strip(), expect, forbid), ""


def _texts(value: object) -> tuple[str, ...] | None:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) and v.strip() for v in items):
        return None
    return tuple(v.strip() for v in items)


def add_test_text(
    existing: str | None, query: str, expect: Iterable[str], forbid: Iterable[str]
) -> str:
    """``tests.yaml`` with one more test at the end; comments and order stay as they were."""
    tests, problems = parse_tests(existing)
    if problems and not tests and existing and existing.strip():
        raise ValueError(problems[0])
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    doc = yaml.load(existing) if existing and existing.strip() else None
    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
    entries = doc.get("tests")
    if not isinstance(entries, CommentedSeq):
        entries = CommentedSeq()
        doc["tests"] = entries
    entry = CommentedMap(query=query.strip())
    expected, forbidden = [e.strip() for e in expect], [f.strip() for f in forbid]
    if expected:
        entry["expect"] = expected
    if forbidden:
        entry["not"] = forbidden
    entries.append(entry)
    out = io.StringIO()
    yaml.dump(doc, out)
    text = out.getvalue()
    return text if existing and existing.strip() else _NEW_FILE + text


def key_words(text: str, limit: int = KEY_WORDS) -> list[str]:
    """A memory's content words in the order they first appear, at most ``limit``."""
    words = concept_words(text)
    low = text.lower()
    return sorted(words, key=lambda w: (low.find(w), w))[:limit]


def derived_tests(
    memories: list[Memory], records: list[dict[str, Any]], rules: RuleSet
) -> list[MemoryTest]:
    """Tests that follow from the memory itself; see the module docstring."""
    tests: dict[str, MemoryTest] = {}
    kept = [m for m in memories if rules.is_protected(m) or m.priority in _KEPT_PRIORITIES]
    kept.sort(key=lambda m: (_rank(m, rules), -m.updated.timestamp(), m.id))
    for memory in kept[:MAX_DERIVED]:
        words = key_words(memory.text)
        if words:
            name = f"{memory.id} stays recallable ({memory.priority}, {memory.topic})"
            query = " ".join(words)
            tests[name] = MemoryTest(name, query, tuple(words), (), "protected", memory.id)
    active = {m.id for m in memories}
    retired = superseded_ids(records)
    found: list[MemoryTest] = []
    for record in reversed(records):  # newest runs first
        for op in record.get("ops") or []:
            test = _supersession_test(op, active, retired)
            if test is not None and len(found) < MAX_DERIVED:
                found.append(test)
    for test in found:
        tests.setdefault(test.name, test)
    return list(tests.values())


def _rank(memory: Memory, rules: RuleSet) -> int:
    if memory.priority == "core":
        return 0
    return 1 if rules.is_protected(memory) else 2


def superseded_ids(records: list[dict[str, Any]]) -> set[str]:
    """Memories some recorded supersession retired (its ``before`` without its ``after``)."""
    return retired_ids(records, _SUPERSESSIONS)


def retired_ids(records: list[dict[str, Any]], kinds: Collection[str]) -> set[str]:
    """Memories the recorded operations of ``kinds`` retired (their ``before`` without
    their ``after``)."""
    retired: set[str] = set()
    for record in records:
        for op in record.get("ops") or []:
            if isinstance(op, dict) and op.get("op") in kinds:
                retired |= _ids(op.get("before")) - _ids(op.get("after"))
    return retired


def _ids(snaps: object) -> set[str]:
    return (
        {str(s.get("id")) for s in snaps or [] if isinstance(s, dict)}
        if isinstance(snaps, list)
        else set()
    )


def _supersession_test(op: object, active: set[str], retired: set[str]) -> MemoryTest | None:
    """The new value is found, the old memory's text is not (it may name the old value
    itself, "switched from Flask", so the old words alone cannot be forbidden)."""
    if not isinstance(op, dict) or op.get("op") not in _SUPERSESSIONS:
        return None
    after = [s for s in op.get("after") or [] if isinstance(s, dict)]
    kept = _ids(after)
    before = [s for s in op.get("before") or [] if isinstance(s, dict) and s.get("id") not in kept]
    if not before or not after:
        return None
    new, old = after[0], before[0]
    new_id = str(new.get("id"))
    if new_id not in active or new_id in retired:
        return None  # a later run replaced it in turn, or a person forgot it
    new_text, old_text = str(new.get("text") or ""), " ".join(str(old.get("text") or "").split())
    gained = _distinct(new_text, old_text)
    if not gained or not old_text:
        return None
    name = f"{new_id} supersedes {old.get('id')}"
    query = " ".join(key_words(new_text))
    return MemoryTest(name, query, tuple(gained), (old_text,), "supersession", new_id)


_NUMBER = re.compile(r"\d[\d.,:]*")


def _distinct(text: str, other: str) -> list[str]:
    """Content words (and numbers) of ``text`` that ``other`` does not have, in order."""
    theirs = concept_words(other) | set(_NUMBER.findall(other))
    mine = key_words(text, limit=99) + _NUMBER.findall(text)
    seen: list[str] = []
    for word in mine:
        if word not in theirs and word not in seen:
            seen.append(word)
    return seen[:3]
