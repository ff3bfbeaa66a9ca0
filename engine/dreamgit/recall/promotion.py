"""Promotion by recall signals: OpenClaw's deep phase, as rules.

A candidate (short-term material: the rule set's ``promotion.candidates``,
by default low-priority and ephemeral memories) gets a score, the weighted sum
of its signals (weights renormalised to sum to 1, negative ones taken as 0),
and is promoted to ``promotion.promote_to`` when every gate holds. One function,
:func:`explain`, computes every figure; the preview, ``--explain`` and
``--apply`` all read its result, so they cannot disagree.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dreamgit import trailers as tr
from dreamgit.errors import NotFoundError
from dreamgit.model import Memory
from dreamgit.recall.settings import Settings, load_settings
from dreamgit.ruleset.context import memory_env
from dreamgit.store.memoryfile import (
    decode_text,
    memory_from_record,
    parse_memory_record,
    render_memory,
)
from dreamgit.store.repo import MemoryRepo

__all__ = ["Explained", "apply_promotions", "explain", "explain_id", "plan_promotions"]


@dataclass
class Explained:
    """Every figure of one memory's promotion: signals, weights, gates and the result."""

    memory: Memory
    candidate: bool
    signals: list[dict[str, Any]]
    score: float
    gates: list[dict[str, Any]]

    @property
    def promote(self) -> bool:
        """Whether the memory is promoted: a candidate that passes every gate."""
        return self.candidate and all(g["passed"] for g in self.gates)

    def to_dict(self) -> dict[str, Any]:
        """As JSON values (``promote --explain ID --json``)."""
        return {
            "id": self.memory.id,
            "path": self.memory.path,
            "priority": self.memory.priority,
            "candidate": self.candidate,
            "signals": self.signals,
            "score": round(self.score, 6),
            "gates": self.gates,
            "promote": self.promote,
        }


def explain(memory: Memory, settings: Settings, *, now: datetime) -> Explained:
    """Compute every signal, its weight and contribution, the score and each gate."""
    env = memory_env(memory, now)
    pro = settings.promotion
    total = sum(s.weight for s in pro.signals) or 1.0
    rows, score = [], 0.0
    for signal in pro.signals:
        value = float(signal.value.evaluate(env))
        weight = signal.weight / total
        score += weight * value
        rows.append(
            {
                "name": signal.name,
                "value": round(value, 6),
                "weight": round(weight, 6),
                "contribution": round(weight * value, 6),
                "expression": signal.value.text,
            }
        )
    score = min(1.0, max(0.0, score))
    gate_env = {**env, "score": score}
    gates = [
        {"name": g.name, "when": g.when.text, "passed": bool(g.when.evaluate(gate_env))}
        for g in pro.gates
    ]
    candidate = bool(pro.candidates.evaluate(env))
    return Explained(memory, candidate, rows, score, gates)


def plan_promotions(
    repo: MemoryRepo, *, now: datetime, limit: int | None = None, settings: Settings | None = None
) -> list[Explained]:
    """The promotions to make now, best score first (then more recalls, then path)."""
    settings = settings or load_settings(repo)
    found = [explain(m, settings, now=now) for m in repo.snapshot(now=now).memories]
    chosen = [e for e in found if e.promote]
    chosen.sort(
        key=lambda e: (-e.score, -(e.memory.recall.count if e.memory.recall else 0), e.memory.path)
    )
    cap = settings.promotion.limit if limit is None else limit
    return chosen[: max(0, cap)]


def explain_id(repo: MemoryRepo, memory_id: str, *, now: datetime) -> Explained:
    """The promotion figures of one active memory."""
    memory = repo.get_memory(memory_id, now=now)
    return explain(memory, load_settings(repo), now=now)


def apply_promotions(
    repo: MemoryRepo, *, now: datetime, limit: int | None = None
) -> list[tuple[Explained, str | None]]:
    """Promote what :func:`plan_promotions` chose: one commit each, with trailers."""
    settings = load_settings(repo)
    done = []
    for item in plan_promotions(repo, now=now, limit=limit, settings=settings):
        target = settings.promotion.target(item.memory.tags)
        done.append((item, _promote(repo, item, target, now=now)))
    return done


def _promote(repo: MemoryRepo, item: Explained, priority: str, *, now: datetime) -> str | None:
    path = item.memory.path

    def build(tip: str | None) -> dict[str, bytes | None]:
        data = repo.store.read_path(tip, path)
        if data is None:
            raise NotFoundError(
                f"{path} went away before it could be promoted", hint="run promote again"
            )
        # Read the file itself: the snapshot's memory carries folded counters too.
        record = parse_memory_record(decode_text(data, path=path), path=path)
        memory = memory_from_record(record, path=path, now=now)
        promoted = dataclasses.replace(memory, priority=priority, updated=now)
        return {path: render_memory(promoted).encode("utf-8")}

    signals = ", ".join(f"{s['name']}={s['value']:.3f}" for s in item.signals)
    message = (
        f"promote: {item.memory.id} to {priority} (score {item.score:.3f})\n\n"
        f"{signals}\n\n"
        + tr.trailers(
            (tr.PHASE, "promote"),
            (tr.OP, "promote"),
            (tr.RULE, "promotion"),
            (tr.MEMORY, item.memory.id),
            (tr.SCORE, f"{item.score:.6f}"),
        )
    )
    return repo.commit_main(message, build, now=now)
