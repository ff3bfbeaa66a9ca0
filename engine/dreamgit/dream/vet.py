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

from collections.abc import Iterator, Sequence
from datetime import datetime

from dreamgit.dream.envs import RuleValues, rule_values_each
from dreamgit.dsl import Expression, ExpressionError
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.context import names_read
from dreamgit.ruleset.source import Location

__all__ = ["evaluation_error", "vet_memories"]

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

    ``also``: expressions a later phase evaluates on every memory (the index's promotion
    check), evaluated here while each good memory's environment is at hand and kept with
    its rule values; they are not vetted (a failure is not kept: it is raised where the
    phase reads it)."""
    checks = list(_memory_checks(ruleset))
    names = names_read([*(expr for _name, _where, expr in checks), *also])
    good: list[Memory] = []
    broken: list[MemoryFileError] = []
    for memory, values in zip(memories, rule_values_each(memories, now), strict=True):
        values.fill(names)  # looked up once for all the checks
        try:
            problem = _failure(memory, values, checks)
            if problem is None and also:
                _evaluate_quietly(values, also)
        finally:
            values.release()  # the values are kept; the environment is not, for every memory
        if problem is None:
            good.append(memory)
        else:
            broken.append(problem)
    return good, broken


def _failure(
    memory: Memory, values: RuleValues, checks: list[tuple[str, Location | None, Expression]]
) -> MemoryFileError | None:
    try:
        # the one name a memory's dates can fail (a day at the calendar's end, a time too
        # far to convert): read here, whether a rule reads it or not, to be named as such
        values.env["since_day"]
    except (ArithmeticError, ValueError) as exc:
        return evaluation_error(memory.path, memory.id, "rank", None, f"its dates: {exc}")
    for name, location, expr in checks:
        try:
            values[expr]  # kept: health, prune and rank read it again
        except ExpressionError as exc:
            return evaluation_error(memory.path, memory.id, name, location, exc.reason)
    return None


def _evaluate_quietly(values: RuleValues, expressions: Sequence[Expression]) -> None:
    for expr in expressions:
        # a failure is not kept: the phase that reads the value raises it again, as before
        try:  # noqa: SIM105 - contextlib.suppress costs a microsecond, for every memory
            values[expr]
        except Exception:
            pass
