"""Commit messages of dream operations: a subject and ``Dream-*`` trailers git can parse."""

from __future__ import annotations

from dreamgit import trailers as tr
from dreamgit.dream.workset import Operation

__all__ = ["operation_message"]


def operation_message(op: Operation, *, run_id: str) -> str:
    """``<subject>\\n\\n<detail>\\n\\nDream-Run: …`` with phase, op, rule, memory ids, source."""
    pairs: list[tuple[str, object]] = [
        (tr.RUN, run_id),
        (tr.PHASE, op.phase),
        (tr.OP, op.op),
        (tr.RULE, op.rule),
    ]
    if op.memories:
        pairs.append((tr.MEMORY, ", ".join(op.memories)))
    pairs.append((tr.SOURCE, op.source))
    if op.model:
        pairs.append((tr.MODEL, op.model))
    body = f"\n\n{op.detail.strip()}" if op.detail.strip() else ""
    return f"{op.summary}{body}\n\n" + tr.trailers(*pairs) + "\n"
