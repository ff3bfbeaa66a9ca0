"""The test gate of a dream: the memory tests on its branch against main, before it merges.

The suite is the union of the tests at main and at the branch's tip, so a test the
dream would derive away (a protected memory merged out of existence) still runs.
It runs on the branch; the tests that fail there run on main too.
Left out: a supersession test whose new value the dream itself superseded again or
pruned (a moved deadline whose new day is over), and a recallability test of a memory
the dream retired for a newer value; each newer supersession brings its own test. A
test that passes on main and fails on the branch is *broken* (a memory that must stay
recallable only when the run changed it: outranked by newer memories, it is listed as
failing, not broken); with
``tests: {gate: block}`` (the default) a run that broke one is not merged but left for
review, naming it. ``advisory`` records and reports the results and merges anyway;
``off`` runs no tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from dreamgit.errors import ConfigError
from dreamgit.history.runrecords import read_runs
from dreamgit.report.memtests import retired_ids, superseded_ids
from dreamgit.report.testrun import Suite, collect_tests, run_tests
from dreamgit.ruleset.repo_rules import repo_ruleset
from dreamgit.ruleset.vocabulary import TEST_GATES
from dreamgit.store import layout
from dreamgit.store.config import read_config
from dreamgit.store.repo import MemoryRepo

__all__ = ["gate_mode", "memory_gate"]


def gate_mode(repo: MemoryRepo, at: str | None) -> str:
    """The configured gate at ``at``: ``block`` (default), ``advisory`` or ``off``.

    The rule loader has checked the value (``ruleset.layer``) before any dream starts;
    a value it could not have seen is still refused here rather than guessed.
    """
    section = read_config(repo.read_text(layout.CONFIG, at)).get("tests") or {}
    mode = section.get("gate", "block") if isinstance(section, dict) else None
    if mode not in TEST_GATES:
        raise ConfigError(
            f"{layout.CONFIG}: tests.gate must be one of {', '.join(TEST_GATES)}, not {mode!r}",
            hint="e.g. `tests: {gate: advisory}` to report broken tests without holding the merge",
        )
    return str(mode)


def memory_gate(
    repo: MemoryRepo, *, base: str | None, tip: str, record: Mapping[str, Any], now: datetime
) -> dict[str, Any] | None:
    """The tests' verdict on a dream branch, as its run record keeps it; None when off.

    ``record`` is the run's record, not yet committed: its supersessions count.

    ``{"gate", "passed", "failed", "new", "broken": [{name, why}], "held"}``:
    ``held`` is True when the run must be left for review.
    """
    mode = gate_mode(repo, base)
    if mode == "off":
        return None
    rules = repo_ruleset(repo)
    on_main = collect_tests(repo, base, now=now, rules=rules)
    records = [*read_runs(repo.store, tip), dict(record)]
    on_branch = collect_tests(repo, tip, now=now, rules=rules, records=records)
    superseded = superseded_ids(records)
    names = {t.name for t in on_branch.tests}
    # a memory this run retired for a newer value is tested by that supersession's own
    # test (the new value found, the old not); dreams never retire a protected one
    retired_now = superseded_ids([dict(record)])
    # a newer value whose time is over (a moved deadline after its new day) leaves by a
    # prune rule: the old one stays retired, and there is no current value to find
    pruned_now = retired_ids([dict(record)], ("prune",))
    kept = [
        t
        for t in on_main.tests
        if t.name not in names
        and not (t.origin == "supersession" and t.memory in superseded | pruned_now)
        and not (t.origin == "protected" and t.memory in retired_now)
    ]
    suite = Suite([*on_branch.tests, *kept], on_branch.problems)
    main_names = {t.name for t in on_main.tests}
    after = run_tests(repo, suite, tip, now=now)
    # Only a test failing on the branch can be broken: only those run on main too.
    failing = {r.test.name for r in after.failed} & main_names
    before = run_tests(repo, Suite([t for t in suite.tests if t.name in failing]), base, now=now)
    passed_before = {r.test.name for r in before.results if r.passed}
    touched = _touched(record)
    broken = [
        {"name": r.test.name, "why": r.why()}
        for r in after.failed
        if r.test.name in passed_before and _the_runs_doing(r.test.origin, r.test.memory, touched)
    ]
    return {
        "gate": mode,
        "passed": len(after.results) - len(after.failed),
        "failed": len(after.failed),
        "new": len(names - main_names),
        "broken": broken,
        "failing": [{"name": r.test.name, "why": r.why()} for r in after.failed],
        "problems": after.problems,
        "held": mode == "block" and bool(broken),
    }


def _touched(record: Mapping[str, Any]) -> set[str]:
    """The memories whose text the run's operations changed, or that they retired (a
    reinforcement adds a source and leaves the text as it was)."""
    touched: set[str] = set()
    for op in record.get("ops") or []:
        if not isinstance(op, Mapping):
            continue
        snaps = [s for s in op.get("after") or [] if isinstance(s, Mapping)]
        after = {s.get("id"): s.get("text") for s in snaps}
        for before in op.get("before") or []:
            if isinstance(before, Mapping) and after.get(before.get("id")) != before.get("text"):
                touched.add(str(before.get("id")))
    return touched


def _the_runs_doing(origin: str, memory: str | None, touched: set[str]) -> bool:
    """Whether a test that fails on the branch failed through what the run did.

    A memory that must stay recallable and that the run left as it was can only have
    been outranked by newer memories about the same things: that is the store growing,
    reported among the failing tests, not a consolidation that broke it (holding such
    a run would hold every later night's too). Written and supersession tests, and a
    memory the run changed, count whatever the cause."""
    return origin != "protected" or memory is None or memory in touched
