"""The proposal contract: the JSON an LLM answers, parsed strictly, then judged by the rules.

An answer is one JSON object ``{"proposals": [...]}``. Each proposal has an
``op`` and the fields that op takes (``*`` marks the required ones):

====================  ==========================================================
``add``               text*, topic*, confidence*, sources*, reason*, type,
                      priority, key
``merge``             ids* (two or more), text*, confidence*, reason*, topic,
                      type, priority, key, supersession_confidence
``replace``           ids* (exactly one), text*, confidence*,
                      supersession_confidence*, reason*, topic, type, priority, key
``remove``            ids*, supersession_confidence*, reason*, confidence, and
                      evidence: by (a newer memory), or sources with a quote
``supersede``         ids* (the older memories), by* (the newer one),
                      supersession_confidence*, reason*, confidence
====================  ==========================================================

``confidence`` and ``supersession_confidence`` are numbers from 0 to 1, ``type``
is a memory type, ``priority`` a priority name, ``sources`` session ids and
``quote`` a passage of the session named in ``sources`` and
``null`` means absent. Anything else (an unknown field, a wrong type, a field the
op does not take) makes the whole answer malformed, with a reason precise
enough to send back in the one repair request. The contract itself is the pydantic
models of :mod:`dreamgit.llm.contract` (and their JSON Schema); this module reads
the JSON and turns each model into a :class:`Proposal`. :func:`validate_proposals` then
applies the deterministic gates: ids must be among the memories sent, protected
and core memories are never touched, instruction-shaped text is never stored,
thresholds and per-run limits hold; the caller checks a removal's evidence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from dreamgit.errors import ProposalFormatError
from dreamgit.llm.injection import instruction_shape
from dreamgit.llm.runlimits import REMOVING_OPS, RunLimits
from dreamgit.model import priority_rank
from dreamgit.records import Decision as RecordedDecision

__all__ = [
    "Decision",
    "Proposal",
    "ProposalFormatError",
    "RunLimits",
    "Thresholds",
    "parse_proposals",
    "validate_proposals",
]

_FENCED = re.compile(r"```[A-Za-z]*[ \t]*\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Proposal:
    """One operation an LLM proposed; fields the op does not take are None or empty."""

    op: str
    reason: str
    ids: tuple[str, ...] = ()
    by: str | None = None
    text: str | None = None
    topic: str | None = None
    type: str | None = None
    priority: str | None = None
    key: str | None = None
    confidence: float | None = None
    supersession_confidence: float | None = None
    sources: tuple[str, ...] = ()
    quote: str | None = None
    #: Position in the answer, for messages (``proposals[2]``).
    index: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The proposal as JSON-ready data, without empty fields (for run records)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "index" or value is None or value == ():
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Decision:
    """What the rules decided about one proposal, and why."""

    proposal: Proposal
    accepted: bool
    reason: str

    def to_dict(self) -> RecordedDecision:
        """``{"proposal", "accepted", "reason"}``, the shape of a run record's decisions."""
        return {
            "proposal": self.proposal.to_dict(),
            "accepted": self.accepted,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Thresholds:
    """The rule set's minimum confidences for each kind of proposal (Hermes' defaults)."""

    add_min: float = 0.88
    merge_min: float = 0.80
    replace_min: float = 0.80
    supersession_min: float = 0.75
    remove_min: float = 0.85
    #: The highest priority a proposal may set; ``core`` is for people to give.
    max_priority: str = "high"

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Thresholds:
        """Thresholds from the rules' ``proposals`` section; other keys there are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in known})


# --- parsing ---------------------------------------------------------------------------


def parse_proposals(text: str) -> list[Proposal]:
    """Parse an answer into proposals, or raise ProposalFormatError saying what is wrong.

    The JSON is read here (fenced or in prose, no duplicate fields, no NaN); what it
    must hold is the contract's models (:mod:`dreamgit.llm.contract`).
    """
    from dreamgit.llm.contract import validate_answer  # pydantic: only once a model answered

    models = validate_answer(_extract_json(text))
    return [Proposal(**m.model_dump(exclude_none=True), index=i) for i, m in enumerate(models)]


def _extract_json(text: str) -> Any:
    stripped = text.strip()
    if not stripped:
        raise ProposalFormatError("the answer is empty")
    fenced = _FENCED.search(stripped)
    candidates = [fenced.group(1).strip()] if fenced else [stripped]
    if not fenced and not stripped.startswith(("{", "[")):
        start, end = stripped.find("{"), stripped.rfind("}")
        if 0 <= start < end:
            candidates.append(stripped[start : end + 1])
    error: json.JSONDecodeError | None = None
    for candidate in candidates:
        try:
            return json.loads(candidate, object_pairs_hook=_no_duplicates, parse_constant=_no_nan)
        except json.JSONDecodeError as exc:
            error = error or exc
        except RecursionError:
            raise ProposalFormatError("the JSON is nested too deeply") from None
    assert error is not None
    raise ProposalFormatError(
        f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
    )


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProposalFormatError(f'duplicate field "{key}" in one object')
        out[key] = value
    return out


def _no_nan(name: str) -> Any:
    raise ProposalFormatError(f"{name} is not a number JSON allows")


# --- the gates -------------------------------------------------------------------------


def validate_proposals(
    proposals: Sequence[Proposal],
    *,
    known_ids: Collection[str],
    is_protected: Callable[[str], bool],
    thresholds: Thresholds,
    limits: RunLimits,
    known_sources: Collection[str] | None = None,
    evidence: Callable[[Proposal], str | None] | None = None,
) -> tuple[list[Decision], list[Decision]]:
    """Judge proposals by the rules; return (accepted, rejected), each with its reason.

    ``known_ids`` are the memories that were sent with the prompt: a proposal
    naming any other id is rejected, as is one that changes a memory for which
    ``is_protected`` holds. ``known_sources`` (session ids sent) is checked
    against an add's sources when given; ``evidence`` says why a proposal lacks
    the evidence its op needs (None: it has it). ``limits`` is updated for every
    accepted proposal, so later calls in the same run see what is used.
    """
    accepted: list[Decision] = []
    rejected: list[Decision] = []
    for proposal in proposals:
        reason = _refusal(
            proposal, known_ids, is_protected, thresholds, limits, known_sources, evidence
        )
        if reason is not None:
            rejected.append(Decision(proposal, False, reason))
            continue
        limits.changes += 1
        limits.adds += proposal.op == "add"
        limits.new_chars += len(proposal.text or "")
        limits.removals += len(proposal.ids) if proposal.op in REMOVING_OPS else 0
        limits.touched.update(proposal.ids)
        accepted.append(Decision(proposal, True, _acceptance(proposal, thresholds)))
    return accepted, rejected


def _refusal(
    p: Proposal,
    known_ids: Collection[str],
    is_protected: Callable[[str], bool],
    thresholds: Thresholds,
    limits: RunLimits,
    known_sources: Collection[str] | None,
    evidence: Callable[[Proposal], str | None] | None = None,
) -> str | None:
    for memory_id in (*p.ids, *((p.by,) if p.by else ())):
        if memory_id not in known_ids:
            return f"unknown memory id {memory_id}: not among the memories sent"
    if known_sources is not None:
        for source in p.sources:
            if source not in known_sources:
                return f"unknown session id {source}: not among the sessions sent"
    # A supersession rewrites `by` (its `supersedes` grows); a removal's `by` is evidence.
    rewritten = (p.by,) if p.by and p.op != "remove" else ()
    for memory_id in (*p.ids, *rewritten):
        if is_protected(memory_id):
            return f"{memory_id} is protected (core or a protected topic): never changed by a dream"
    if p.priority is not None and priority_rank(p.priority) > priority_rank(
        thresholds.max_priority
    ):
        return (
            f"priority {p.priority} is above {thresholds.max_priority}, the most a proposal may set"
        )
    for memory_id in (*p.ids, *((p.by,) if p.by else ())):
        if memory_id in limits.touched:
            return f"{memory_id} is already changed by this run"
    shape = instruction_shape(p.text) if p.text else None
    if shape is not None:
        return f"text is shaped like an instruction to a model ({shape}): never stored as memory"
    missing = evidence(p) if evidence is not None else None
    if missing is not None:
        return missing
    low = _under_threshold(p, thresholds)
    if low is not None:
        return low
    if limits.changes >= limits.max_changes:
        return f"max_changes_per_run ({limits.max_changes}) reached"
    if p.op == "add" and limits.adds >= limits.max_adds:
        return f"max_adds_per_run ({limits.max_adds}) reached"
    if p.op in REMOVING_OPS and limits.removals + len(p.ids) > limits.max_removals:
        return (
            f"max_removals_per_run ({limits.max_removals}) would be exceeded: "
            f"{limits.removals} removed, {len(p.ids)} more"
        )
    size = len(p.text or "")
    if size and limits.new_chars + size > limits.max_new_chars:
        return (
            f"max_new_chars_per_run ({limits.max_new_chars}) would be exceeded: "
            f"{limits.new_chars} used, {size} more"
        )
    return None


def _gates(p: Proposal, t: Thresholds) -> list[tuple[str, float | None, str, float]]:
    """(field, value, threshold name, minimum) pairs the op must meet."""
    conf, sup = p.confidence, p.supersession_confidence
    table: dict[str, list[tuple[str, float | None, str, float]]] = {
        "add": [("confidence", conf, "add_min", t.add_min)],
        "merge": [("confidence", conf, "merge_min", t.merge_min)],
        "replace": [
            ("confidence", conf, "replace_min", t.replace_min),
            ("supersession_confidence", sup, "supersession_min", t.supersession_min),
        ],
        "remove": [("supersession_confidence", sup, "remove_min", t.remove_min)],
        "supersede": [("supersession_confidence", sup, "supersession_min", t.supersession_min)],
    }
    return table[p.op]


def _under_threshold(p: Proposal, t: Thresholds) -> str | None:
    for name, value, limit_name, minimum in _gates(p, t):
        if value is None or value < minimum:
            shown = "missing" if value is None else value
            return f"{name} {shown} is under {limit_name} {minimum}"
    return None


def _acceptance(p: Proposal, t: Thresholds) -> str:
    met = ", ".join(
        f"{name} {value} ≥ {limit_name} {minimum}"
        for name, value, limit_name, minimum in _gates(p, t)
    )
    return met
