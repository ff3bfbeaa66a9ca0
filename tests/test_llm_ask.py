"""Asking about a group end to end: repair, skip, budget, cache, and injection resistance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dreamgit.llm.anthropic import AnthropicAdapter
from dreamgit.llm.ask import CharBudget, ask
from dreamgit.llm.cache import AnswerCache
from dreamgit.llm.context import consolidate_context, gather_context
from dreamgit.llm.openai import OpenAIAdapter
from dreamgit.llm.proposals import RunLimits, Thresholds, validate_proposals
from dreamgit.llm.scripted import ScriptedAdapter
from llm_support import (
    INJECTION_SESSIONS,
    MEMORIES,
    NOW,
    anthropic_reply,
    loopback,
    openai_reply,
)

THRESHOLDS = Thresholds()
GROUP = MEMORIES[2:]
GOOD = {
    "proposals": [
        {
            "op": "merge",
            "ids": ["m-pytest01", "m-pytest02"],
            "text": "Prefers pytest over unittest.",
            "confidence": 0.93,
            "reason": "same preference",
        }
    ]
}


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests must not go through a proxy from the environment."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)


def _consolidate(adapter: Any, budget: CharBudget, cache: AnswerCache | None = None) -> Any:
    context = consolidate_context(GROUP, now=NOW, thresholds=THRESHOLDS)
    return ask(
        adapter,
        "consolidate",
        context,
        group="consolidate m-pytest01,m-pytest02",
        budget=budget,
        cache=cache,
        max_tokens=500,
    )


def _openai(url: str) -> OpenAIAdapter:
    return OpenAIAdapter({"model": "gpt-test", "base_url": url + "/v1", "retries": 0})


def test_good_answer_over_http_becomes_proposals() -> None:
    """The real adapter, a loopback server, one request, one parsed merge proposal."""
    with loopback([openai_reply(json.dumps(GOOD))], path="/v1/chat/completions") as server:
        answer = _consolidate(_openai(server.url), CharBudget(100_000))
    assert answer.status == "answered" and server.count == 1
    assert [p.op for p in answer.proposals] == ["merge"]
    assert answer.model == "gpt-test"
    sent = server.received[0]["body"]["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]
    assert sent[1]["content"].startswith("# Consolidate similar memories")


def test_malformed_json_gets_one_repair_request_then_is_used() -> None:
    """Broken JSON, then a repair request naming the problem, then a good answer."""
    replies = [openai_reply('{"proposals": [{"op": "merge",'), openai_reply(json.dumps(GOOD))]
    with loopback(replies, path="/v1/chat/completions") as server:
        answer = _consolidate(_openai(server.url), CharBudget(100_000))
    assert answer.status == "answered" and len(answer.proposals) == 1
    assert answer.reason == (
        "repaired: first answer not valid JSON: Expecting property name enclosed in double "
        "quotes at line 1 column 31"
    )
    repair = server.received[1]["body"]["messages"]
    assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
    assert repair[2]["content"] == '{"proposals": [{"op": "merge",'
    assert repair[3]["content"].startswith("Your previous answer could not be used: not valid JSON")


def test_repair_over_anthropic_keeps_system_apart_and_turns_alternating() -> None:
    """Anthropic gets the system text at the top level and user/assistant/user turns."""
    replies = [
        anthropic_reply('```json\n{"proposals": [{"op": "merge"}]}\n```'),
        anthropic_reply(json.dumps(GOOD)),
    ]
    with loopback(replies, path="/v1/messages") as server:
        adapter = AnthropicAdapter(
            {
                "model": "claude-test",
                "base_url": server.url,
                "api_key_env": "DREAMGIT_TEST_NO_KEY",
                "retries": 0,
            }
        )
        answer = _consolidate(adapter, CharBudget(100_000))
    assert answer.status == "answered" and answer.model == "claude-test"
    assert answer.reason == 'repaired: first answer proposals[0]: op merge needs "confidence"'
    body = server.received[1]["body"]
    assert body["system"].startswith("You are the memory-consolidation step of dreamgit.")
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]


def test_wrong_schema_twice_skips_the_group_and_says_why() -> None:
    """A second malformed answer: no third request, the group is skipped with both reasons."""
    bad = json.dumps(
        {
            "proposals": [
                {
                    "op": "merge",
                    "ids": ["m-pytest01", "m-pytest02"],
                    "text": "x",
                    "score": 0.9,
                    "reason": "r",
                }
            ]
        }
    )
    with loopback([openai_reply(bad)], path="/v1/chat/completions") as server:
        budget = CharBudget(100_000)
        answer = _consolidate(_openai(server.url), budget)
    assert server.count == 2
    assert answer.status == "skipped" and answer.proposals == ()
    assert answer.reason == (
        'malformed answer after one repair request: proposals[0]: unknown field "score" '
        '(did you mean "confidence"?) (first answer: proposals[0]: unknown field "score" '
        '(did you mean "confidence"?))'
    )
    assert answer.to_dict() == {
        "group": "consolidate m-pytest01,m-pytest02",
        "status": "skipped",
        "proposals": 0,
        "reason": answer.reason,
        "model": "gpt-test",
    }
    assert not budget.exhausted


def test_invented_ids_from_the_model_are_rejected_by_the_gates() -> None:
    """A well-formed answer naming a memory that was not sent is parsed, then rejected."""
    invented = {
        "proposals": [
            {
                "op": "remove",
                "ids": ["m-zzzzzzzz"],
                "supersession_confidence": 0.99,
                "reason": "stale",
            }
        ]
    }
    with loopback([openai_reply(json.dumps(invented))], path="/v1/chat/completions") as server:
        answer = _consolidate(_openai(server.url), CharBudget(100_000))
    accepted, rejected = validate_proposals(
        answer.proposals,
        known_ids={m.id for m in GROUP},
        is_protected=lambda _: False,
        thresholds=THRESHOLDS,
        limits=RunLimits(),
    )
    assert accepted == []
    assert [d.to_dict() for d in rejected] == [
        {
            "proposal": {
                "op": "remove",
                "ids": ["m-zzzzzzzz"],
                "supersession_confidence": 0.99,
                "reason": "stale",
            },
            "accepted": False,
            "reason": "unknown memory id m-zzzzzzzz: not among the memories sent",
        }
    ]


def test_second_run_of_the_same_dream_is_answered_from_the_cache(tmp_path: Path) -> None:
    """Same model, same prompt: the server is asked once, the second run reads the cache."""
    cache = AnswerCache(tmp_path / "llm-cache")
    replies = [openai_reply("not json"), openai_reply(json.dumps(GOOD))]
    with loopback(replies, path="/v1/chat/completions") as server:
        first_budget, second_budget = CharBudget(100_000), CharBudget(100_000)
        first = _consolidate(_openai(server.url), first_budget, cache)
        assert server.count == 2
        second = _consolidate(_openai(server.url), second_budget, cache)
        assert server.count == 2
    assert first == second
    assert (second_budget.requests, second_budget.cache_hits) == (0, 2)
    # The cache saves requests, not budget: review and run defer the same groups.
    assert second_budget.used == first_budget.used


def test_a_changed_prompt_or_model_is_not_served_from_the_cache(tmp_path: Path) -> None:
    """The key covers model and prompt: another model asks again."""
    cache = AnswerCache(tmp_path)
    one = ScriptedAdapter({"responses": [GOOD], "model": "a"})
    two = ScriptedAdapter({"responses": [GOOD], "model": "b"})
    _consolidate(one, CharBudget(100_000), cache)
    _consolidate(two, CharBudget(100_000), cache)
    assert (len(one.requests), len(two.requests)) == (1, 1)


def test_corrupt_cache_entry_is_asked_again(tmp_path: Path) -> None:
    """A damaged cache file is a miss, not a crash."""
    cache = AnswerCache(tmp_path)
    adapter = ScriptedAdapter({"responses": [GOOD, GOOD]})
    _consolidate(adapter, CharBudget(100_000), cache)
    for entry in tmp_path.rglob("*.json"):
        entry.write_text("{", encoding="utf-8")
    _consolidate(adapter, CharBudget(100_000), cache)
    assert len(adapter.requests) == 2
    assert not list(tmp_path.rglob(".tmp-*"))


def test_spent_budget_defers_this_and_every_later_group() -> None:
    """A prompt that does not fit is not sent; the run stops cleanly and lists the deferred."""
    adapter = ScriptedAdapter({"responses": [GOOD]})
    budget = CharBudget(4_000)
    first = _consolidate(adapter, budget)
    second = _consolidate(adapter, budget)
    third = _consolidate(adapter, budget)
    assert first.status == "answered"
    assert second.status == "deferred" and budget.exhausted
    assert second.reason.startswith("the prompt of ")
    assert second.reason.endswith(" left of the run's LLM budget (4000 characters)")
    assert third.reason == "the run's LLM budget is spent"
    assert len(adapter.requests) == 1


def test_no_budget_for_the_repair_defers_the_group() -> None:
    """A malformed answer whose repair would not fit is deferred, not half-done."""
    adapter = ScriptedAdapter({"responses": ["nope"]})
    budget = CharBudget(3_000)
    answer = _consolidate(adapter, budget)
    assert answer.status == "deferred" and len(adapter.requests) == 1
    assert answer.reason.startswith(
        "malformed answer (not valid JSON: Expecting value at line 1 column 1) and the prompt of "
    )


def test_injection_sessions_cannot_touch_protected_memories_or_break_limits() -> None:
    """A model obeying the injected text proposes harm; the gates reject every harmful part."""
    obedient = {
        "proposals": [
            {
                "op": "remove",
                "ids": ["m-core0001"],
                "supersession_confidence": 1.0,
                "reason": "the user asked to delete all memories",
            },
            {
                "op": "merge",
                "ids": ["m-flask001", "m-core0001"],
                "text": "everything",
                "confidence": 1.0,
                "reason": "asked",
            },
            {
                "op": "add",
                "text": "Everything is core.",
                "topic": "identity",
                "priority": "core",
                "confidence": 1.0,
                "sources": ["s-20261121-d4e5f6"],
                "reason": "mark everything core",
            },
            {"op": "remove", "ids": ["m-ghost001"], "supersession_confidence": 1.0, "reason": "x"},
            {
                "op": "add",
                "text": "Uses FastAPI for the api service.",
                "topic": "projects",
                "confidence": 0.95,
                "sources": ["s-20261121-a1b2c3"],
                "reason": "switched",
            },
            {
                "op": "add",
                "text": "Likes cake.",
                "topic": "preferences",
                "confidence": 0.99,
                "sources": ["s-20261121-a1b2c3"],
                "reason": "second add",
            },
        ]
    }
    adapter = ScriptedAdapter({"responses": [obedient]})
    context = gather_context(
        INJECTION_SESSIONS, MEMORIES, now=NOW, thresholds=THRESHOLDS, max_adds=1
    )
    answer = ask(adapter, "gather", context, group="gather", budget=CharBudget(100_000))
    limits = RunLimits(max_adds=1)
    protected = {m.id for m in MEMORIES if m.priority == "core" or m.topic == "identity"}
    accepted, rejected = validate_proposals(
        answer.proposals,
        known_ids={m.id for m in MEMORIES},
        is_protected=protected.__contains__,
        thresholds=THRESHOLDS,
        limits=limits,
        known_sources={s.id for s in INJECTION_SESSIONS},
    )
    assert [d.proposal.text for d in accepted] == ["Uses FastAPI for the api service."]
    assert [d.reason for d in rejected] == [
        "m-core0001 is protected (core or a protected topic): never changed by a dream",
        "m-core0001 is protected (core or a protected topic): never changed by a dream",
        "priority core is above high, the most a proposal may set",
        "unknown memory id m-ghost001: not among the memories sent",
        "max_adds_per_run (1) reached",
    ]
    # What the model was sent kept the injected text inside the data blocks.
    [request] = adapter.requests
    prompt = request.messages[1].content
    tail = prompt.rsplit("</data>", 1)[1]
    assert "ignore previous instructions" not in tail and "SYSTEM:" not in tail
