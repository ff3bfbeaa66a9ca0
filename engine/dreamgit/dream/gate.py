"""The gate: whether a dream is due, decided by the rule set's ``gate`` expression."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from dreamgit.dsl import Expression, ExpressionError
from dreamgit.errors import RuleError
from dreamgit.ruleset.context import gate_env

__all__ = ["GateRules", "evaluate_gate"]


class GateRules(Protocol):
    """What the gate reads of a rule set (a ``RuleSet`` is one; the lean status makes
    one from the gate's text)."""

    @property
    def gate(self) -> Expression | None:
        """The compiled gate, None when the rules have none."""

    @property
    def gate_location(self) -> object | None:
        """Where the gate was written, for messages."""

    @property
    def gate_text(self) -> str | None:
        """The gate as written."""


def evaluate_gate(
    ruleset: GateRules,
    *,
    new_sessions: int,
    last_dream: datetime | None,
    memories: int,
    pending_chars: int,
    now: datetime,
) -> tuple[bool, str]:
    """(due, reason): the gate's verdict with the figures it looked at."""
    figures = f"{new_sessions} new session(s), last dream {_since(last_dream, now)}"
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


def _since(last_dream: datetime | None, now: datetime) -> str:
    """``2.5 h``; a time after now is the clock's fault and is said so."""
    if last_dream is None:
        return "never"
    hours = (now - last_dream).total_seconds() / 3600
    if hours < 0:
        return f"{-hours:.1f} h in the future (is this machine's clock behind?)"
    return f"{hours:.1f} h"
