"""Asking the model about one group: render, answer from cache or adapter, parse.

:func:`ask` renders the ``system`` template and the group's prompt, looks the
exact conversation up in the cache, calls the adapter when it is not there, and
parses the answer strictly. A malformed answer gets one repair request (the
``repair`` template, naming what was wrong); a second malformed answer skips
the group, and the :class:`Answer` says why. A per-run character budget decides
whether a group is sent at all: once a prompt does not fit, that group and
every later one are deferred, so the run stops cleanly and lists what waited.
Cached answers count against the budget exactly as sent ones do, so ``review``
and ``run`` defer the same groups (the cache saves money, not budget). Provider
failures propagate as :class:`~dreamgit.errors.ProviderError` (exit code 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from dreamgit.llm.base import Completion, LLMAdapter, Message
from dreamgit.llm.cache import AnswerCache
from dreamgit.llm.proposals import Proposal, ProposalFormatError, parse_proposals

__all__ = ["Answer", "CharBudget", "ask"]

Status = Literal["answered", "skipped", "deferred"]


@dataclass
class CharBudget:
    """A run's allowance of characters sent to and received from the model (~4 per token)."""

    max_chars: int
    used: int = 0
    exhausted: bool = False
    #: Requests that reached the provider, and answers served from the cache.
    requests: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The budget's figures for the run record."""
        return {
            "max_chars": self.max_chars,
            "used_chars": self.used,
            "exhausted": self.exhausted,
            "requests": self.requests,
            "cache_hits": self.cache_hits,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
        }


@dataclass(frozen=True)
class Answer:
    """What came of asking about one group."""

    group: str
    status: Status
    proposals: tuple[Proposal, ...] = ()
    #: Why the group was skipped or deferred, or that an answer needed its repair.
    reason: str = ""
    #: The model that answered (for the ``Dream-Model`` trailer); "" when none did.
    model: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The answer as a run-record entry (proposals are recorded as decisions instead)."""
        return {
            "group": self.group,
            "status": self.status,
            "proposals": len(self.proposals),
            "reason": self.reason,
            "model": self.model,
        }


def ask(
    adapter: LLMAdapter,
    template: str,
    context: Mapping[str, Any],
    *,
    group: str,
    budget: CharBudget,
    cache: AnswerCache | None = None,
    overrides: Mapping[str, str] | None = None,
    max_tokens: int = 2000,
) -> Answer:
    """Ask ``adapter`` the ``template`` prompt about one group and parse its proposals.

    ``group`` labels the group in records (e.g. ``consolidate m-1,m-2``).
    Template errors and provider failures are raised; a malformed answer and a
    spent budget are not errors but outcomes, reported in the Answer.
    """
    from dreamgit.templating import render  # jinja2: only when a model is asked

    if budget.exhausted:
        return Answer(group, "deferred", reason="the run's LLM budget is spent")
    messages = [
        Message("system", render("system", {}, overrides=overrides).strip()),
        Message("user", render(template, context, overrides=overrides).strip()),
    ]
    first = _exchange(adapter, messages, max_tokens, budget, cache)
    if first is None:
        return Answer(group, "deferred", reason=_no_room(messages, budget))
    try:
        return Answer(group, "answered", tuple(parse_proposals(first.text)), model=first.model)
    except ProposalFormatError as exc:
        problem = str(exc)
    repair = render("repair", {"error": problem}, overrides=overrides).strip()
    messages += [Message("assistant", first.text), Message("user", repair)]
    second = _exchange(adapter, messages, max_tokens, budget, cache)
    if second is None:
        return Answer(
            group,
            "deferred",
            reason=f"malformed answer ({problem}) and {_no_room(messages, budget)}",
            model=first.model,
        )
    try:
        proposals = tuple(parse_proposals(second.text))
    except ProposalFormatError as exc:
        return Answer(
            group,
            "skipped",
            reason=f"malformed answer after one repair request: {exc} (first answer: {problem})",
            model=second.model,
        )
    return Answer(
        group, "answered", proposals, reason=f"repaired: first answer {problem}", model=second.model
    )


def _size(messages: Sequence[Message]) -> int:
    return sum(len(m.content) for m in messages)


def _no_room(messages: Sequence[Message], budget: CharBudget) -> str:
    left = max(0, budget.max_chars - budget.used)
    return (
        f"the prompt of {_size(messages)} characters does not fit the {left} left of the "
        f"run's LLM budget ({budget.max_chars} characters)"
    )


def _exchange(
    adapter: LLMAdapter,
    messages: Sequence[Message],
    max_tokens: int,
    budget: CharBudget,
    cache: AnswerCache | None,
) -> Completion | None:
    """One request, from the cache when possible; None (and the budget closed) when it won't fit."""
    size = _size(messages)
    if budget.used + size > budget.max_chars:
        budget.exhausted = True
        return None
    key = AnswerCache.key(adapter.name, adapter.model, messages, max_tokens)
    completion = cache.get(key) if cache is not None else None
    if completion is not None:
        budget.cache_hits += 1
    else:
        completion = adapter.complete(messages, max_tokens=max_tokens)
        budget.requests += 1
        budget.input_tokens += completion.input_tokens
        budget.output_tokens += completion.output_tokens
        if cache is not None:
            cache.put(key, completion)
    budget.used += size + len(completion.text)
    return completion
