"""Running memory tests through the recall an agent uses, at one revision.

Each test's query goes through ``recall`` with the repository's own settings (the
same ranking, grouping and result budget ``dreamgit recall`` and the MCP server
use), leaving no recall signal. The answer is the recalled texts; a test passes
when every expected text is in it and no forbidden one is, case aside. Each
result carries the answer's size in characters and estimated tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dreamgit import trailers as tr
from dreamgit.errors import UserError
from dreamgit.history.runrecords import read_runs
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import indexed_memories, recall
from dreamgit.recall.settings import load_settings
from dreamgit.report.memtests import (
    TESTS_PATH,
    MemoryTest,
    add_test_text,
    derived_tests,
    parse_tests,
)
from dreamgit.report.tokens import estimate_tokens
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.repo_rules import repo_ruleset
from dreamgit.store.repo import MemoryRepo

__all__ = ["Outcome", "Suite", "SuiteRun", "add_test", "collect_tests", "run_tests"]


@dataclass(frozen=True)
class Outcome:
    """How one test did: what was missing or forbidden in the answer, and its size."""

    test: MemoryTest
    missing: tuple[str, ...]
    forbidden: tuple[str, ...]
    chars: int
    tokens: int

    @property
    def passed(self) -> bool:
        """True when every expected text was found and no forbidden one."""
        return not self.missing and not self.forbidden

    def why(self) -> str:
        """What went wrong, in words; empty when the test passed."""
        parts = []
        if self.missing:
            parts.append("missing " + ", ".join(repr(t) for t in self.missing))
        if self.forbidden:
            parts.append("still says " + ", ".join(repr(t) for t in self.forbidden))
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values."""
        return {
            **self.test.to_json(),
            "passed": self.passed,
            "missing": list(self.missing),
            "forbidden": list(self.forbidden),
            "chars": self.chars,
            "tokens": self.tokens,
        }


@dataclass(frozen=True)
class Suite:
    """The tests at a revision, and the problems of the file that holds the written ones."""

    tests: list[MemoryTest]
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SuiteRun:
    """The results of a suite at one revision."""

    rev: str | None
    results: list[Outcome]
    problems: list[str]

    @property
    def failed(self) -> list[Outcome]:
        """The tests that failed."""
        return [r for r in self.results if not r.passed]

    def to_json(self) -> dict[str, Any]:
        """The run as ``test --json`` prints it."""
        return {
            "rev": self.rev,
            "passed": len(self.results) - len(self.failed),
            "failed": len(self.failed),
            "problems": self.problems,
            "tests": [r.to_json() for r in self.results],
        }


def collect_tests(
    repo: MemoryRepo,
    at: str | None,
    *,
    now: datetime,
    rules: RuleSet | None = None,
    records: list[dict[str, Any]] | None = None,
) -> Suite:
    """The written tests at ``at`` and those derived from its memories and run records
    (``records``: the records at ``at``, when the caller has them with one not yet written)."""
    written, problems = parse_tests(repo.read_text(TESTS_PATH, at))
    rules = rules if rules is not None else repo_ruleset(repo)
    memories = indexed_memories(repo, now=now, at=at)  # what recall reads: one parse
    records = records if records is not None else read_runs(repo.store, at)
    derived = derived_tests(memories, records, rules)
    names = {t.name for t in written}
    return Suite([*written, *(t for t in derived if t.name not in names)], problems)


def run_tests(repo: MemoryRepo, suite: Suite, at: str | None, *, now: datetime) -> SuiteRun:
    """Each test of ``suite`` through recall at ``at``."""
    settings = load_settings(repo)
    results = []
    for test in suite.tests:
        ask = RecallQuery(test.query, record=False)
        found = recall(repo, ask, now=now, at=at, settings=settings)
        answer = "\n".join(h.memory.text for h in found.hits)
        low = answer.lower()
        results.append(
            Outcome(
                test,
                missing=tuple(t for t in test.expect if t.lower() not in low),
                forbidden=tuple(t for t in test.forbid if t.lower() in low),
                chars=len(answer),
                tokens=estimate_tokens(answer),
            )
        )
    return SuiteRun(at, results, list(suite.problems))


def add_test(
    repo: MemoryRepo, query: str, expect: list[str], forbid: list[str], *, now: datetime
) -> MemoryTest:
    """Append a written test to ``.dreamgit/tests.yaml`` on main (one commit); returns it."""
    if not query.strip():
        raise UserError("the test's query is empty", hint='dreamgit test add "QUERY" --expect TEXT')
    if not [e for e in expect if e.strip()] and not [f for f in forbid if f.strip()]:
        raise UserError(
            "the test expects nothing",
            hint="give --expect TEXT (the answer must hold it) or --not OLD (it must not)",
        )

    def build(tip: str | None) -> dict[str, bytes | None]:
        try:
            text = add_test_text(repo.read_text(TESTS_PATH, tip), query, expect, forbid)
        except ValueError as exc:
            raise UserError(str(exc), hint=f"fix {TESTS_PATH} first; nothing was added") from None
        return {TESTS_PATH: text.encode("utf-8")}

    message = f"test: add {query.strip()!r}\n\n" + tr.trailers((tr.OP, "test-add"))
    repo.commit_main(message, build, now=now)
    tests, _ = parse_tests(repo.read_text(TESTS_PATH))
    return tests[-1]
