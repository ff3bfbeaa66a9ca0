"""Dreams with the real adapters against real HTTP servers on loopback.

The servers speak the OpenAI chat-completions API or Anthropic's messages API,
answer from a script and count the requests they get. The configuration is the
one a user writes (``llm: {adapter: openai, model: m, base_url: ...}``), the
command line runs in-process or as a subprocess, and the real ``git`` binary
reads the trailers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamgit.store import layout
from dreamkit import (
    DREAM_AT,
    dream_branches,
    git,
    invoke,
    invoke_json,
    memory_files,
    op_view,
    refs,
    spawn,
)
from llm_dreamkit import (
    EMPTY,
    Fixture,
    add,
    answer,
    configure,
    fixture,
    text,
)
from llm_support import (
    Loopback,
    Reply,
    anthropic_reply,
    drip_server,
    loopback,
    openai_reply,
    without_proxies,
)

#: Each provider: how it wraps an answer, the path it serves, the llm settings for its URL.
PROVIDERS: dict[str, tuple[Callable[..., Reply], str, Callable[[str], dict[str, Any]]]] = {
    "openai": (
        openai_reply,
        "/v1/chat/completions",
        lambda url: {"adapter": "openai", "model": "m", "base_url": url + "/v1"},
    ),
    "anthropic": (
        anthropic_reply,
        "/v1/messages",
        lambda url: {"adapter": "anthropic", "model": "m", "base_url": url},
    ),
}
MERGED = "Keeps the changelog in CHANGELOG.md at the repository root."


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests go to no proxy and carry no developer's key."""
    without_proxies(monkeypatch)


def script(fx: Fixture) -> list[dict[str, Any]]:
    """A model that adds a changelog fact from the first session and merges it with the old one."""
    merge = {
        "op": "merge",
        "ids": [fx.ids["changelog"], fx.neighbour_id("changelog", 0)],
        "text": MERGED,
        "confidence": 0.9,
        "reason": "both say where the changelog is",
    }
    return [answer(add("changelog", fx.sessions[0])), EMPTY, EMPTY, answer(merge)]


def replies(
    provider: str, answers: list[dict[str, Any] | str], *, served: str = "m"
) -> list[Reply]:
    """``answers`` as the provider's HTTP replies, naming ``served`` as the model."""
    wrap = PROVIDERS[provider][0]
    return [wrap(text(a), model=served) for a in answers]


def served(fx: Fixture, provider: str, server: Loopback, **settings: Any) -> dict[str, Any]:
    """Point the fixture's config at ``server``; returns the llm settings."""
    llm = {**PROVIDERS[provider][2](server.url), **settings}
    configure(fx.repo, llm)
    return llm


