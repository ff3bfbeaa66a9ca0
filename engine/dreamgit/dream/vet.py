"""Memories the rules cannot evaluate: found before a dream plans, reported, and left out.

A rule is checked when it loads, but its value depends on each memory: a memory
written by hand with ``created: 9999-12-31`` makes ``exp(-days(age) / 30)``
overflow, a zero in the wrong place divides by zero. Such a memory must not stop
the dream for every other memory, nor be blamed on nobody. Before planning, every
memory rule (``rank``, the prune rules) is evaluated once for every memory; a memory
that makes one fail is reported as broken, naming the memory, the rule and where
the rule is written, and is left out of the run (its file is not touched). Rules
comparing two memories are guarded where the pairs are made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from dreamgit.dream.envs import UNSET, put, rule_table
from dreamgit.dsl import Expression, ExpressionError, evaluate_each
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.context import names_read
from dreamgit.ruleset.source import Location

__all__ = ["evaluation_error", "vet_memories"]

#: How many memories vetting evaluates in one joined function from (``_at_once``).
_AT_ONCE_FROM = 5000

_HINT = (
    "check the memory's front matter (dates, numbers) or make the rule safe for it;"
    " the memory is left out of dreams until then"
)


def evaluation_error(
    path: str, subject: str, rule: str, location: Location | None, reason: str
) -> MemoryFileError:
    """The report of a rule that failed on ``subject`` (one memory, or a pair)."""
    where = f" ({location})" if location is not None else ""
    return MemoryFileError(
        path, f"rule {rule}{where} cannot be evaluated for {subject}: {reason}", hint=_HINT
    )


def _memory_checks(ruleset: RuleSet) -> Iterator[tuple[str, Location | None, Expression]]:
    yield "rank", ruleset.rank_location, ruleset.rank
    for rule in ruleset.prune:
        yield rule.name, rule.location, rule.when
        if rule.score is not None:
            yield f"{rule.name}.score", rule.location, rule.score


def vet_memories(
    memories: Sequence[Memory],
    ruleset: RuleSet,
    now: datetime,
    *,
    also: Sequence[Expression] = (),
) -> tuple[list[Memory], list[MemoryFileError]]:
    """The memories every memory rule can evaluate, and a report for each other one.

    Each memory's values are kept (``envs.RuleTable``): health, prune and rank read them
    again. ``also``: expressions a later phase evaluates on every memory (the index's
    promotion check), evaluated here while each good memory's environment is at hand and
    kept with its rule values; they are not vetted (a failure is not kept: it is raised
    where the phase reads it). A memory's checks and those expressions are evaluated in
    one call (``dsl.evaluate_each``); when one of them fails, each is evaluated alone,
    so a failure is reported, and a value kept, as each alone gives it."""
    table = rule_table(now)
    checks = [(name, at, expr, table.place(expr)) for name, at, expr in _memory_checks(ruleset)]
    names = names_read([*(expr for _name, _where, expr, _at in checks), *also])
    later = [(expr, table.place(expr)) for expr in also]
    # one function for every check and later expression, only over many memories: its
    # compiling costs more than it saves a small store's command
    at_once = _at_once(checks, later) if len(memories) >= _AT_ONCE_FROM else None
    # the names read straight from the fields computed at once, for all the checks;
    # the environment is let go after, for every memory (the values are kept)
    vetted = table.vetting(names)
    good: list[Memory] = []
    broken: list[MemoryFileError] = []
    for memory in memories:
        row, env = vetted(memory)
        problem = _failure(memory, row, env, checks, at_once)
        if problem is None:
            if later:
                _evaluate_quietly(row, env, later)
            good.append(memory)
        else:
            broken.append(problem)
    return good, broken


def _at_once(
    checks: list[tuple[str, Location | None, Expression, int]],
    later: list[tuple[Expression, int]],
) -> Callable[[Mapping[str, object]], tuple[Any, ...]] | None:
    """One function giving every check's value and then every later expression's, in
    one call (``dsl.evaluate_each``), when a memory's list holds them in that order
    right after the memory (a table no other phase placed an expression in first)."""
    expressions = [check[2] for check in checks] + [expr for expr, _at in later]
    places = [check[3] for check in checks] + [at for _expr, at in later]
    if places != list(range(1, len(places) + 1)):
        return None
    return evaluate_each(expressions)


def _failure(
    memory: Memory,
    row: list[Any],
    env: Mapping[str, object],
    checks: list[tuple[str, Location | None, Expression, int]],
    at_once: Callable[[Mapping[str, object]], tuple[Any, ...]] | None,
) -> MemoryFileError | None:
    try:
        # the one name a memory's dates can fail (a day at the calendar's end, a time too
        # far to convert): read here, whether a rule reads it or not, to be named as such
        env["since_day"]
    except (ArithmeticError, ValueError) as exc:
        return evaluation_error(memory.path, memory.id, "rank", None, f"its dates: {exc}")
    if at_once is not None and len(row) == 1:  # the usual case: nothing kept yet
        try:
            values = at_once(env)
        except Exception:  # each is evaluated alone below: its value, or its error as reported
            values = None
        if values is not None:
            row.extend(values)
            return None
    for name, location, expr, at in checks:
        if at < len(row) and row[at] is not UNSET:
            continue  # kept already
        try:
            value = expr.evaluate(env)
        except ExpressionError as exc:
            return evaluation_error(memory.path, memory.id, name, location, exc.reason)
        if at == len(row):  # the usual case: a memory's values kept in the checks' order
            row.append(value)
        else:
            put(row, at, value)
    return None


def _evaluate_quietly(
    row: list[Any], env: Mapping[str, object], expressions: list[tuple[Expression, int]]
) -> None:
    for expr, at in expressions:
        if at < len(row) and row[at] is not UNSET:
            continue
        # a failure is not kept: the phase that reads the value raises it again, as before
        try:
            value = expr.evaluate(env)
        except Exception:  # not vetting's to report
            continue
        put(row, at, value)
