"""The gate: whether a dream is due, decided by the rule set's ``gate`` expression."""

from __future__ import annotations

from datetime import datetime

from dreamgit.dsl import ExpressionError
from dreamgit.errors import RuleError
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.context import gate_env

__all__ = ["evaluate_gate"]


def evaluate_gate(
    ruleset: RuleSet,
    *,
    new_sessions: int,
    last_dream: datetime | None,
    memories: int,
    pending_chars: int,
    now: datetime,
) -> tuple[bool, str]:
    """(due, reason): the gate's verdict with the figures it looked at."""
    since = "never" if last_dream is None else f"{(now - last_dream).total_seconds() / 3600:.1f} h"
    figures = f"{new_sessions} new session(s), last dream {since}"
    if ruleset.gate is None:
        return True, f"no gate in the rules ({figures})"
    env = gate_env(
        new_sessions=new_sessions,
        last_dream=last_dream,
        memories=memories,
        pending_chars=pending_chars,
        now=now,
    )
    try:
        holds = ruleset.gate.evaluate(env)
    except ExpressionError as exc:
        where = f" ({ruleset.gate_location})" if ruleset.gate_location is not None else ""
        raise RuleError(
            f"the gate{where} cannot be evaluated with {figures}: {exc.reason}",
            hint="make the gate safe for every figure (a count may be 0)",
        ) from None
    if holds:
        return True, f"gate holds: {figures}"
    return False, f"gate not met ({ruleset.gate_text}): {figures}"
