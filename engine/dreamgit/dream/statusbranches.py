"""The unmerged dream branches as ``status`` lists them, from each branch's state.

:func:`dreamgit.dream.status.branch_states` reads each branch's state through git; the
lists a status prints follow from those states and whether a dream runs now. The lean
status (:mod:`dreamgit.dream.leanstatus`) lists them from the states a view kept, through
the same function, without importing git.
"""

from __future__ import annotations

from typing import Any

__all__ = ["branches_by_state"]


def branches_by_state(
    states: list[tuple[str, str, str | None]], *, dreaming: bool
) -> dict[str, Any]:
    """:func:`dream_branches`' lists from :func:`branch_states`, a dream running or not."""
    awaiting, abandoned, running = [], [], []
    refused: list[dict[str, str]] = []
    for name, state, why in states:
        if state == "refused" and why is not None:
            refused.append({"branch": name, "reason": why})
        elif state == "awaiting":
            awaiting.append(name)
        elif state == "unrecorded" and dreaming:
            running.append(name)
        else:
            abandoned.append(name)
    return {
        "awaiting_review": awaiting,
        "refused": refused,
        "abandoned": abandoned,
        "running": running,
    }