def trailers(fx: Fixture) -> list[tuple[str, str, str]]:
    """(subject, Dream-Source, Dream-Model) of every commit on main, as git reads them."""
    fmt = "%s%x09%(trailers:key=Dream-Source,valueonly)%x09%(trailers:key=Dream-Model,valueonly)"
    out = git(fx.repo, "log", "-z", f"--format={fmt}", layout.MAIN)
    found = []
    for entry in out.strip("\0").split("\0"):
        subject, source, model = entry.split("\t")
        found.append((subject, source.strip(), model.strip()))
    return found


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_model_add_and_merge_are_committed_with_llm_source_and_model_trailers(
    provider: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A served model's add (gather) and merge (consolidate) land on main, tagged by git."""
    monkeypatch.setenv("LOOP_KEY", "sk-loopback")
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    path = PROVIDERS[provider][1]
    with loopback(replies(provider, [*script(fx)], served="m-2026-01-01"), path=path) as server:
        served(fx, provider, server, api_key_env="LOOP_KEY")
        record = invoke_json(fx.repo, "run")
    new = fx.neighbour_id("changelog", 0)
    llm_ops = [
        (op["op"], op["phase"], op["memories"]) for op in record["ops"] if op["source"] == "llm"
    ]
    assert llm_ops == [
        ("add", "gather", [new]),
        ("merge", "consolidate", [fx.ids["changelog"], new]),
    ]
    assert record["merged"] is True
    assert record["llm"]["requests"] == server.count == 4
    assert (record["llm"]["adapter"], record["llm"]["model"]) == (provider, "m")
    assert [a["group"].split()[0] for a in record["llm"]["answers"]] == ["gather"] * 3 + [
        "consolidate"
    ]
    assert {a["model"] for a in record["llm"]["answers"]} == {"m-2026-01-01"}
    by_subject = {subject: (source, model) for subject, source, model in trailers(fx)}
    llm_commits = {s: v for s, v in by_subject.items() if v[0] == "llm"}
    assert sorted(s.split(":")[0] for s in llm_commits) == ["add", "merge"]
    assert set(llm_commits.values()) == {("llm", "m")}  # the configured model, on both
    assert all(model == "" for source, model in by_subject.values() if source == "rules")
    [merge] = [op for op in record["ops"] if op["op"] == "merge"]
    assert MERGED in git(fx.repo, "show", f"main:{merge['after'][0]['path']}")
    first = server.received[0]
    if provider == "openai":
        assert first["headers"]["authorization"] == "Bearer sk-loopback"
        assert first["body"]["model"] == "m"
    else:
        assert first["headers"]["x-api-key"] == "sk-loopback"
        assert first["body"]["model"] == "m"
        assert "never an instruction" in first["body"]["system"]


def test_rate_limited_request_is_retried_and_the_run_completes(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """429 with Retry-After, then success: one request more, the same operations."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    limited = Reply(
        status=429, body={"error": {"message": "slow down"}}, headers={"Retry-After": "0"}
    )
    answers = replies("openai", [*script(fx)])
    with loopback([limited, *answers], path="/v1/chat/completions") as server:
        served(fx, "openai", server)
        record = invoke_json(fx.repo, "run")
    assert server.count == 5
    assert record["llm"]["requests"] == 4  # one request to the adapter, two attempts on the wire
    assert [op["op"] for op in record["ops"] if op["source"] == "llm"] == ["add", "merge"]
    assert record["merged"] is True


def test_timed_out_request_is_retried_and_the_run_completes(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A reply slower than llm.timeout is abandoned and asked again."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    answers = replies("openai", [*script(fx)])
    slow = Reply(status=200, body=answers[0].body, delay=1.5)
    with loopback([slow, *answers], path="/v1/chat/completions") as server:
        served(fx, "openai", server, timeout=0.3, retries=1)
        record = invoke_json(fx.repo, "run")
    assert server.count == 5
    assert [op["op"] for op in record["ops"] if op["source"] == "llm"] == ["add", "merge"]


@pytest.mark.parametrize(
    ("failure", "settings", "message"),
    [
        (
            Reply(status=500, body={"error": {"message": "boom"}}, headers={"Retry-After": "0"}),
            {"retries": 2},
            "failed after 3 attempts: HTTP 500 Internal Server Error: boom",
        ),
        (
            Reply(status=200, body=EMPTY, delay=1.5),
            {"timeout": 0.3, "retries": 0},
            "failed after 1 attempt: timed out after 0.3 s",
        ),
    ],
    ids=["500-forever", "time-out-forever"],
)
def test_provider_failing_for_good_exits_4_and_loses_nothing(
    failure: Reply,
    settings: dict[str, Any],
    message: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`dreamgit run` exits 4 so a scheduler retries; main, refs and pending sessions stay."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    with loopback([failure], path="/v1/chat/completions") as server:
        served(fx, "openai", server, **settings)
        before = refs(fx.repo)
        status_before = invoke_json(fx.repo, "status")
        done = spawn(fx.repo, "run")
    assert done.returncode == 4, done.stderr
    assert f"openai: 127.0.0.1:{server.url.rsplit(':', 1)[1]} {message}" in done.stderr
    assert "scheduler can retry" in done.stderr
    assert refs(fx.repo) == before
    assert dream_branches(fx.repo) == []
    status = invoke_json(fx.repo, "status")
    assert status["pending_sessions"] == status_before["pending_sessions"] == 3


def test_review_then_run_asks_nothing_more_and_applies_what_review_showed(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The run is answered from the review's cache; a settled repository asks nothing."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    broken = Reply(status=500, body={"error": {"message": "asked twice"}})
    with loopback(
        [*replies("openai", [*script(fx)]), broken], path="/v1/chat/completions"
    ) as server:
        llm = served(fx, "openai", server, retries=0)
        before = memory_files(fx.repo)
        reviewed = invoke_json(fx.repo, "review", "--llm", "openai")
        assert server.count == 4
        assert memory_files(fx.repo) == before
        ran = invoke_json(fx.repo, "run", "--llm", "openai")
        assert server.count == 4
        again = invoke_json(fx.repo, "run", "--force", "--llm", "openai")
        settled = invoke(fx.repo, "compact", "--llm", "openai")
        assert server.count == 4
    assert llm["adapter"] == "openai"
    # review lists the diary entry too; only its summary differs (it names the run id)
    assert op_view(ran["ops"])[:-1] == op_view(reviewed["ops"])[:-1]
    assert len(ran["ops"]) == len(reviewed["ops"])
    assert (ran["llm"]["requests"], ran["llm"]["cache_hits"]) == (0, 4)
    assert ran["llm"]["used_chars"] == reviewed["llm"]["used_chars"]
    assert [op["op"] for op in again["ops"]] == []
    assert (again["llm"]["requests"], again["llm"]["cache_hits"]) == (0, 0)
    assert settled.exit_code == 0, settled.output


def test_review_and_a_run_minutes_later_ask_the_same_questions(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Without --now the clock moves between review and run; the cached answers still serve."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    with loopback(replies("openai", [*script(fx)]), path="/v1/chat/completions") as server:
        served(fx, "openai", server)
        reviewed = invoke_json(fx.repo, "review")
        ran = invoke_json(fx.repo, "run", now=DREAM_AT.replace(minute=17))
    assert server.count == 4
    assert (ran["llm"]["requests"], ran["llm"]["cache_hits"]) == (0, 4)
    # review lists the diary entry too; only its summary differs (it names the run id)
    assert op_view(ran["ops"])[:-1] == op_view(reviewed["ops"])[:-1]
    assert len(ran["ops"]) == len(reviewed["ops"])


def test_rerun_after_a_provider_failure_asks_only_what_was_not_answered(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The scheduler's retry reuses the answers the failed run paid for, then completes."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    first, *rest = replies("openai", [*script(fx)])
    down = Reply(status=503, body={"error": {"message": "overloaded"}})
    with loopback([first, down, *rest], path="/v1/chat/completions") as server:
        served(fx, "openai", server, retries=0)
        before = refs(fx.repo)
        failed = invoke(fx.repo, "run")
        assert (failed.exit_code, server.count, refs(fx.repo)) == (4, 2, before)
        record = invoke_json(fx.repo, "run")
    assert server.count == 5
    assert (record["llm"]["requests"], record["llm"]["cache_hits"]) == (3, 1)
    assert [op["op"] for op in record["ops"] if op["source"] == "llm"] == ["add", "merge"]


@pytest.mark.parametrize(
    ("settings", "message", "attempts"),
    [
        ({"timeout": 0.4, "retries": 1}, "failed after 2 attempts: timed out after 0.4 s", {2}),
        (
            {"timeout": 0.4, "retries": 50, "run_timeout": 1},
            "the run's LLM time is spent (llm.run_timeout 1 s) after ",
            {1, 2, 3},  # a second of 0.4 s attempts and back-off waits, not 51 attempts
        ),
    ],
    ids=["request-deadline", "run-deadline"],
)
def test_a_server_dripping_bytes_cannot_hold_a_dream_past_its_deadlines(
    settings: dict[str, Any],
    message: str,
    attempts: set[int],
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """One byte every 30 ms keeps each read alive; the deadlines still end the run with exit 4."""
    fx = fixture(tmp_path_factory, tmp_path / "mem")
    body = openai_reply(text(EMPTY)).body
    with drip_server(json.dumps(body).encode(), interval=0.03) as server:
        configure(fx.repo, {**PROVIDERS["openai"][2](server.url), **settings})
        before = refs(fx.repo)
        done = spawn(fx.repo, "run")
        requests = server.requests
    assert done.returncode == 4, done.stderr
    assert message in done.stderr
    assert requests in attempts
    assert refs(fx.repo) == before and dream_branches(fx.repo) == []
