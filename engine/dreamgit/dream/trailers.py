"""Commit messages of dream operations: a subject and ``Dream-*`` trailers git can parse."""

from __future__ import annotations

from dreamgit.dream.workset import Operation

__all__ = ["operation_message"]


def operation_message(op: Operation, *, run_id: str) -> str:
    """``<subject>\\n\\n<detail>\\n\\nDream-Run: …`` with phase, op, rule, memory ids, source."""
    trailers = [
        f"Dream-Run: {run_id}",
        f"Dream-Phase: {op.phase}",
        f"Dream-Op: {op.op}",
        f"Dream-Rule: {op.rule}",
    ]
    if op.memories:
        trailers.append(f"Dream-Memory: {', '.join(op.memories)}")
    trailers.append(f"Dream-Source: {op.source}")
    if op.model:
        trailers.append(f"Dream-Model: {op.model}")
    body = f"\n\n{op.detail.strip()}" if op.detail.strip() else ""
    return f"{op.summary}{body}\n\n" + "\n".join(trailers) + "\n"
